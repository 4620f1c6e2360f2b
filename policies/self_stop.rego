package agentjail

# Self-protection, stopping the daemon by any route: naming it, finding
# its pid (pgrep, ps | grep, its lock file) and handing it on through a
# pipe, xargs or $(...), killing everything of ours, an interpreter's
# os.kill, or unloading its service. Locked rules (ids start "self.").

deny contains {"id": "self.stop_daemon", "msg": msg} if {
	"stop" in input.agentjail.kinds
	some cmd in commands
	stops_agentjail(cmd)
	msg := sprintf("Blocked: `%s` would stop agentjail, which guards this session. If agentjail is in the way, tell the user which rule and why.", [concat(" ", array.concat([cmd.name], cmd.args))])
}

mentions_agentjail(cmd) if {
	some a in cmd.args
	contains(lower(a), "agentjail")
}

kill_programs := {"kill", "pkill", "killall", "skill", "slay"}

stops_agentjail(cmd) if {
	cmd.name in kill_programs
	mentions_agentjail(cmd)
}

# kill's targets, in every form kill takes them: a pid (kill PID, kill
# -s TERM PID, kill -n 9 PID) or a process group as -PGID (kill -- -PID,
# kill -TERM -PID, kill -s KILL -- -PID). The daemon runs in a session of
# its own, so its group's id is its pid. %job and 0 name the agent's own
# jobs and process group, never the daemon: they stay allowed.
stops_agentjail(cmd) if {
	cmd.name == "kill"
	some t in kill_targets(cmd)
	is_daemon_pid(t)
}

# pkill -g PGID / --pgroup, -s SID / --session: the daemon's group or
# session (both its pid); pkill -F / --pidfile with its lock file.
stops_agentjail(cmd) if {
	cmd.name == "pkill"
	some v in option_values(cmd, {"-g", "--pgroup", "-s", "--session"})
	some id in split(v, ",")
	is_daemon_group(trim_space(id))
}

stops_agentjail(cmd) if {
	cmd.name == "pkill"
	count(option_values(cmd, {"-F", "--pidfile"})) > 0
	some p in cmd.paths
	some aj in agentjail_homes
	under(p, aj)
}

# kill_targets(cmd) are the words kill signals: those past its options,
# where the first option word is the signal (kill -9, kill -TERM) and
# -s/-n take the next word as one; a -N after that is a process group.
# kill -l and -L only list signals.
kill_targets(cmd) := [a |
	not kill_lists(cmd)
	some i, a in cmd.args
	kill_target_at(cmd, i)
]

kill_lists(cmd) if cmd.args[0] in {"-l", "-L", "--list", "--table"}

kill_target_at(cmd, i) if {
	not startswith(cmd.args[i], "-")
	not kill_signal_value_at(cmd, i)
}

kill_target_at(cmd, i) if {
	i > 0
	regex.match(`^-[0-9]+$`, cmd.args[i])
	not kill_signal_value_at(cmd, i)
}

kill_signal_value_at(cmd, i) if {
	i > 0
	cmd.args[i - 1] in {"-s", "-n", "--signal", "-q", "--queue"}
}

# daemon is what identifies the daemon's process (input.agentjail.daemon):
# its pid, process group, session, parent, command lines and cgroup. An
# input built by hand may carry only daemon_pid.
daemon := object.get(derived, "daemon", {"pid": object.get(derived, "daemon_pid", 0)})

# daemon_ids name the daemon itself; daemon_groups the process groups and
# session that hold it (kill -- -PGID, pkill -g/-s, renice -g). Never 0
# (the caller's own group), even where they are not known.
daemon_ids := {n | n := object.get(daemon, "pid", 0); n > 0}

daemon_groups := {n | some k in ["pid", "pgid", "sid"]; n := object.get(daemon, k, 0); n > 0}

# is_daemon_pid(word): the daemon's pid as a target word writes it (1234,
# +1234, 001234), or its group as -PGID.
is_daemon_pid(word) if {
	regex.match(`^\+?[0-9]{1,10}$`, word)
	to_number(trim_left(word, "+")) in daemon_ids
}

