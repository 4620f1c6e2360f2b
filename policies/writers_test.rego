package agentjail

# Tests of the rules for tools other than the shell that are not known
# only to read (input.agentjail.touches, pids, touches_truncated).

t_writer(name, fields) := {
	"tool_name": name, "tool_input": {},
	"agentjail": object.union(
		{"tool_kind": "mcp", "tool_name": name, "home": t_home, "cwd": t_project, "agentjail_home": "/home/dev/.agentjail", "daemon_pid": 4242, "paths": [], "writes": [], "unusual_paths": [], "urls": []},
		fields,
	),
}

test_touch_of_agentjail_config_denied if t_denied("self.protected_file", t_writer("mcp__fs__append_file", {"touches": ["/home/dev/.agentjail/config.yaml"]}))

test_touch_of_service_unit_denied if t_denied("self.protected_file", t_writer("mcp__fs__move", {"touches": ["/home/dev/project/a", "/home/dev/.config/systemd/user/agentjail.service"]}))

# Settings are judged on what the call leaves (guard_config), not here.
test_touch_of_settings_left_to_guard_config if not t_denied("self.protected_file", t_writer("mcp__fs__set", {"touches": ["/home/dev/.claude/settings.json"]}))

test_touch_in_project_allowed if not t_denied("self.protected_file", t_writer("mcp__fs__copy_file", {"touches": ["/home/dev/project/a.go", "/home/dev/project/b.go"]}))

test_daemon_pid_denied if t_denied("self.stop_daemon", t_writer("mcp__proc__kill_process", {"pids": [4242]}))

test_other_pid_allowed if not t_denied("self.stop_daemon", t_writer("mcp__proc__kill_process", {"pids": [4243]}))

test_truncated_scan_asked if t_asked("self.touches_unchecked", t_writer("mcp__x__bulk", {"touches_truncated": true}))

test_unseen_patch_asked if t_asked("self.patch_unseen", t_bash([t_cmd("apply_patch", ["$(cat p)"], [])]))

test_shown_patch_not_asked if not t_asked("self.patch_unseen", object.union(t_bash([t_cmd("apply_patch", [], [])]), {"agentjail": {"writes": ["/home/dev/project/a.go"]}}))

# --- settings that run code or switch the hook off (self_settings.rego) ---

t_ws_settings(judgement) := {
	"tool_name": "Write", "tool_input": {},
	"agentjail": {"tool_kind": "write", "home": t_home, "cwd": t_project, "paths": [judgement.path], "writes": [judgement.path], "unusual_paths": [], "urls": [], "guard_config": [judgement]},
}

test_settings_runs_code_asked if t_asked("self.settings_runs_code", t_ws_settings({"path": "/home/dev/project/.claude/settings.json", "agent": "claude-code", "removes_guard": false, "problem": "", "created_unhooked": false, "runs_code": ["set statusLine to x"]}))

test_settings_without_code_not_asked if not t_asked("self.settings_runs_code", t_ws_settings({"path": "/home/dev/project/.claude/settings.json", "agent": "claude-code", "removes_guard": false, "problem": "", "created_unhooked": false}))

t_written_env(disabling) := {
	"tool_name": "Write", "tool_input": {},
	"agentjail": {"tool_kind": "write", "home": t_home, "cwd": t_project, "paths": [], "writes": [], "unusual_paths": [], "urls": [], "written": [{
		"path": "/home/dev/project/mise.toml", "kind": "mise", "commands": [], "text": [],
		"added": [{"label": "env", "key": "env/BASH_ENV", "value": "/tmp/x", "disabling": disabling}],
	}]},
}

test_editor_env_disabling_denied if t_denied("self.settings_env", t_written_env(true))

test_editor_env_other_allowed if not t_denied("self.settings_env", t_written_env(false))

test_copilot_settings_are_agent_settings if {
	claude_settings("/home/dev/.copilot/settings.json") with input as t_bash([])
	claude_settings("/home/dev/project/.github/copilot/settings.json") with input as t_bash([])
}
