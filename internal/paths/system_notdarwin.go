//go:build !darwin

package paths

const (
	systemServiceUser = "agentjail"
	systemLibexec     = "/usr/local/libexec/agentjail"
	systemRunDir      = "/run/agentjail" // systemd's RuntimeDirectory under /run
)
