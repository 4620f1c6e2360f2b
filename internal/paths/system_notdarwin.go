//go:build !darwin

package paths

const (
	systemServiceUser = "agentjail"
	systemLibexec     = "/usr/local/libexec/agentjail"
)
