package agentjail

# functions.rego, and the writes rows of file_functions.rego.

# t_fn: one command that writes the given files, as the daemon derives
# it from the writes table.
t_fn(name, args, paths, writes) := ev if {
	cmd := object.union(t_cmd(name, args, paths), {"writes": writes})
	base := t_bash([cmd])
	ev := object.union(base, {"agentjail": object.union(base.agentjail, {"writes": array.concat(base.agentjail.writes, writes)})})
}

test_writes_table_rows if {
	file_writes.sort.options == ["-o", "--output"]
	file_writes.tar.when == ["x", "extract", "get"]
	file_writes.cp.operands == "last"
	not file_writes.cat
}

test_writes_reach_shell_roles if shell_roles.writes.openssl.options == ["-out", "-keyout"]

test_sort_output_startup_asked if t_asked("persist.shell_startup", t_fn("sort", ["-o", "/home/dev/.bashrc", "/tmp/x"], ["/home/dev/.bashrc", "/tmp/x"], ["/home/dev/.bashrc"]))

test_tar_into_home_asked if t_asked("persist.unpack_home", t_fn("tar", ["-C", "/home/dev", "-xf", "/tmp/d.tar"], ["/home/dev", "/tmp/d.tar"], ["/home/dev"]))

test_tar_into_launch_agents_asked if t_asked("persist.unpack_home", t_fn("tar", ["-xf", "/tmp/d.tar", "-C", "/home/dev/Library/LaunchAgents"], ["/tmp/d.tar", "/home/dev/Library/LaunchAgents"], ["/home/dev/Library/LaunchAgents"]))

test_tar_into_project_allowed if not t_fired("persist.unpack_home", t_fn("tar", ["-xf", "d.tar", "-C", "build"], ["/home/dev/project/d.tar", "/home/dev/project/build"], ["/home/dev/project/build"]))

test_tar_create_in_home_allowed if not t_fired("persist.unpack_home", t_fn("tar", ["-czf", "/home/dev/b.tgz", "."], ["/home/dev/b.tgz", "/home/dev/project"], []))

test_unknown_program_on_bashrc_asked if t_asked("persist.unknown_program", t_fn("frobnicate", ["/home/dev/.bashrc"], ["/home/dev/.bashrc"], []))

test_unknown_program_on_authorized_keys_asked if t_asked("persist.unknown_program", t_fn("keysync", ["/home/dev/.ssh/authorized_keys"], ["/home/dev/.ssh/authorized_keys"], []))

test_reader_on_bashrc_allowed if not t_fired("persist.unknown_program", t_fn("shellcheck", ["/home/dev/.bashrc"], ["/home/dev/.bashrc"], []))

test_editor_on_bashrc_allowed if not t_fired("persist.unknown_program", t_fn("code", ["/home/dev/.bashrc"], ["/home/dev/.bashrc"], []))

test_interpreter_on_bashrc_allowed if not t_fired("persist.unknown_program", t_fn("bash", ["-n", "/home/dev/.bashrc"], ["/home/dev/.bashrc"], []))

test_unknown_program_on_project_file_allowed if not t_fired("persist.unknown_program", t_fn("frobnicate", ["notes.txt"], ["/home/dev/project/notes.txt"], []))

# A write the table already lists is judged by the rules over writes,
# not asked about twice.
test_known_write_not_unknown if not t_fired("persist.unknown_program", t_fn("frobnicate", ["/home/dev/.bashrc"], ["/home/dev/.bashrc"], ["/home/dev/.bashrc"]))