is_daemon_pid(word) if {
	regex.match(`^-[0-9]{1,10}$`, word)
	to_number(trim_left(word, "-")) in daemon_groups
}

# is_daemon_group(word): a group or session id pkill -g/-s takes.
is_daemon_group(word) if {
	regex.match(`^[0-9]{1,10}$`, word)
	to_number(word) in daemon_groups
}

# pkill -P PPID: every child of the daemon's parent, the daemon among them
# (its parent is the service manager, init, or whoever started it).
stops_agentjail(cmd) if {
	cmd.name == "pkill"
	ppid := object.get(daemon, "ppid", 0)
	ppid > 0
	some v in option_values(cmd, {"-P", "--parent"})
	some id in split(v, ",")
	regex.match(`^[0-9]{1,10}$`, trim_space(id))
	to_number(trim_space(id)) == ppid
}

# kill -9 -1, kill -- -1: every process of ours, the daemon with them. (A
# -1 in first place is a signal: kill -1 1234 sends SIGHUP.)
stops_agentjail(cmd) if {
	cmd.name == "kill"
	some i, a in cmd.args
	a == "-1"
	i > 0
}

# pids from elsewhere (a pipe, xargs, $(...), a variable) while another
# command of the call picks out the daemon: pgrep -f agentjail | xargs
# kill, ps aux | grep agent.ail | awk '{print $2}' | xargs kill,
# kill $(cat ~/.agentjail/agentjail.lock).
stops_agentjail(cmd) if {
	cmd.name in kill_programs
	pids_from_elsewhere(cmd)
	some other in commands
	other != cmd
	selects_daemon(other)
}

pids_from_elsewhere(cmd) if "xargs" in cmd.wrappers

pids_from_elsewhere(cmd) if count(cmd.subst) > 0

pids_from_elsewhere(cmd) if cmd.dynamic

pids_from_elsewhere(cmd) if count(cmd.pipe_from) > 0

# kill WORD where the word is no pid, group or job: a loop's variable the
# parser could not follow (for p in $(ls /proc); do kill $p; done).
pids_from_elsewhere(cmd) if {
	cmd.name == "kill"
	some t in kill_targets(cmd)
	not regex.match(`^[-+]?[0-9]+$|^%`, t)
}

# pkill -u $USER, killall -u dev: everything of ours, no name to narrow it.
stops_agentjail(cmd) if {
	cmd.name in {"pkill", "killall", "skill", "slay"}
	has_flag(cmd, {"u", "U", "user", "uid", "euid"})
	count(kill_patterns(cmd)) == 0
}

# pkill -f 'agent.ail', killall -r 'agent.*', pkill -f bin: a pattern
# that matches the daemon's name or command line.
stops_agentjail(cmd) if {
	cmd.name in {"pkill", "skill", "slay"}
	some a in kill_patterns(cmd)
	matches_daemon(a)
}

stops_agentjail(cmd) if {
	cmd.name == "killall"
	has_flag(cmd, {"r", "regexp", "m"}) # -m: macOS's killall matches a regex
	some a in kill_patterns(cmd)
	matches_daemon(a)
}

# The options of pkill and killall that take a value (-u USER, -s SIG).
kill_option_values := {
	"-u", "-U", "-g", "-G", "-s", "-P", "-t", "-F", "-o", "-y", "-n",
	"--signal", "--uid", "--euid", "--group", "--pgroup", "--session", "--terminal",
	"--parent", "--pidfile", "--ns", "--nslist", "--user", "--older-than", "--younger-than",
}

# kill_patterns(cmd) are the process names or patterns a pkill names.
kill_patterns(cmd) := [a |
	some i, a in cmd.args
	not startswith(a, "-")
	not kill_option_value(cmd, i)
]

kill_option_value(cmd, i) if cmd.args[i - 1] in kill_option_values

