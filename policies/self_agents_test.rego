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

# Rules on the command line read the canonical command, so they hold for
# every agent's shell tool.
test_env_dump_any_agent if {
	ev := object.union(t_bash([]), {"tool_name": "run_shell_command", "tool_input": {"command": "export -p"}, "agentjail": object.union(t_bash([]).agentjail, {"command": "export -p"})})
	some a in ask with input as ev
	a.id == "env.dump"
}

test_gemini_fetch_of_metadata_denied if {
	ev := {"tool_name": "web_fetch", "tool_input": {"prompt": "read http://169.254.169.254/latest/meta-data"}, "agentjail": {"tool": "fetch", "urls": ["http://169.254.169.254/latest/meta-data"], "paths": [], "names": [], "kinds": []}}
	some d in deny with input as ev
	d.id == "network.metadata"
}

test_gemini_fetch_elsewhere_allowed if {
	ev := {"tool_name": "web_fetch", "tool_input": {"prompt": "read https://go.dev/doc"}, "agentjail": {"tool": "fetch", "urls": ["https://go.dev/doc"], "paths": [], "names": [], "kinds": []}}
	not any_deny_id("network.metadata") with input as ev
}

any_deny_id(id) if {
	some d in deny
	d.id == id
}
