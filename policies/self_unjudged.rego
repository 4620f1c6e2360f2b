package agentjail

# Globs and archives the daemon could not read to the end. With the file
# system at hand, the shell parser expands each glob as the shell will
# and reads the member list of each archive or patch a command unpacks
# or applies (input: a command's "unjudged"), so what they reach is
# judged by every other rule. Past its bounds (too many matches, folder
# entries, members or bytes, an unreadable or unsupported archive, one
# read from standard input) it records the folder the glob or unpacking
# starts from; a command that changes files there asks when that folder
# is the home folder or holds a protected place: it could reach one.

ask contains {"id": "self.unjudged_glob", "msg": msg} if {
	input.agentjail.unjudged # first: every other call stops here
	some cmd in commands
	cmd.unjudged[0]
	not read_only(cmd)
	some u in cmd.unjudged
	u.kind == "glob"
	unjudged_root(u.root)
	msg := sprintf("The pattern in `%s` reaches into %s, which holds agentjail's or the agent's own files, and its matches could not all be checked (%s); a human should confirm.", [cmd.name, pretty(u.root), u.why])
}

ask contains {"id": "self.unjudged_archive", "msg": msg} if {
	input.agentjail.unjudged
	some cmd in commands
	cmd.unjudged[0]
	some u in cmd.unjudged
	u.kind in {"archive", "patch"}
	unjudged_root(u.root)
	msg := sprintf("`%s` writes into %s, which holds agentjail's or the agent's own files, and what it writes could not be read first (%s); a human should confirm.", [cmd.name, pretty(u.root), u.why])
}

# unjudged_root(d): d is the home folder or a folder a protected place
# lies in, other than the project itself: unpacking a download into the
# project (curl URL | tar xz) is everyday work; its .claude folder, or
# the home, is not.
unjudged_root(d) if d == home

unjudged_root(d) if {
	d != project
	some p in protected_examples
	under(p, d)
}

# A file a command runs that the daemon may not read (the system daemon
# runs as its own user, kept out of a user's private folders): what it
# runs is unknown, never harmless.
ask contains {"id": "self.unreadable_script", "msg": msg} if {
	input.agentjail.unreadable[0] # first: every other call stops here
	msg := sprintf("agentjail could not read %s, which this command runs, so it cannot tell what it does; a human should confirm (in system mode, keep the scripts the agent runs where agentjail's service user may read them).", [concat(", ", [pretty(p) | some p in input.agentjail.unreadable])])
}