# daemon_names are what a pattern sees of the daemon: its name, its real
# command line (read by the daemon from the process table) and the ones
# launchd, systemd and the hook start it with.
daemon_names := {n |
	some n in array.concat(
		array.concat(["agentjail", "agentjail run", "agentjail run --headless"], object.get(daemon, "cmdlines", [])),
		[concat("", [aj, "/bin/agentjail run"]) | some aj in agentjail_homes],
	)
}

matches_daemon(pattern) if {
	count(pattern) <= 512
	regex.is_valid(pattern) # an invalid one must not fail the evaluation
	some n in daemon_names
	regex.match(pattern, n)
}

# selects_daemon(cmd): cmd picks out the daemon's process or pid.
selects_daemon(cmd) if mentions_agentjail(cmd)

selects_daemon(cmd) if {
	cmd.name in {"pgrep", "pidof", "grep", "egrep", "rg", "awk", "gawk", "pkill", "killall"}
	some a in cmd.operands
	matches_daemon(a)
}

# Its lock or pid file, read by cat, $(< file) or a redirect.
selects_daemon(cmd) if {
	some p in command_named(cmd)
	some aj in agentjail_homes
	under(p, aj)
}

selects_daemon(cmd) if {
	some r in cmd.redirects
	some aj in agentjail_homes
	under(r.path, aj)
}

# --- its service -------------------------------------------------------

launchctl_stops := {"bootout", "unload", "remove", "disable", "kill", "stop"}

stops_agentjail(cmd) if {
	cmd.name == "launchctl"
	subcommand(cmd) in launchctl_stops
	names_service(cmd)
}

# launchctl bootout gui/501: the whole session's agents, ours with them.
stops_agentjail(cmd) if {
	cmd.name == "launchctl"
	subcommand(cmd) == "bootout"
	count(cmd.operands) == 2
	regex.match(`^(gui|user|login)/[^/]*$`, cmd.operands[1])
}

# launchctl kickstart -k: kills the running daemon to restart it.
stops_agentjail(cmd) if {
	cmd.name == "launchctl"
	subcommand(cmd) == "kickstart"
	has_flag(cmd, {"k"})
	names_service(cmd)
}

systemctl_stops := {
	"stop", "disable", "kill", "mask", "restart", "try-restart", "reload-or-restart", "revert", "edit",
	"freeze", "set-property", "link", "reenable", "clean",
}

stops_agentjail(cmd) if {
	cmd.name in {"systemctl", "service"}
	some op in cmd.operands
	op in systemctl_stops
	names_service(cmd)
}

# systemctl --user exit: the user's service manager and all it runs.
stops_agentjail(cmd) if {
	cmd.name == "systemctl"
	has_flag(cmd, {"user"})
	some op in cmd.operands
	op in {"exit", "halt", "poweroff", "kexec", "isolate"}
}

# loginctl terminate-user / kill-user: every process of the user.
stops_agentjail(cmd) if {
	cmd.name == "loginctl"
	subcommand(cmd) in {"terminate-user", "kill-user", "terminate-session", "kill-session"}
}

# names_service(cmd): the label, unit or plist, written out, matched by a
# glob (agent*), a protected path (~/Library/LaunchAgents/*), or picked
# out at run time by another command of the call.
names_service(cmd) if mentions_agentjail(cmd)

names_service(cmd) if {
	some op in cmd.operands
	plain_glob(op)
	some unit in {"agentjail.service", "dev.agentjail.agent"}
	glob.match(op, ["/"], unit) # [] would mean ".", and agent* would not reach agentjail.service
}

# Any pattern systemctl or the shell would match: agentjai[l].service.
names_service(cmd) if {
	some re in object.get(cmd, "patterns", [])
	some unit in {"agentjail.service", "agentjail", "dev.agentjail.agent"}
	regex.match(re, unit)
}

names_service(cmd) if {
	some p in command_named(cmd)
	protected_file(p)
}

names_service(cmd) if {
	cmd.dynamic
	some other in commands
	other != cmd
	selects_daemon(other)
}

# --- interpreters ------------------------------------------------------

