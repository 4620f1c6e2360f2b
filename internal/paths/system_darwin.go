package paths

const (
	systemServiceUser = "_agentjail" // macOS names system accounts with a leading underscore
	systemLibexec     = "/usr/local/libexec/agentjail"
	systemRunDir      = "/var/run/agentjail" // where the system daemon's socket lives
)
