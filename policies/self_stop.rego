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
	is_daemon_pid(trim_space(id))
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

# is_daemon_pid(word): the daemon's pid or process group as a kill target
# writes it: 1234, -1234, +1234, 001234. Never 0 (the caller's own group),
# even where the daemon's pid is not known.
is_daemon_pid(word) if {
	derived.daemon_pid > 0
	regex.match(sprintf(`^[-+]?0*%d$`, [derived.daemon_pid]), word)
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
	has_flag(cmd, {"r", "regexp"})
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

# daemon_names are what a pattern sees of the daemon: its name and its
# command line as launchd or systemd start it.
daemon_names := {n |
	some n in array.concat(
		["agentjail", "agentjail run"],
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

code_selects_daemon(code) if regex.match(sprintf(`(^|[^0-9])%d([^0-9]|$)`, [derived.daemon_pid]), code)

code_selects_daemon(code) if regex.match(`pgrep|pidof|(^|[^A-Za-z])ps([^A-Za-z]|$)|psutil|process_iter|\.lock|\.pid|getpgid|(^|[^0-9])-1([^0-9]|$)`, code)

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
