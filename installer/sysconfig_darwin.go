package installer

// Where the agents read machine-wide settings on macOS; variables, so a
// test can point them at its own folder.
var (
	claudeManagedDir         = "/Library/Application Support/ClaudeCode"
	geminiSystemSettingsPath = "/Library/Application Support/GeminiCli/settings.json"
	codexSystemConfig        = "/etc/codex/config.toml"
)
