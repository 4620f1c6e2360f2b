package agentjail

# Namespaces: an unprivileged user may start a command in a new user and
# mount namespace (unshare -r, bwrap) and mount there over any folder.
# Mounted over the agents' machine-wide settings (/etc/claude-code ...)
# or agentjail's own folders, those hide from the agent started inside,
# which then runs without its hook: root-owned files do not help against
# a view of the file system the user built. So a mount over such a place
# is blocked, and a new user namespace, which is what lets the user
# mount at all, is the user's call. (Turning off unprivileged user
# namespaces on the machine closes this for every program; see the
# README's system mode section.)

# The programs the family judges; their group gates the rules below.
namespace_programs := {"unshare", "bwrap", "mount", "firejail", "newuidmap"}

program_group contains [prog, "namespaces"] if some prog in namespace_programs

# machine_guard_places are the folders whose files decide whether an agent's call
# is guarded: the agents' machine-wide settings and agentjail's system
# folders. A mount on one of them, inside one, or on a folder above one
# hides what it holds.
machine_guard_places := {
	"/etc/agentjail", "/usr/local/libexec/agentjail", "/run/agentjail", "/var/run/agentjail",
} | agent_machine_places

hides_guard_place(p) if {
	some g in machine_guard_places
	under(p, g)
}

hides_guard_place(p) if {
	some g in machine_guard_places
	under(g, p)
}

# The mount target is the last path of mount, and any path of bwrap's
# mounting options (--bind SRC DEST, --tmpfs DEST ...).
mount_targets(cmd) := {cmd.paths[count(cmd.paths) - 1]} if {
	cmd.name == "mount"
	count(cmd.paths) > 0
}

# bwrap's mounts: a fresh folder (--tmpfs, --dir, --proc, --dev) hides
# what was at its place, and so does a bind of another folder there; a
# folder bound onto itself (--ro-bind / /) shows what it held.
mount_targets(cmd) := bwrap_fresh(cmd) | bwrap_bound(cmd) if cmd.name == "bwrap"

bwrap_fresh(cmd) := {t |
	some i, a in cmd.args
	a in {"--tmpfs", "--dir", "--proc", "--dev"}
	t := cmd.args[i + 1]
}

bwrap_bound(cmd) := {t |
	some i, a in cmd.args
	a in {"--bind", "--ro-bind", "--dev-bind", "--bind-try", "--ro-bind-try", "--dev-bind-try", "--symlink", "--overlay", "--tmp-overlay", "--ro-overlay"}
	t := cmd.args[i + 2]
	t != cmd.args[i + 1]
}

deny contains {"id": "self.mount_over_guard", "msg": msg} if {
	"namespaces" in input.agentjail.kinds
	some cmd in commands
	some p in mount_targets(cmd)
	p != "/"
	hides_guard_place(p)
	msg := sprintf("Blocked: `%s` mounts over %s, which holds the hook settings or the files of agentjail that guard the agent; an agent started under it would run unguarded. Mount somewhere else.", [full_text(cmd), p])
}

# bwrap --tmpfs / --bind over the root itself replaces every place.
deny contains {"id": "self.mount_over_guard", "msg": msg} if {
	"namespaces" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"bwrap", "mount"}
	some t in mount_targets(cmd)
	t == "/"
	msg := sprintf("Blocked: `%s` mounts over the root folder, hiding the hook settings and the files of agentjail that guard the agent. Mount somewhere else.", [full_text(cmd)])
}

# unshare's options that make a new user namespace, in which an
# unprivileged user becomes root and may mount.
user_namespace_options := {"U", "user", "r", "map-root-user", "c", "map-current-user", "map-auto", "map-user", "map-users", "map-group", "map-groups"}

ask contains {"id": "self.user_namespace", "msg": msg} if {
	"namespaces" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "unshare"
	has_flag(cmd, user_namespace_options)
	starts_unseen(cmd.name)
	msg := sprintf("`%s` starts a command in a new user namespace, where it may mount over the settings that guard the agent and run unguarded; the user decides.", [full_text(cmd)])
}

# A bwrap sandbox starts from an empty root: what it does not bind is not
# there, the agents' machine-wide settings included, unless it binds the
# whole root (--ro-bind / /). firejail's profiles hide folders too. Such a
# sandbox is the user's call; one that keeps the root is judged above.
ask contains {"id": "self.user_namespace", "msg": msg} if {
	"namespaces" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"bwrap", "firejail"}
	not keeps_root(cmd)
	starts_unseen(cmd.name)
	msg := sprintf("`%s` starts a command in a sandbox of its own, where the settings that guard the agent may be missing, so an agent started in it may run unguarded; the user decides.", [full_text(cmd)])
}

keeps_root(cmd) if {
	cmd.name == "bwrap"
	some i, a in cmd.args
	a in {"--bind", "--ro-bind", "--dev-bind"}
	cmd.args[i + 1] == "/"
	cmd.args[i + 2] == "/"
}

# starts_unseen(wrapper): the wrapper starts a shell, an interpreter or an
# agent, whose later commands (a mount, an agent) the hook may not see
# run there; a single program (unshare -r whoami) is judged as it is.
starts_unseen(wrapper) if {
	some inner in commands
	wrapper in inner.wrappers
	runs_code(inner)
}

starts_unseen(wrapper) if {
	some inner in commands
	wrapper in inner.wrappers
	inner.name in agent_programs
}

# The agents' programs, started in a namespace of their own.
# Those agentjail guards come from their facts; the rest are agents it
# does not wire, started from a guarded one.
agent_programs := agent_program_names | {"qwen", "droid", "opencode", "goose", "amp", "crush", "kilocode", "cline", "aider"}
