package agentjail

# history.rego's word test in front of git_words.

# Each verb of drops_history still gets past the word test.
test_every_drop_verb_asked if {
	every args in [
		["branch", "-D", "x"], ["checkout", "-f", "main"], ["switch", "--discard-changes", "main"], ["restore", "."],
		["gc", "--prune=now"], ["prune"], ["filter-branch", "--tree-filter", "x"], ["filter-repo"], ["reflog", "expire"],
		["worktree", "remove", "-f", "w"], ["update-ref", "-d", "refs/x"],
	] {
		t_asked("git.drop_history", t_bash([t_cmd("git", args, [])]))
	}
}

test_branch_force_delete_asked if t_asked("git.drop_history", t_bash([t_cmd("git", ["-C", "repo", "branch", "-D", "old"], [])]))

test_reflog_expire_asked if t_asked("git.drop_history", t_bash([t_cmd("git", ["reflog", "expire", "--expire=now", "--all"], [])]))

test_branch_named_like_a_verb_not_dropped if not t_fired("git.drop_history", t_bash([t_cmd("git", ["log", "prune"], [])]))

test_git_status_not_dropped if not t_fired("git.drop_history", t_bash([t_cmd("git", ["status"], [])]))
