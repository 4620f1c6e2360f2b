package agentjail

test_rm_home_denied if t_denied("fs.rm_catastrophic", t_bash([t_cmd("rm", ["-rf", "/home/dev"], ["/home/dev"])]))

test_rm_root_denied if t_denied("fs.rm_catastrophic", t_bash([t_cmd("rm", ["-rf", "/"], ["/"])]))

test_rm_home_folder_denied if t_denied("fs.rm_catastrophic", t_bash([t_cmd("rm", ["-r", "/home/dev/Documents"], ["/home/dev/Documents"])]))

test_rm_home_glob_denied if t_denied("fs.rm_catastrophic", t_bash([t_cmd("rm", ["-rf", "/home/dev/*"], ["/home/dev/*"])]))

test_rm_system_denied if t_denied("fs.rm_catastrophic", t_bash([t_cmd("rm", ["--recursive", "/usr/local/lib"], ["/usr/local/lib"])]))

test_rm_tmp_itself_denied if t_denied("fs.rm_catastrophic", t_bash([t_cmd("rm", ["-rf", "/tmp"], ["/tmp"])]))

test_rm_node_modules_allowed if {
	ev := t_bash([t_cmd("rm", ["-rf", "./node_modules"], ["/home/dev/project/node_modules"])])
	count(deny) == 0 with input as ev
	count(ask) == 0 with input as ev
}

test_rm_tmp_child_allowed if {
	ev := t_bash([t_cmd("rm", ["-rf", "/tmp/x"], ["/tmp/x"])])
	count(deny) == 0 with input as ev
	count(ask) == 0 with input as ev
}

test_rm_single_home_file_not_recursive_allowed if {
	not t_fired("fs.rm_catastrophic", t_bash([t_cmd("rm", ["/home/dev/notes.txt"], ["/home/dev/notes.txt"])]))
}

test_rm_other_project_asked if t_asked("fs.rm_outside_project", t_bash([t_cmd("rm", ["-rf", "/home/dev/other/build"], ["/home/dev/other/build"])]))

test_rm_allowed_path_not_asked if {
	ev := t_bash([t_cmd("rm", ["-rf", "/home/dev/dist/x"], ["/home/dev/dist/x"])])
	not t_asked("fs.rm_outside_project", ev) with data.config.allowed_paths as ["/home/dev/dist"]
}

test_rm_unknown_target_asked if {
	cmd := object.union(t_cmd("rm", ["-rf", "$DIR"], []), {"operands": ["$DIR"], "dynamic": true})
	t_asked("fs.rm_unknown_target", t_bash([cmd]))
}

test_rm_relative_dynamic_allowed if {
	cmd := object.union(t_cmd("rm", ["-rf", "build/$NAME"], []), {"operands": ["build/$NAME"], "dynamic": true})
	not t_asked("fs.rm_unknown_target", t_bash([cmd]))
}

test_find_home_delete_denied if t_denied("fs.find_delete_broad", t_bash([t_cmd("find", ["/home/dev", "--delete"], ["/home/dev"])]))

test_find_project_delete_allowed if {
	ev := t_bash([t_cmd("find", [".", "--name", "*.pyc", "--delete"], ["/home/dev/project"])])
	count(deny) == 0 with input as ev
}

test_dd_to_disk_denied if t_denied("fs.raw_disk", t_bash([t_cmd("dd", ["if=img.iso", "of=/dev/sda"], ["/home/dev/project/of=/dev/sda", "/dev/sda"])]))

test_dd_to_file_allowed if not t_fired("fs.raw_disk", t_bash([t_cmd("dd", ["if=/dev/zero", "of=blob"], ["/dev/zero", "/home/dev/project/blob"])]))

test_mkfs_denied if t_denied("fs.format_disk", t_bash([t_cmd("mkfs.ext4", ["/dev/sdb1"], ["/dev/sdb1"])]))

test_chmod_777_system_denied if t_denied("fs.chmod_broad", t_bash([t_cmd("chmod", ["-R", "777", "/var/www/html"], ["/home/dev/project/777", "/var/www/html"])]))

test_chmod_777_project_asked if t_asked("fs.chmod_world_writable", t_bash([t_cmd("chmod", ["-R", "777", "build"], ["/home/dev/project/777", "/home/dev/project/build"])]))

test_chmod_plus_x_allowed if not t_fired("fs.chmod_world_writable", t_bash([t_cmd("chmod", ["+x", "run.sh"], ["/home/dev/project/run.sh"])]))