# python3 -c 'import os; os.kill(PID, 9)', node -e 'process.kill(...)',
# perl -e 'kill 9, ...': code that signals a process and names the
# daemon's pid or finds pids itself (pgrep, ps, psutil, a lock file).
# Code that names agentjail at all is self.interpreter's.
deny contains {"id": "self.stop_daemon", "msg": msg} if {
	"interpreter" in input.agentjail.kinds
	some cmd in commands
	some code in code_strings(cmd)
	regex.match(`(?i)kill|signal|terminate|SIG[A-Z]`, code)
	code_selects_daemon(code)
	msg := sprintf("Blocked: this %s code signals processes it finds by pid, which could stop agentjail, the guard of this session. If a process is in the way, name it to the user.", [cmd.name])
}

code_selects_daemon(code) if {
	some n in daemon_groups
	regex.match(sprintf(`(^|[^0-9])%d([^0-9]|$)`, [n]), code)
}

code_selects_daemon(code) if regex.match(`pgrep|pidof|(^|[^A-Za-z])ps([^A-Za-z]|$)|psutil|process_iter|getpgid|(^|[^0-9])-1([^0-9]|$)`, code)

# A pid or lock file is agentjail's only when the code names agentjail's
# home: a pid read from run/server.pid is the agent's own dev server, as
# it is for `read P < run/server.pid; kill $P`.
code_selects_daemon(code) if {
	regex.match(`\.(lock|pid)`, code)
	code_names_agentjail_home(code)
}

code_names_agentjail_home(code) if contains(lower(code), ".agentjail")

code_names_agentjail_home(code) if contains(lower(code), "agentjail_home")

code_names_agentjail_home(code) if {
	some aj in agentjail_homes
	contains(code, aj)
}

# --- process control beyond signals ---------------------------------------

# process_control: programs that act on a running process named by its
# pid, and the options that take the pid (some also take it as an
# operand: renice 19 PID, chrt -p 99 PID, gdb PROG PID). Pausing the daemon
# under a debugger or tracer, starving it of CPU, memory or files, or
# pinning it where it cannot run stops it as surely as a signal.
process_control := {
	"prlimit": {"-p", "--pid"},
	"gdb": {"-p", "--pid"},
	"lldb": {"-p", "--attach-pid"},
	"strace": {"-p"},
	"ltrace": {"-p"},
	"chrt": {"-p", "--pid"},
	"renice": {"-p", "--pid", "-g", "--pgrp"},
	"ionice": {"-p", "--pid", "-P", "--pgid"},
	"taskset": {"-p", "--pid"},
	"cpulimit": {"-p", "--pid"},
	"gcore": set(),
	"perf": {"-p", "--pid"},
}

# The programs of this file's rules are in the "stop" group, which gates them.
program_group contains [prog, "stop"] if some prog, _ in process_control

program_group contains [prog, "stop"] if some prog in dbus_callers | {"pgrep", "pidof"}

# A process-control program given the daemon's pid or group: as a word of
# its own, an option's value (-p1234, --pid=1234), or a number inside a
# word (gdb -ex 'attach 1234').
stops_agentjail(cmd) if {
	process_control[cmd.name]
	some a in cmd.args
	names_daemon_process(cmd.name, a)
}

names_daemon_process(_, a) if is_daemon_pid(a)

names_daemon_process(name, a) if {
	some opt in process_control[name]
	startswith(a, opt)
	rest := trim_prefix(trim_prefix(a, opt), "=")
	rest != a
	regex.match(`^[0-9]{1,10}$`, rest)
	to_number(rest) in daemon_groups
}

names_daemon_process(_, a) if {
	contains(a, " ")
	some w in regex.split(`[^0-9A-Za-z]+`, a)
	regex.match(`^[0-9]{1,10}$`, w)
	to_number(w) in daemon_ids
}

# gdb -p $(pgrep agentjail), strace -p "$PID" after PID=$(pidof agentjail):
# pids from elsewhere while another command of the call picks out the daemon.
stops_agentjail(cmd) if {
	process_control[cmd.name]
	pids_from_elsewhere(cmd)
	some other in commands
	other != cmd
	selects_daemon(other)
}

