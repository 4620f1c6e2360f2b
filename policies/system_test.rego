package agentjail

# system.rego: root-only acts judged by the caller's uid, fork bombs by
# the shape of the loop, disk fillers by their size.

t_root(ev) := object.union(ev, {"agentjail": {"root": true}})

test_useradd_asked_only_as_root if {
	ev := t_bash([t_cmd("useradd", ["-m", "eve"], [])])
	t_asked("system.as_root", t_root(ev))
	not t_fired("system.as_root", ev)
}

test_root_reads_not_asked if {
	not t_fired("system.as_root", t_root(t_bash([t_cmd("passwd", ["-S", "dev"], [])])))
	not t_fired("system.as_root", t_root(t_bash([t_cmd("visudo", ["-c"], [])])))
	not t_fired("system.as_root", t_root(t_bash([t_cmd("useradd", ["--help"], [])])))
	not t_fired("system.as_root", t_root(t_bash([t_cmd("sysctl", ["kernel.hostname"], [])])))
}

test_sysctl_write_asked_as_root if {
	t_asked("system.as_root", t_root(t_bash([t_cmd("sysctl", ["-w", "kernel.randomize_va_space=0"], [])])))
	t_asked("system.as_root", t_root(t_bash([t_cmd("sysctl", ["vm.overcommit_memory=1"], [])])))
}

test_root_flag_from_input if {
	ev := t_bash([t_cmd("rmmod", ["apparmor"], [])])
	some m in ask with input as ev with input.agentjail.root as true
	m.id == "system.as_root"
}

test_power_asked_for_any_caller if {
	t_asked("system.power", t_bash([t_cmd("reboot", [], [])]))
	t_asked("system.power", t_bash([t_cmd("systemctl", ["poweroff"], [])]))
	not t_fired("system.power", t_bash([t_cmd("shutdown", ["-c"], [])]))
	not t_fired("system.power", t_bash([t_cmd("shutdown", ["--help"], [])]))
}

t_repeat(cmd, repeats, background) := object.union(cmd, {"repeats": repeats, "background": background})

# t_loop: a shell call with a command in a loop, as the daemon marks it.
t_loop(cmds) := object.union(t_bash(cmds), {"agentjail": {"repeats": true}})

test_background_in_endless_loop_is_a_fork_bomb if {
	t_denied("system.fork_bomb", t_loop([t_repeat(t_cmd("worker", [], []), "forever", true)]))
}

test_paced_endless_loop_is_not if {
	ev := t_loop([t_repeat(t_cmd("worker", [], []), "forever", true), t_repeat(t_cmd("sleep", ["1"], []), "forever", false)])
	not t_fired("system.fork_bomb", ev)
	not t_fired("system.endless_loop", ev)
}

test_bounded_loop_is_not if {
	not t_fired("system.fork_bomb", t_loop([t_repeat(t_cmd("job", [], []), "loop", true), t_cmd("wait", [], [])]))
}

test_self_pipe_is_a_fork_bomb if {
	t_denied("system.fork_bomb", t_loop([object.union(t_repeat(t_cmd("b", [], []), "forever", false), {"pipe_from": ["b"]})]))
}

test_endless_loop_without_pause_asked if {
	t_asked("system.endless_loop", t_loop([t_repeat(t_cmd("curl", ["-s", "http://x"], []), "forever", false)]))
	not t_fired("system.endless_loop", t_loop([t_repeat(t_cmd("curl", [], []), "forever", false), t_cmd("break", [], [])]))
}

test_size_bytes if {
	size_bytes("10M") == 10485760
	size_bytes("1G") == 1073741824
	size_bytes("100GiB") == 107374182400
	size_bytes("512") == 512
	not size_bytes("lots")
}

test_fallocate_by_size if {
	t_asked("system.disk_fill", t_bash([t_cmd("fallocate", ["-l", "100G", "/tmp/f"], ["/tmp/f"])]))
	not t_fired("system.disk_fill", t_bash([t_cmd("fallocate", ["-l", "10M", "t.img"], [])]))
}

test_dd_without_count_from_zero_denied if {
	t_denied("system.disk_fill", t_bash([t_cmd("dd", ["if=/dev/zero", "of=/tmp/f", "bs=1M"], [])]))
	not t_fired("system.disk_fill", t_bash([t_cmd("dd", ["if=/dev/zero", "of=/tmp/f", "bs=1M", "count=10"], [])]))
	not t_fired("system.disk_fill", t_bash([t_cmd("dd", ["if=/dev/zero", "of=/dev/null", "bs=1M"], [])]))
}

test_loops_unmarked_are_skipped if {
	not t_fired("system.fork_bomb", t_bash([t_repeat(t_cmd("worker", [], []), "forever", true)]))
}