test_redirect_to_disk_denied if t_denied("fs.raw_disk", t_bash([object.union(t_cmd("cat", ["img"], ["/home/dev/project/img"]), {"redirects": [{"op": ">", "target": "/dev/sda", "path": "/dev/sda"}]})]))

test_dynamic_program_on_home_asked if {
	cmd := object.union(t_cmd("$RM", ["-rf", "/home/dev"], ["/home/dev"]), {"dynamic": true})
	t_asked("fs.unknown_program", t_bash([cmd]))
}

# A home inside a temp folder (HOME=/tmp/home in a container or CI image)
# is still a home: its paths are not temp paths. Temp paths outside it
# stay temp, and a temp folder set inside the home stays temp.
t_in(h, tmp) := {"agentjail": {"home": h, "temp": tmp}}

test_home_under_temp_is_a_home if {
	not in_temp("/tmp/home/src/other") with input as t_in("/tmp/home", "/tmp")
	not in_temp("/tmp/home") with input as t_in("/tmp/home", "/tmp")
	in_temp("/tmp/build-123") with input as t_in("/tmp/home", "/tmp")
	in_temp("/tmp/homework/x") with input as t_in("/tmp/home", "/tmp")
	not in_temp("/tmp/ci") with input as t_in("/tmp/ci/home", "/tmp")
	in_temp("/tmp/ci/build") with input as t_in("/tmp/ci/home", "/tmp")
	not in_temp("/tmp/ci") with input as t_in("/tmp/ci/home", "/tmp/ci")
	not in_temp("/var/folders/ab/T/home/src/x") with input as t_in("/var/folders/ab/T/home", "/var/folders/ab/T")
	in_temp("/var/folders/ab/T/build/x") with input as t_in("/var/folders/ab/T/home", "/var/folders/ab/T")
	not in_temp("/ci/tmp/home/x") with input as t_in("/ci/tmp/home", "/ci/tmp")
	in_temp("/ci/tmp/build/x") with input as t_in("/ci/tmp/home", "/ci/tmp")
}

test_temp_inside_home_stays_temp if {
	in_temp("/home/dev/tmp/build") with input as t_in("/home/dev", "/home/dev/tmp")
	not in_temp("/home/dev/src/x") with input as t_in("/home/dev", "/home/dev/tmp")
	in_temp("/tmp/x") with input as t_in("/home/dev", "/tmp")
	in_temp("/tmp/x") with input as t_in("", "/tmp")
}

test_rm_outside_project_with_home_under_temp if {
	ev := json.patch(t_bash([t_cmd("rm", ["-rf", "/tmp/home/src/other"], ["/tmp/home/src/other"])]), [
		{"op": "replace", "path": "/agentjail/home", "value": "/tmp/home"},
		{"op": "replace", "path": "/agentjail/cwd", "value": "/tmp/home/project"},
	])
	t_asked("fs.rm_outside_project", ev)
	scratch := json.patch(t_bash([t_cmd("rm", ["-rf", "/tmp/build-123"], ["/tmp/build-123"])]), [
		{"op": "replace", "path": "/agentjail/home", "value": "/tmp/home"},
		{"op": "replace", "path": "/agentjail/cwd", "value": "/tmp/home/project"},
	])
	not t_asked("fs.rm_outside_project", scratch)
}

test_glob_over_a_home_under_temp if {
	in_home("/tmp/*") with input as t_in("/tmp/home", "/tmp")
	in_home("/tmp/h*") with input as t_in("/tmp/home", "/tmp")
	in_home("/t*") with input as t_in("/tmp/home", "/tmp")
	in_home("/tmp/[gh]ome") with input as t_in("/tmp/home", "/tmp")
	in_home("/tmp/{home,x}") with input as t_in("/tmp/home", "/tmp")
	not in_home("/tmp/build-*") with input as t_in("/tmp/home", "/tmp")
	not in_home("/tmp/*/cache") with input as t_in("/tmp/home", "/tmp")
	not in_home("/tmp/*") with input as t_in("/home/dev", "/tmp")
	catastrophic("/tmp/h*") with input as t_in("/tmp/home", "/tmp")
	not catastrophic("/tmp/build-*") with input as t_in("/tmp/home", "/tmp")
	not in_temp("/tmp/*") with input as t_in("/tmp/home", "/tmp")
	in_temp("/tmp/*") with input as t_in("/home/dev", "/tmp")
	scratch_root("/tmp") with input as t_in("/home/dev", "/tmp")
	not scratch_root("/tmp") with input as t_in("/tmp/home", "/tmp")
}