# Writing to the daemon's /proc/PID (oom_score_adj, and every other
# knob there), or to its cgroup (or a parent's) a file that freezes,
# kills or starves what it holds; moving the daemon's pid into a cgroup.
deny contains {"id": "self.stop_daemon", "msg": msg} if {
	input.agentjail.unusual == true # /proc and /sys are: every other call skips this rule
	some w in input.agentjail.writes
	stops_by_writing(w)
	msg := sprintf("Blocked: writing %s would stop or starve agentjail, which guards this session. If agentjail is in the way, tell the user which rule and why.", [w])
}

stops_by_writing(p) if {
	startswith(p, "/proc/")
	parts := split(p, "/")
	regex.match(`^[0-9]{1,10}$`, parts[2])
	to_number(parts[2]) in daemon_ids
}

cgroup_stop_files := {"cgroup.freeze", "cgroup.kill", "cgroup.max.procs", "memory.max", "memory.high", "cpu.max", "pids.max", "cpu.weight"}

stops_by_writing(p) if {
	startswith(p, "/sys/fs/cgroup")
	parts := split(p, "/")
	parts[count(parts) - 1] in cgroup_stop_files
	cg := object.get(daemon, "cgroup", "")
	cg != ""
	dir := concat("/", array.slice(parts, 0, count(parts) - 1))
	holds_daemon_cgroup(dir, cg)
}

holds_daemon_cgroup(dir, cg) if dir == cg

holds_daemon_cgroup(dir, cg) if startswith(cg, concat("", [dir, "/"]))

stops_by_writing(p) if {
	startswith(p, "/sys/fs/cgroup")
	some f in {"/cgroup.procs", "/cgroup.threads", "/tasks"}
	endswith(p, f)
	some cmd in commands
	some a in cmd.args
	is_daemon_pid(a)
}

# systemctl --user start exit.target: the service manager ends, and every
# service with it.
manager_end_targets := {
	"exit.target", "halt.target", "poweroff.target", "reboot.target", "kexec.target",
	"shutdown.target", "soft-reboot.target", "rescue.target", "emergency.target",
}

stops_agentjail(cmd) if {
	cmd.name == "systemctl"
	some op in cmd.operands
	op in {"start", "isolate", "restart", "reload-or-restart", "try-restart", "enqueue-marked-jobs"}
	some t in cmd.operands
	t in manager_end_targets
}

# The same through DBus: systemd's Manager interface, called by busctl,
# dbus-send or gdbus. Methods that act on a unit need it to be ours; the
# ones that end the manager do not.
dbus_callers := {"busctl", "dbus-send", "gdbus", "qdbus"}

systemd_unit_stops := {
	"StopUnit", "KillUnit", "RestartUnit", "TryRestartUnit", "ReloadOrRestartUnit", "ReloadOrTryRestartUnit",
	"FreezeUnit", "DisableUnitFiles", "DisableUnitFilesWithFlags", "MaskUnitFiles", "SetUnitProperties",
	"UnlinkUnitFiles", "CleanUnit", "QueueSignalUnit",
}

systemd_manager_ends := {"Exit", "Halt", "PowerOff", "Reboot", "KExec", "SoftReboot"}

dbus_method(a) := m if {
	parts := split(a, ".")
	m := parts[count(parts) - 1]
}

stops_agentjail(cmd) if {
	cmd.name in dbus_callers
	some a in cmd.args
	dbus_method(a) in systemd_unit_stops
	names_service(cmd)
}

stops_agentjail(cmd) if {
	cmd.name in dbus_callers
	some a in cmd.args
	dbus_method(a) in systemd_manager_ends
	some b in cmd.args
	contains(b, "systemd1")
}

stops_agentjail(cmd) if {
	cmd.name in dbus_callers
	some a in cmd.args
	dbus_method(a) in {"StartUnit", "StartUnitReplace", "StartUnitWithFlags"}
	some b in cmd.args
	trim_prefix(b, "string:") in manager_end_targets
}

