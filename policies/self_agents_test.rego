package agentjail

# Every agent's hook configuration is protected like Claude Code's, the
# user's and every project's; look-alikes stay allowed.

test_agent_hook_files_are_settings if {
	claude_settings("/home/dev/.codex/hooks.json")
	claude_settings("/home/dev/.codex/config.toml")
	claude_settings("/home/dev/project/.codex/hooks.json")
	claude_settings("/home/dev/.gemini/settings.json")
	claude_settings("/home/dev/project/.gemini/settings.json")
	claude_settings("/home/dev/.cursor/hooks.json")
	claude_settings("/home/dev/project/.cursor/hooks.json")
	claude_settings("/home/dev/.copilot/hooks/agentjail.json")
	claude_settings("/home/dev/project/.github/hooks/checks.json")
	claude_settings("/home/dev/.copilot/hooks")
}

test_agent_hook_look_alikes_are_not if {
	not claude_settings("/home/dev/project/hooks.json")
	not claude_settings("/home/dev/project/config.toml")
	not claude_settings("/home/dev/project/.github/workflows/ci.yml")
	not claude_settings("/home/dev/project/src/hooks/useThing.json")
	not claude_settings("/home/dev/project/.gemini/styleguide.md")
}

test_sed_on_codex_hooks_denied if t_denied("self.settings_shell_write", t_bash([t_cmd("sed", ["-i", "/agentjail/d", "/home/dev/.codex/hooks.json"], ["/home/dev/.codex/hooks.json"])]))

test_rm_copilot_hook_denied if t_denied("self.settings_shell_write", t_bash([t_cmd("rm", ["/home/dev/.copilot/hooks/agentjail.json"], ["/home/dev/.copilot/hooks/agentjail.json"])]))

test_cat_cursor_hooks_allowed if not t_fired("self.settings_shell_write", t_bash([t_cmd("cat", ["/home/dev/.cursor/hooks.json"], ["/home/dev/.cursor/hooks.json"])]))
