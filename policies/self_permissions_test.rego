package agentjail

t_grant_write(grants) := object.union(
	t_tool("Edit", {"file_path": "/home/dev/.claude/settings.json", "old_string": "a", "new_string": "b"}, ["/home/dev/.claude/settings.json"]),
	{"agentjail": object.union(
		t_tool("Edit", {}, ["/home/dev/.claude/settings.json"]).agentjail,
		{"guard_config": [{"path": "/home/dev/.claude/settings.json", "agent": "claude-code", "removes_guard": false, "problem": "", "grants": grants}]},
	)},
)

test_wide_grant_denied if {
	ev := t_grant_write([{"verdict": "deny", "grant": "add \"Bash(*)\" to permissions.allow"}])
	some m in deny with input as ev
	m.id == "self.permissions_widened"
	contains(m.msg, "~/.claude/settings.json would add \"Bash(*)\" to permissions.allow")
	contains(m.msg, "Ask the user")
}

test_narrow_grant_asked if {
	ev := t_grant_write([{"verdict": "ask", "grant": "add \"Bash(npm test)\" to permissions.allow"}])
	t_asked("self.permissions_granted", ev)
	not t_denied("self.permissions_widened", ev)
}

test_no_grants_nothing_fired if {
	ev := t_grant_write([])
	not t_fired("self.permissions_widened", ev)
	not t_fired("self.permissions_granted", ev)
}

test_judgement_without_grants_nothing_fired if {
	ev := t_settings_write({"path": "/home/dev/.claude/settings.json", "agent": "claude-code", "removes_guard": false, "problem": ""})
	not t_fired("self.permissions_widened", ev)
	not t_fired("self.permissions_granted", ev)
}

test_claude_config_wildcard_denied if t_denied("self.permissions_widened", t_bash([t_cmd("claude", ["config", "add", "allowedTools", "Bash(*)"], [])]))

test_claude_config_bypass_denied if t_denied("self.permissions_widened", t_bash([t_cmd("claude", ["config", "set", "-g", "defaultMode", "bypassPermissions"], [])]))

test_claude_config_one_command_asked if {
	ev := t_bash([t_cmd("claude", ["config", "add", "allowedTools", "Bash(npm test:*)"], [])])
	t_asked("self.permissions_granted", ev)
	not t_denied("self.permissions_widened", ev)
}

test_claude_config_other_keys_allowed if {
	not t_fired("self.permissions_granted", t_bash([t_cmd("claude", ["config", "set", "-g", "theme", "dark"], [])]))
	not t_fired("self.permissions_granted", t_bash([t_cmd("claude", ["config", "get", "allowedTools"], [])]))
}

test_wide_rule_text if {
	wide_rule_text("Bash(*)")
	wide_rule_text("Bash")
	wide_rule_text("mcp__*")
	wide_rule_text("Bash(sh -c:*)")
	not wide_rule_text("Bash(npm test)")
	not wide_rule_text("Read")
	not wide_rule_text("mcp__github")
}

test_cursor_permission_files if {
	agent_permission_file("/home/dev/.cursor/cli-config.json")
	agent_permission_file("/home/dev/project/.cursor/cli.json")
	not agent_permission_file("/home/dev/project/cli.json")
}
