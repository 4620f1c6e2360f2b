package agentjail

# The daemon as the Go side describes it: pid 4242 in a group and session
# of 4200, started by 4100, in a cgroup of its own.
t_daemon := {
	"pid": 4242, "pgid": 4200, "sid": 4200, "ppid": 4100,
	"cmdlines": ["/opt/aj/bin/agentjail run --headless"],
	"cgroup": "/sys/fs/cgroup/user.slice/user-1000.slice/app.slice/agentjail.service",
}

t_with_daemon(ev) := object.union(ev, {"agentjail": {"daemon": t_daemon}})

test_pkill_parent_denied if t_denied("self.stop_daemon", t_with_daemon(t_bash([t_cmd("pkill", ["-P", "4100"], [])])))

test_pkill_other_parent_allowed if not t_denied("self.stop_daemon", t_with_daemon(t_bash([t_cmd("pkill", ["-P", "4101"], [])])))

test_kill_group_denied if t_denied("self.stop_daemon", t_with_daemon(t_bash([t_cmd("kill", ["--", "-4200"], [])])))

# The group's id as a plain pid is its leader, not the daemon.
test_kill_group_leader_allowed if not t_denied("self.stop_daemon", t_with_daemon(t_bash([t_cmd("kill", ["4200"], [])])))

test_pkill_real_cmdline_denied if t_denied("self.stop_daemon", t_with_daemon(t_bash([t_cmd("pkill", ["-f", "opt/aj/bin"], [])])))

test_gdb_attach_word_denied if t_denied("self.stop_daemon", t_with_daemon(t_bash([t_cmd("gdb", ["-batch", "-ex", "attach 4242"], [])])))

test_prlimit_joined_denied if t_denied("self.stop_daemon", t_with_daemon(t_bash([t_cmd("prlimit", ["-p4242", "--cpu=0"], [])])))

test_renice_self_allowed if not t_denied("self.stop_daemon", t_with_daemon(t_bash([t_cmd("renice", ["10", "-p", "$$"], [])])))

test_freeze_parent_cgroup_denied if {
	cmd := object.union(t_cmd("echo", ["1"], []), {"redirects": [{"op": ">", "path": "/sys/fs/cgroup/user.slice/cgroup.freeze"}]})
	t_denied("self.stop_daemon", t_with_daemon(t_bash([cmd])))
}

test_freeze_other_cgroup_allowed if {
	cmd := object.union(t_cmd("echo", ["1"], []), {"redirects": [{"op": ">", "path": "/sys/fs/cgroup/user.slice/other/cgroup.freeze"}]})
	not t_denied("self.stop_daemon", t_with_daemon(t_bash([cmd])))
}

test_mcp_kill_pid_denied if t_denied("self.stop_daemon", t_with_daemon(t_tool("mcp__procs__kill_process", {"pid": 4242}, ["/home/dev/project/x"])))

test_mcp_kill_other_pid_allowed if not t_denied("self.stop_daemon", t_with_daemon(t_tool("mcp__procs__kill_process", {"pid": 4243}, ["/home/dev/project/x"])))

test_built_name_asked if {
	sel := object.union(t_cmd("pidof", ["agent$X"], []), {"dynamic": true, "via": "substitution"})
	k := object.union(t_cmd("kill", ["$(pidof agent$X)"], []), {"dynamic": true, "subst": ["pidof"]})
	t_asked("self.stop_unresolved", t_with_daemon(t_bash([sel, k])))
}

test_unnamed_variable_allowed if {
	sel := object.union(t_cmd("pidof", ["$APP"], []), {"dynamic": true, "via": "substitution"})
	k := object.union(t_cmd("kill", ["$(pidof $APP)"], []), {"dynamic": true, "subst": ["pidof"]})
	not t_fired("self.stop_unresolved", t_with_daemon(t_bash([sel, k])))
}
