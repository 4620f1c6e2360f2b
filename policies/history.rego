package agentjail

# git history and visibility: commands that drop commits, rewrite or
# expire history, discard the work tree, or publish or delete a hosted
# repository (ask, but deleting a hosted repository is denied).

# git_words(cmd) are a git command's verb and operands past -C, -c and
# the other global options: ["branch", "x"] for `git -C dir branch -D x`.
git_words(cmd) := positional(cmd) if cmd.name == "git"

ask contains {"id": "git.drop_history", "msg": msg} if {
	"git" in input.agentjail.names
	some cmd in commands
	cmd.name == "git"
	some verb in cmd.args
	# A cheap test before git_words works out positional words: the verbs
	# of drops_history, written out (a table rule costs each call its
	# evaluation).
	verb in {"branch", "checkout", "switch", "restore", "gc", "prune", "filter-branch", "filter-repo", "reflog", "worktree", "update-ref"}
	words := git_words(cmd)
	words[0] == verb
	drops_history(cmd, words)
	msg := sprintf("`git %s` throws away commits, history or uncommitted work for good; the user has to approve it.", [concat(" ", cmd.args)])
}

# branch -D, or -d with --force.
drops_history(cmd, words) if {
	words[0] == "branch"
	"-D" in cmd.args
}

drops_history(cmd, words) if {
	words[0] == "branch"
	has_flag(cmd, {"d", "delete"})
	has_flag(cmd, {"f", "force"})
}

drops_history(cmd, words) if {
	words[0] in {"checkout", "switch"}
	has_flag(cmd, {"f", "force", "discard-changes"})
}

# restore of the work tree for the whole repository or from another
# revision (restore --staged alone only unstages).
drops_history(cmd, words) if {
	words[0] == "restore"
	restores_worktree(cmd)
	broad_restore(cmd, words)
}

drops_history(cmd, words) if {
	words[0] == "gc"
	some a in cmd.args
	regex.match(`^--prune=(now|all)$`, a)
}

drops_history(cmd, words) if {
	words[0] == "prune"
	not has_flag(cmd, {"n", "dry-run"})
}

drops_history(_, words) if words[0] in {"filter-branch", "filter-repo"}

drops_history(_, words) if {
	words[0] == "reflog"
	words[1] in {"expire", "delete"}
}

drops_history(cmd, words) if {
	words[0] == "worktree"
	words[1] == "remove"
	has_flag(cmd, {"f", "force"})
}

drops_history(cmd, words) if {
	words[0] == "update-ref"
	has_flag(cmd, {"d", "delete"})
}

restores_worktree(cmd) if not has_flag(cmd, {"S", "staged"})

restores_worktree(cmd) if has_flag(cmd, {"W", "worktree"})

broad_restore(_, words) if {
	some w in array.slice(words, 1, count(words))
	w in {".", ":/", "*", ":(top)", "/", "./"}
}

broad_restore(cmd, _) if has_flag(cmd, {"s", "source"})

# Publishing or deleting a hosted repository.
ask contains {"id": "git.repo_visibility", "msg": msg} if {
	"gh" in input.agentjail.names
	some cmd in commands
	cmd.name == "gh"
	changes_repo(cmd)
	msg := sprintf("`%s` publishes, archives or deletes a hosted repository or its data; the user has to approve it.", [full_text(cmd)])
}

changes_repo(cmd) if {
	pos := positional(cmd)
	pos[0] == "repo"
	pos[1] == "edit"
	some v in option_values(cmd, {"--visibility"})
	v in {"public", "internal"}
}

changes_repo(cmd) if {
	pos := positional(cmd)
	pos[0] == "repo"
	pos[1] in {"archive", "rename"}
}

changes_repo(cmd) if {
	pos := positional(cmd)
	pos[0] in {"secret", "variable", "label", "cache", "run", "ruleset"}
	pos[1] in {"delete", "remove"}
}

changes_repo(cmd) if {
	positional(cmd)[0] == "api"
	some v in option_values(cmd, {"-X", "--method"})
	upper(v) in {"DELETE", "PUT", "PATCH"}
	risky_api_call(cmd, upper(v))
}

changes_repo(cmd) if {
	positional(cmd)[0] == "api"
	some a in cmd.args
	regex.match(`^(private=false|visibility=public)$`, a)
}

risky_api_call(_, "DELETE")

risky_api_call(cmd, _) if {
	some a in cmd.args
	regex.match(`^(private=false|visibility=public|archived=true)$`, a)
}

deny contains {"id": "git.repo_delete", "msg": msg} if {
	"gh" in input.agentjail.names
	some cmd in commands
	cmd.name in {"gh", "glab"}
	pos := positional(cmd)
	pos[0] == "repo"
	pos[1] == "delete"
	msg := "Blocked: deleting a hosted repository loses its issues, pull requests and history for everyone. Ask the user to do it themselves."
}

# --- history switched off by a declaration (ATT&CK T1070.003) ------------

# export/declare/typeset/readonly/local are commands whose assigns are
# the variables they set (internal/shell), so a value worked out from
# other variables (N=0; export HISTSIZE=$N) is judged as it will be.
declaration_builtins := {"export", "declare", "typeset", "readonly", "local"}

program_group contains [prog, "shell_history"] if some prog in declaration_builtins

hides_history(cmd) if {
	cmd.name in declaration_builtins
	some k, v in cmd.assigns
	regex.match(`^HIST(FILE|SIZE|FILESIZE)$`, k)
	v in {"", "0", "/dev/null"}
}
