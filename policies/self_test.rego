package agentjail

test_settings_shell_write_denied if t_denied("self.settings_shell_write", t_bash([t_cmd("sed", ["-i", "/agentjail/d", "/home/dev/.claude/settings.json"], ["/home/dev/project/agentjail/d", "/home/dev/.claude/settings.json"])]))

test_settings_shell_read_allowed if not t_fired("self.settings_shell_write", t_bash([t_cmd("cat", ["/home/dev/.claude/settings.json"], ["/home/dev/.claude/settings.json"])]))


test_settings_edit_other_key_allowed if {
	ev := t_tool("Edit", {"file_path": "/home/dev/project/.claude/settings.json", "old_string": "\"model\": \"a\"", "new_string": "\"model\": \"b\""}, ["/home/dev/project/.claude/settings.json"])
	count(deny) == 0 with input as ev
}



test_agentjail_home_write_denied if t_denied("self.home_write", t_tool("Write", {"file_path": "/home/dev/.agentjail/config.yaml", "content": "disabled_rules: [x]"}, ["/home/dev/.agentjail/config.yaml"]))

test_agentjail_home_rm_denied if t_denied("self.home_write", t_bash([t_cmd("rm", ["-rf", "/home/dev/.agentjail/policies"], ["/home/dev/.agentjail/policies"])]))

test_agentjail_home_cat_allowed if not t_fired("self.home_write", t_bash([t_cmd("cat", ["/home/dev/.agentjail/config.yaml"], ["/home/dev/.agentjail/config.yaml"])]))

test_agentjail_uninstall_denied if t_denied("self.cli", t_bash([t_cmd("agentjail", ["uninstall"], [])]))

test_agentjail_status_allowed if not t_fired("self.cli", t_bash([t_cmd("agentjail", ["status"], [])]))

test_pkill_agentjail_denied if t_denied("self.stop_daemon", t_bash([t_cmd("pkill", ["-f", "agentjail"], [])]))

test_kill_pgrep_agentjail_denied if {
	pgrep := object.union(t_cmd("pgrep", ["-f", "agentjail"], []), {"via": "substitution"})
	kill := object.union(t_cmd("kill", ["$(pgrep -f agentjail)"], []), {"subst": ["pgrep"], "operands": ["$(pgrep -f agentjail)"]})
	t_denied("self.stop_daemon", t_bash([pgrep, kill]))
}

test_kill_daemon_pid_denied if t_denied("self.stop_daemon", t_bash([t_cmd("kill", ["-9", "4242"], [])]))

test_kill_other_pid_allowed if not t_fired("self.stop_daemon", t_bash([t_cmd("kill", ["1234"], [])]))

test_systemctl_stop_agentjail_denied if t_denied("self.stop_daemon", t_bash([t_cmd("systemctl", ["--user", "stop", "agentjail"], [])]))

test_launchctl_bootout_denied if t_denied("self.stop_daemon", t_bash([t_cmd("launchctl", ["bootout", "gui/501/dev.agentjail.agent"], [])]))

test_systemctl_stop_nginx_allowed if not t_fired("self.stop_daemon", t_bash([t_cmd("systemctl", ["stop", "nginx"], [])]))