# --- a tool given its pid ---------------------------------------------------

# An MCP tool (or another tool agentjail has no kind for) that signals, suspends or traces a
# process, given the daemon's pid: kill_process {"pid": 1234}.
deny contains {"id": "self.stop_daemon", "msg": msg} if {
	input.agentjail.tool_kind == "mcp"
	some msg in tool_stops_daemon
}

deny contains {"id": "self.stop_daemon", "msg": msg} if {
	input.agentjail.tool_kind == "other"
	some msg in tool_stops_daemon
}

tool_stops_daemon contains msg if {
	regex.match(`(?i)kill|signal|terminat|stop|suspend|pause|freeze|nice|priorit|limit|attach|trace|debug|process`, object.get(input, "tool_name", ""))
	walk(object.get(input, "tool_input", {}), [_, v])
	names_daemon_value(v)
	msg := sprintf("Blocked: %s would act on agentjail's own process (pid %v), which guards this session. If agentjail is in the way, tell the user which rule and why.", [input.tool_name, v])
}

names_daemon_value(v) if {
	is_number(v)
	v in daemon_ids
}

names_daemon_value(v) if {
	is_string(v)
	is_daemon_pid(v)
}

# --- what cannot be resolved ------------------------------------------------

# A process picked out by a name built at run time (pidof agent$X, pgrep
# "${N}ail"): the text around the variables, with each variable as
# anything, could be the daemon's name. At least three characters must be
# written out: pidof $APP says nothing about which program.
stops_unresolved(cmd) if {
	cmd.name in {"pkill", "killall"}
	built_name_selector(cmd)
}

built_name_selector(cmd) if {
	cmd.name in {"pgrep", "pidof", "pkill", "killall"}
	cmd.dynamic
	some a in kill_patterns(cmd)
	could_name_daemon(a)
}

could_name_daemon(word) if {
	contains(word, "$")
	count(word) <= 256
	fixed := regex.split(`\$(\{[^}]*\}|\([^)]*\)|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])`, word)
	count(concat("", fixed)) >= 3
	g := concat("*", [regex.replace(f, `[\[\]{}*?\\,!]`, "?") | some f in fixed])
	some n in daemon_names
	glob.match(concat("", ["*", g, "*"]), ["\n"], n)
}

# A kill of pids found at run time, in a call that also names agentjail,
# its socket or its home, where no rule could tell which process: ask.
stops_unresolved(cmd) if {
	cmd.name in kill_programs
	pids_from_elsewhere(cmd)
	call_names_agentjail
}

stops_unresolved(cmd) if {
	cmd.name in kill_programs
	pids_from_elsewhere(cmd)
	some other in commands
	other != cmd
	built_name_selector(other)
}

call_names_agentjail if contains(lower(object.get(derived, "command", "")), "agentjail")

call_names_agentjail if {
	derived.socket != ""
	contains(object.get(derived, "command", ""), derived.socket)
}

ask contains {"id": "self.stop_unresolved", "msg": msg} if {
	"stop" in input.agentjail.kinds
	some cmd in commands
	stops_unresolved(cmd)
	not stops_agentjail(cmd)
	msg := sprintf("`%s` signals processes found at run time, and agentjail cannot tell whether one of them is agentjail itself, which guards this session. Allow it only if you know which processes it stops.", [concat(" ", array.concat([cmd.name], cmd.args))])
}

# A tool other than the shell given the daemon's pid (an MCP kill_process,
# signal_process, set_priority): process control of the daemon is
# stopping it, whatever the tool is called.
deny contains {"id": "self.stop_daemon", "msg": msg} if {
	input.agentjail.pids[0]
	input.agentjail.daemon_pid > 0
	some pid in input.agentjail.pids
	pid == input.agentjail.daemon_pid
	msg := sprintf("Blocked: `%s` is given the pid of agentjail's daemon, which guards this session; agents may not signal, pause or reconfigure it. Tell the user what you need.", [input.agentjail.tool_name])
}
