package agentjail

test_force_push_main_denied if t_denied("git.force_push_protected", t_bash([t_cmd("git", ["push", "--force", "origin", "main"], [])]))

test_plus_refspec_master_denied if t_denied("git.force_push_protected", t_bash([t_cmd("git", ["push", "origin", "+master"], [])]))

test_force_push_feature_asked if t_asked("git.force_push", t_bash([t_cmd("git", ["push", "-f", "origin", "feature/x"], [])]))

test_lease_feature_allowed if {
	ev := t_bash([t_cmd("git", ["push", "--force-with-lease", "origin", "feature/x"], [])])
	count(deny) == 0 with input as ev
	count(ask) == 0 with input as ev
}

test_plain_push_allowed if not t_fired("git.force_push", t_bash([t_cmd("git", ["push", "origin", "main"], [])]))

test_commit_message_push_not_push if not t_fired("git.force_push", t_bash([t_cmd("git", ["commit", "-m", "push -f to main"], [])]))

test_delete_remote_branch_asked if t_asked("git.push_mirror_or_delete", t_bash([t_cmd("git", ["push", "origin", "--delete", "old"], [])]))

test_clean_fdx_asked if t_asked("git.discard_work", t_bash([t_cmd("git", ["clean", "-fdx"], [])]))

test_reset_hard_asked if t_asked("git.discard_work", t_bash([t_cmd("git", ["reset", "--hard", "HEAD~1"], [])]))

test_reset_soft_allowed if not t_fired("git.discard_work", t_bash([t_cmd("git", ["reset", "--soft", "HEAD~1"], [])]))

test_npm_publish_asked if t_asked("publish.release", t_bash([t_cmd("npm", ["publish", "--access", "public"], [])]))

test_npm_install_publish_helper_allowed if not t_fired("publish.release", t_bash([t_cmd("npm", ["install", "publish-helper"], [])]))

test_gh_release_create_asked if t_asked("publish.release", t_bash([t_cmd("gh", ["release", "create", "v1.0.0"], [])]))

test_gh_release_view_allowed if not t_fired("publish.release", t_bash([t_cmd("gh", ["release", "view", "v1.0.0"], [])]))
