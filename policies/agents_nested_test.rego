package agentjail

test_claude_skip_permissions_asked if t_asked("agents.approvals_off", t_bash([t_cmd("claude", ["-p", "fix", "--dangerously-skip-permissions"], [])]))

test_claude_bypass_mode_asked if t_asked("agents.approvals_off", t_bash([t_cmd("claude", ["--permission-mode", "bypassPermissions"], [])]))

test_claude_bypass_mode_joined_asked if t_asked("agents.approvals_off", t_bash([t_cmd("claude", ["--permission-mode=bypassPermissions"], [])]))

test_codex_config_never_asked if t_asked("agents.approvals_off", t_bash([t_cmd("codex", ["exec", "-c", "approval_policy=never", "x"], [])]))

test_gemini_yolo_asked if t_asked("agents.approvals_off", t_bash([t_cmd("gemini", ["-y", "-p", "go"], [])]))

test_runner_package_asked if t_asked("agents.approvals_off", t_bash([t_cmd("npx", ["-y", "@openai/codex@latest", "--yolo"], [])]))

test_aider_env_asked if {
	c := object.union(t_cmd("aider", ["--message", "x"], []), {"assigns": {"AIDER_YES_ALWAYS": "true"}})
	t_asked("agents.approvals_off", t_bash([c]))
}

test_claude_plan_mode_allowed if not t_fired("agents.approvals_off", t_bash([t_cmd("claude", ["--permission-mode", "plan", "-p", "x"], [])]))

test_codex_read_only_allowed if not t_fired("agents.approvals_off", t_bash([t_cmd("codex", ["--sandbox", "read-only", "exec", "x"], [])]))

test_aider_env_off_allowed if {
	c := object.union(t_cmd("aider", ["--message", "x"], []), {"assigns": {"AIDER_YES_ALWAYS": "false"}})
	not t_fired("agents.approvals_off", t_bash([c]))
}

# -y is npx's own switch, not the agent's.
test_runner_own_yes_allowed if not t_fired("agents.approvals_off", t_bash([t_cmd("npx", ["-y", "@google/gemini-cli", "-p", "x"], [])]))
