package installer

// Where the agents read machine-wide settings on macOS; variables, so a
// test can point them at its own folder.
var (
	claudeManagedDir         = "/Library/Application Support/ClaudeCode"
	geminiSystemSettingsPath = "/Library/Application Support/GeminiCli/settings.json"
	cursorSystemHooksPath    = "/Library/Application Support/Cursor/hooks.json"
	copilotPolicyDir         = "/etc/github-copilot/policy.d" // the CLI reads /etc on macOS too
	copilotManagedSettings   = "/Library/Application Support/GitHubCopilot/managed-settings.json"
	codexRequirements        = "/etc/codex/requirements.toml"
	codexSystemConfig        = "/etc/codex/config.toml"
	qwenSystemSettingsPath   = "/Library/Application Support/QwenCode/settings.json"
	droidSystemSettingsPath  = "/Library/Application Support/Factory/settings.json"
)
