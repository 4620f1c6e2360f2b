package agentjail

t_settings_write(judgement) := object.union(
	t_tool("Edit", {"file_path": "/home/dev/.claude/settings.json", "old_string": "a", "new_string": "b"}, ["/home/dev/.claude/settings.json"]),
	{"agentjail": object.union(
		t_tool("Edit", {}, ["/home/dev/.claude/settings.json"]).agentjail,
		{"guard_config": [judgement]},
	)},
)

test_settings_result_denied if {
	ev := t_settings_write({"path": "/home/dev/.claude/settings.json", "agent": "claude-code", "removes_guard": true, "problem": "narrow the matcher"})
	some m in deny with input as ev
	m.id == "self.settings_result"
	contains(m.msg, "~/.claude/settings.json would narrow the matcher")
	contains(m.msg, "Leave the agentjail hook in place")
}

test_settings_result_kept_allowed if not t_fired("self.settings_result", t_settings_write({"path": "/home/dev/.claude/settings.json", "agent": "claude-code", "removes_guard": false, "problem": ""}))

test_nested_agent_denied if {
	ev := object.union(t_bash([t_cmd("claude", ["--bare"], [])]), {"agentjail": object.union(t_bash([t_cmd("claude", ["--bare"], [])]).agentjail, {"nested_agents": [{"program": "claude", "verdict": "deny", "problem": "claude --bare skips every hook"}]})})
	t_denied("self.nested_agent", ev)
}

test_nested_agent_settings_file_asked if {
	ev := object.union(t_bash([t_cmd("claude", ["--settings", "/tmp/s.json"], [])]), {"agentjail": object.union(t_bash([t_cmd("claude", [], [])]).agentjail, {"nested_agents": [{"program": "claude", "verdict": "ask", "problem": "claude --settings /tmp/s.json loads a file"}]})})
	t_asked("self.nested_agent", ev)
	not t_denied("self.nested_agent", ev)
}

test_managed_drop_in_is_claude_settings if claude_settings("/etc/claude-code/managed-settings.d/10-team.json")

test_no_guard_config_nothing_fired if {
	ev := t_tool("Write", {"file_path": "/home/dev/project/x.json"}, ["/home/dev/project/x.json"])
	not t_fired("self.settings_result", ev)
	not t_fired("self.nested_agent", ev)
}
