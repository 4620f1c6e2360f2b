package agentjail

# Self-protection, path identity: a path is what the kernel will reach,
# not how it is spelled. The daemon resolves links (ln -s ~ h; a link to
# ~/.claude under another name; links the same command line makes),
# /proc/self/root and /proc/self/cwd, `..` after a link, and knows the
# protected files and folders by (device, inode) and by name up to case
# on case-insensitive volumes; it adds what each path is beside it in
# input.agentjail.paths and writes, so every rule about a protected place
# sees it (docs/policies.md, "Path identity"). What it cannot resolve is
# a relative write after a cd to a folder only known when the command
# runs: that one asks when it could be a protected place.

ask contains {"id": "self.unknown_cwd_write", "msg": msg} if {
	input.agentjail.unknown_cwd_writes[0]
	some u in input.agentjail.unknown_cwd_writes
	msg := sprintf("`%s` writes %s in a folder only known when the command runs (a cd to a variable, `cd -` or popd before it), and it may be %s, which keeps agentjail guarding this session; the user has to approve it. cd to the folder by its path.", [u.command, u.path, pretty(u.place)])
}

# More paths than the daemon resolves in one call (a bound on the work a
# call can cost): the rest were judged as written, so a link among them
# may reach a protected place unseen.
ask contains {"id": "self.paths_unresolved", "msg": msg} if {
	input.agentjail.paths_unresolved
	msg := "This call names more paths than agentjail resolves in one call, so links among them were not followed; the user has to approve it. Split it into smaller calls."
}
