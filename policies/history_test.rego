package agentjail

# history.rego's word test in front of git_words.

test_history_verbs_cover_every_drop if {
	every verb in {"branch", "checkout", "switch", "restore", "gc", "prune", "filter-branch", "filter-repo", "reflog", "worktree", "update-ref"} {
		verb in history_verbs
	}
}

test_branch_force_delete_asked if t_asked("git.drop_history", t_bash([t_cmd("git", ["-C", "repo", "branch", "-D", "old"], [])]))

test_reflog_expire_asked if t_asked("git.drop_history", t_bash([t_cmd("git", ["reflog", "expire", "--expire=now", "--all"], [])]))

test_branch_named_like_a_verb_not_dropped if not t_fired("git.drop_history", t_bash([t_cmd("git", ["log", "prune"], [])]))

test_git_status_not_dropped if not t_fired("git.drop_history", t_bash([t_cmd("git", ["status"], [])]))
