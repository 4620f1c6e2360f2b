package agentjail

# git.rego's git.force_push as one rule over force_push_asks, and the
# publishing table of cicd.rego.

test_force_push_asks_each_case if {
	msgs := force_push_asks with input as t_bash([
		t_cmd("git", ["push", "-f", "origin", "feature/x"], []),
		t_cmd("git", ["push", "--force-with-lease", "origin", "main"], []),
		t_cmd("git", ["push", "--force-with-lease"], []),
	])
	count(msgs) == 3
}

test_lease_to_main_asked if t_asked("git.force_push", t_bash([t_cmd("git", ["push", "--force-with-lease", "origin", "main"], [])]))

test_lease_without_branch_asked if t_asked("git.force_push", t_bash([t_cmd("git", ["push", "--force-with-lease"], [])]))

test_forced_push_to_main_not_asked_but_denied if {
	ev := t_bash([t_cmd("git", ["push", "-f", "origin", "main"], [])])
	t_denied("git.force_push_protected", ev)
	not t_asked("git.force_push", ev)
}

test_stash_drop_asked if t_asked("git.discard_work", t_bash([t_cmd("git", ["stash", "drop"], [])]))

test_twine_upload_asked if t_asked("publish.release", t_bash([t_cmd("twine", ["upload", "dist/*"], [])]))

test_docker_push_asked if t_asked("publish.release", t_bash([t_cmd("docker", ["push", "x/y:1"], [])]))

test_npm_install_not_published if not t_fired("publish.release", t_bash([t_cmd("npm", ["install"], [])]))
