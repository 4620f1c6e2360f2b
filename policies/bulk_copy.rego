package agentjail

# Copying or archiving a whole folder that holds credentials somewhere
# below it reads every one of them: `tar czf /tmp/h.tgz ~`, `cp -r
# ~/.claude /tmp/c` (Claude Code's login token), `rsync -a ~/.config/ x`
# (gh's and gcloud's tokens), `zip -r out.zip ~/Library`. The secret
# rules see a named secret (~/.ssh, ~/.aws/credentials); this rule sees
# the folders that hold them. Copying one subfolder (~/.config/nvim,
# ~/.claude/agents) or a project stays allowed.

# secret_holder(p): p holds the home folder, is it, or is one of its
# folders that hold credential files below them.
secret_holder(p) if p in {"/", "/home", "/Users", "/root", "/var/root"}

# Another user's home holds theirs.
secret_holder(p) if regex.match(`^/(home|Users)/[^/]+$`, p)

secret_holder(p) if p == home

secret_holder(p) if {
	startswith(p, home_slash)
	substring(p, count(home_slash), -1) in {
		".config", ".config/github-copilot",
		".local", ".local/share", ".cache", ".docker", ".cargo", ".gem", ".terraform.d", ".m2",
		".gradle", ".composer", ".mozilla", ".password-store", "Library", "Library/Application Support",
	}
}

# An agent's own folder holds its login (its facts).
secret_holder(p) if {
	startswith(p, home_slash)
	substring(p, count(home_slash), -1) in agent_folders
}

# bulk_copiers read whole folders; the value says which of a command's
# paths are its sources: "all_but_last" (cp SRC... DEST), "all_but_first"
# (zip OUT SRC...), "all" (restic backup SRC...; tar's archive is an
# option's value or a harmless extra).
bulk_copiers := {
	"cp": "all_but_last", "rsync": "all_but_last", "scp": "all_but_last", "ditto": "all_but_last",
	"rclone": "all_but_last", "gsutil": "all_but_last",
	"zip": "all_but_first", "7z": "all_but_first", "7za": "all_but_first", "7zz": "all_but_first", "rar": "all_but_first",
	"tar": "all", "bsdtar": "all", "gtar": "all", "restic": "all", "borg": "all", "duplicity": "all",
}

program_group contains [prog, "bulk_copy"] if some prog, _ in bulk_copiers

ask contains {"id": "secrets.bulk_copy", "msg": msg} if {
	"bulk_copy" in input.agentjail.kinds
	some cmd in commands
	sources := bulk_sources(cmd)
	some p in sources
	secret_holder(p)
	msg := sprintf("`%s` copies all of %s, which holds credentials (SSH and cloud keys, the agents' login tokens, browser profiles); the user has to approve it. Copy only the files you need.", [cmd.name, shown(p)])
}

# A copy's destination is its last operand, an archive its first; a
# remote one (host:dir) is no path, so every path is then a source.
bulk_sources(cmd) := {p | some p in cmd.paths; p != cmd.operands[count(cmd.operands) - 1]} if {
	bulk_copiers[cmd.name] == "all_but_last"
	whole_folders(cmd)
}

bulk_sources(cmd) := {p | some p in cmd.paths; p != cmd.operands[0]} if {
	bulk_copiers[cmd.name] == "all_but_first"
	whole_folders(cmd)
}

bulk_sources(cmd) := {p | some p in cmd.paths; not work_folder_only(cmd, p)} if {
	bulk_copiers[cmd.name] == "all"
	not tar_unpacks(cmd)
}

# work_folder_only(cmd, p): p is only the folder tar -C works in, not one
# of its sources (tar czf p.tgz -C ~ project archives ~/project).
work_folder_only(cmd, p) if {
	p == cmd.cwd
	has_option(cmd, {"C", "directory"})
	count([q | some q in cmd.paths; q == p]) == 1
}

# whole_folders(cmd): cmd descends into the folders it names (cp and scp
# copy a folder only with -r; zip stores only its name without -r).
whole_folders(cmd) if not cmd.name in {"cp", "scp", "rsync", "zip"}

whole_folders(cmd) if has_flag(cmd, {"r", "R", "recursive", "a", "archive"})

# tar_unpacks(cmd): tar extracts or lists (-x, -t, or the old form
# `tar xzf`), so the folders it names are where it writes, not what it
# reads.
tar_unpacks(cmd) if has_flag(cmd, {"x", "t", "extract", "get", "list"})

tar_unpacks(cmd) if regex.match(`^[A-Za-z]*[xt][A-Za-z]*$`, cmd.args[0])
