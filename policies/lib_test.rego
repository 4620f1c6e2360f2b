package agentjail

# Helpers for the pack's tests: inputs shaped the way the daemon derives
# them (the case table in policies/cases exercises the real parser).

t_home := "/home/dev"

t_project := "/home/dev/project"

# t_cmd is one parsed simple command; paths are given already normalized.
t_cmd(name, args, paths) := {
	"name": name, "program": name, "args": args, "flags": t_flags(args), "operands": t_operands(args),
	"paths": paths, "redirects": [], "wrappers": [], "pipe_from": [], "subst": [], "via": "",
	"cwd": t_project, "dynamic": false, "glob": false, "assigns": {}, "remote": false, "depth": 0,
}

t_flags(args) := array.concat(
	[f | some a in args; startswith(a, "--"); f := split(trim_prefix(a, "--"), "=")[0]],
	[l | some a in args; regex.match(`^-[^-]`, a); some l in split(substring(a, 1, -1), "")],
)

t_operands(args) := [a | some a in args; not startswith(a, "-")]

t_bash(cmds) := {
	"tool_name": "Bash",
	"tool_input": {"command": "(see agentjail.commands)"},
	"agentjail": {
		"tool_kind": "shell", "home": t_home, "cwd": t_project, "agentjail_home": "/home/dev/.agentjail", "temp": "/tmp",
		"daemon_pid": 4242, "commands": cmds, "names": t_names(cmds), "kinds": t_kinds(cmds),
		"paths": [p | some p in t_paths(cmds)], "writes": [p | some p in t_writes(cmds)],
		"unusual_paths": [p | some p in t_paths(cmds); not startswith(p, concat("", [t_project, "/"]))],
		"unusual": t_unusual(t_paths(cmds) | t_writes(cmds)),
	},
}

# t_unusual mirrors input.agentjail.unusual: a path outside the project,
# or hidden inside it.
t_unusual(paths) := true if {
	some p in paths
	t_unusual_path(p)
} else := false

t_unusual_path(p) if not startswith(p, concat("", [t_project, "/"]))

t_unusual_path(p) if regex.match(`/\.[^/.]`, trim_prefix(p, t_project))

t_paths(cmds) := {p | some c in cmds; some p in c.paths} | {r.path | some c in cmds; some r in c.redirects; r.path != ""}

# t_writes mirrors what the daemon derives (internal/shell/writes.go).
t_writes(cmds) := (({r.path | some c in cmds; some r in c.redirects; contains(r.op, ">")} | {p |
	some c in cmds
	c.name in {"tee", "rm", "unlink", "truncate", "shred", "srm", "dd", "mv"}
	some p in c.paths
}) | {c.paths[count(c.paths) - 1] |
	some c in cmds
	c.name in {"cp", "install", "ln", "rsync", "scp", "ditto"}
	count(c.paths) > 0
}) | {p |
	some c in cmds
	c.name in {"sed", "gsed", "perl", "ruby"}
	some f in c.flags
	f in {"i", "in-place"}
	some p in c.paths
}

t_names(cmds) := [n | some n in {n | some c in cmds; some n in array.concat([c.name], c.wrappers)}]

# t_kinds mirrors what the daemon derives from program_groups.
t_kinds(cmds) := [g | some g in {g | some n in t_names(cmds); some g in program_groups[n]}]

t_tool(tool, tool_input, paths) := {
	"tool_name": tool,
	"tool_input": tool_input,
	"agentjail": {
		"tool_kind": "other", "home": t_home, "cwd": t_project, "agentjail_home": "/home/dev/.agentjail", "temp": "/tmp",
		"daemon_pid": 4242, "paths": paths, "file_path": paths[0],
		"unusual_paths": [p | some p in paths; not startswith(p, concat("", [t_project, "/"]))],
		"unusual": t_unusual({p | some p in paths}),
		"writes": t_tool_writes(tool, paths),
	},
}

t_tool_writes(tool, paths) := paths if tool in {"Write", "Edit", "MultiEdit", "NotebookEdit"}

t_tool_writes(tool, _) := [] if not tool in {"Write", "Edit", "MultiEdit", "NotebookEdit"}

t_denied(id, ev) if {
	some m in deny with input as ev
	m.id == id
}

t_asked(id, ev) if {
	some m in ask with input as ev
	m.id == id
}

t_fired(id, ev) if t_denied(id, ev)

t_fired(id, ev) if t_asked(id, ev)

# A sanity check of the helpers themselves.
test_helpers_flags if {
	t_flags(["-rf", "--force=yes", "x"]) == ["force", "r", "f"]
	t_operands(["-rf", "x"]) == ["x"]
}
