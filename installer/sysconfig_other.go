//go:build !linux && !darwin

package installer

// Where the agents read machine-wide settings elsewhere (the Linux
// places); variables, so a test can point them at its own folder.
var (
	claudeManagedDir         = "/etc/claude-code"
	geminiSystemSettingsPath = "/etc/gemini-cli/settings.json"
	cursorSystemHooksPath    = "/etc/cursor/hooks.json"
	copilotPolicyDir         = "/etc/github-copilot/policy.d"
	copilotManagedSettings   = "/etc/github-copilot/managed-settings.json"
	codexRequirements        = "/etc/codex/requirements.toml"
	codexSystemConfig        = "/etc/codex/config.toml"
	qwenSystemSettingsPath   = "/etc/qwen-code/settings.json"
	droidSystemSettingsPath  = "/etc/factory/settings.json"
)
