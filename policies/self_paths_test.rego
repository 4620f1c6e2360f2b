package agentjail

t_unknown_cwd(writes) := object.union(
	t_bash([t_cmd("tee", ["config.yaml"], [])]),
	{"agentjail": object.union(t_bash([t_cmd("tee", ["config.yaml"], [])]).agentjail, {"unknown_cwd_writes": writes})},
)

test_unknown_cwd_write_asked if {
	t_asked("self.unknown_cwd_write", t_unknown_cwd([{"command": "tee", "path": "config.yaml", "place": "/home/dev/.agentjail/config.yaml"}]))
}

test_unknown_cwd_write_none_allowed if not t_fired("self.unknown_cwd_write", t_bash([t_cmd("make", [], [])]))

test_paths_unresolved_asked if {
	ev := object.union(t_bash([t_cmd("cat", ["a"], [])]), {"agentjail": object.union(t_bash([t_cmd("cat", ["a"], [])]).agentjail, {"paths_unresolved": true})})
	t_asked("self.paths_unresolved", ev)
}

test_paths_resolved_allowed if not t_fired("self.paths_unresolved", t_bash([t_cmd("cat", ["a"], [])]))
