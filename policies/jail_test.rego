package agentjail

test_jail_keeps_keys_and_startup_files if {
	j := jail with input as t_bash([t_cmd("make", ["test"], [])])
	"/home/dev/.ssh" in j.no_read
	"/home/dev/.aws" in j.no_read
	"/home/dev/.claude/.credentials.json" in j.no_read
	"/home/dev/.bashrc" in j.no_write
	"/home/dev/.agentjail" in j.no_write
	"/home/dev/.claude/settings.json" in j.no_write
	count(j.read) == 0
	count(j.write) == 0
}

test_jail_git_push_reads_ssh if {
	j := jail with input as t_bash([t_cmd("git", ["push", "origin", "main"], [])])
	"/home/dev/.ssh" in j.read
	"/home/dev/.ssh/known_hosts" in j.write
	not "/home/dev/.aws" in j.read
}

test_jail_git_status_reads_nothing_more if {
	j := jail with input as t_bash([t_cmd("git", ["status"], [])])
	count(j.read) == 0
}

test_jail_git_pipeline_keeps_its_grant if {
	j := jail with input as t_bash([t_cmd("cd", ["app"], []), t_cmd("git", ["add", "-A"], []), t_cmd("git", ["push"], [])])
	"/home/dev/.ssh" in j.read
}

test_jail_grant_withheld_beside_a_stranger if {
	j := jail with input as t_bash([t_cmd("git", ["push"], []), t_cmd("python3", ["deploy.py"], [])])
	count(j.read) == 0
	some note in j.notes
	contains(note, "python3")
}

test_jail_aws_reads_its_folder_only if {
	j := jail with input as t_bash([t_cmd("aws", ["s3", "ls"], [])])
	"/home/dev/.aws" in j.read
	not "/home/dev/.ssh" in j.read
	not "/home/dev/.config/gcloud" in j.read
}

test_jail_npm_test_does_not_read_npmrc if {
	j := jail with input as t_bash([t_cmd("npm", ["test"], [])])
	not "/home/dev/.npmrc" in j.read
}

test_jail_npm_publish_reads_npmrc if {
	j := jail with input as t_bash([t_cmd("npm", ["publish"], [])])
	"/home/dev/.npmrc" in j.read
}

test_jail_makes_cache_folders if {
	j := jail with input as t_bash([t_cmd("npm", ["install"], [])])
	"/home/dev/.npm" in j.make
	"/home/dev/.cache" in j.make
}

test_jail_git_with_its_own_program_gets_no_grant if {
	every args in [
		["-c", "core.sshCommand=sh -c x", "push"],
		["push", "--receive-pack=sh -c x"],
	] {
		j := jail with input as t_bash([t_cmd("git", args, [])])
		not "/home/dev/.ssh" in j.read
	}
}

test_jail_git_ssh_command_variable_gets_no_grant if {
	j := jail with input as t_bash([object.union(t_cmd("git", ["push"], []), {"assigns": {"GIT_SSH_COMMAND": "sh -c x"}})])
	not "/home/dev/.ssh" in j.read
}

test_jail_ssh_proxy_command_gets_no_grant if {
	j := jail with input as t_bash([t_cmd("ssh", ["-o", "ProxyCommand=sh -c x", "host"], [])])
	not "/home/dev/.ssh" in j.read
}

test_jail_plain_ssh_and_push_keep_their_grant if {
	j := jail with input as t_bash([t_cmd("ssh", ["build-host", "uptime"], []), t_cmd("git", ["push", "origin", "main"], [])])
	"/home/dev/.ssh" in j.read
}

test_jail_push_setting_upstream_keeps_its_grant if {
	j := jail with input as t_bash([t_cmd("git", ["push", "-u", "origin", "feature"], []), t_cmd("ssh", ["-o", "StrictHostKeyChecking=accept-new", "host", "true"], [])])
	"/home/dev/.ssh" in j.read
}

test_jail_keeps_protected_paths if {
	j := jail with input as t_bash([t_cmd("cp", ["-r", "/home/dev/work", "/tmp/x"], [])])
		with data.config.protected_paths as ["/home/dev/work/customer-data"]
	"/home/dev/work/customer-data" in j.no_read
	"/home/dev/work/customer-data" in j.no_write
	not "/home/dev/work" in j.no_read
}
