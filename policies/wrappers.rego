package agentjail

# Wrappers: programs that run another program (sudo rm, nice make,
# timeout 30 npm test, taskset -c 0 ...). The daemon's shell parser reads
# this table (through shell_roles) and judges the command a wrapper runs
# as if it were started directly, with the wrapper listed in its
# "wrappers": `nice rm -rf ~` is `rm -rf ~`. A row says, with option
# names written without dashes:
#
#   value    options that take a value (sudo -u USER, nice -n 10)
#   pair     options followed by two values (bwrap --bind SRC DEST)
#   skip     operands before the command: timeout's duration, chroot's
#            folder, flock's lock file, taskset's mask; -1 when its
#            operands are never a command (su USER: only -c runs one)
#   words    words that must follow the name (ip netns exec NAME CMD)
#   verbs    subcommands under which it runs a command, one of which must
#            be its first operand past its options (tmux new-session CMD)
#   argv     options that make the operands the command, word by word
#            (watch -x; runuser -u USER CMD)
#   string   the operands are one shell command line (watch, sg, eval)
#   none     options under which it runs nothing: it acts on a process
#            or looks a name up (ionice -p PID, taskset -p, command -v)
#   command  options whose value is a command line (flock -c, su -c)
#   env      options whose value NAME=VALUE is set for the command it
#            runs (tmux new -e, systemd-run -E)
#   emit     it is also a command of its own, for the rules that read
#            it: "options" with its own options and operands (nsenter
#            -t 1, systemd-run --on-calendar, chroot DIR), "all" with
#            the command it runs too (busybox httpd -p 80)
#
# Shells (sh -c), xargs, find -exec, ssh's remote command and env's
# assignments and -S are mechanism in the parser. renice and kill act on
# running processes and run nothing, so they are no rows. A user's
# policy adds or replaces rows with `wrapper contains ["tool", {...}]`.
wrappers := object.union(core_wrappers, {pair[0]: pair[1] | some pair in wrapper})

# wrapper holds [program, row] pairs from other policy files.
wrapper contains pair if {
	some pair in []
}

_systemd_run := {
	"value": [
		"u", "unit", "p", "property", "description", "slice", "uid", "gid", "M", "machine", "H", "host",
		"on-active", "on-boot", "on-startup", "on-unit-active", "on-unit-inactive", "on-calendar", "on-clock-change",
		"on-timezone-change", "timer-property", "path-property", "socket-property", "service-type", "working-directory",
		"nice", "D", "chdir", "background", "capsule", "C",
	],
	"env": ["E", "setenv"],
	"emit": "options",
}

_time := {"value": ["f", "format", "o", "output"]}

_proxychains := {"value": ["f"]}

_su := {"value": ["s", "shell", "g", "group", "G", "supp-group", "w", "whitelist-environment"], "command": ["c", "command", "session-command"], "skip": -1}

core_wrappers := {
	# Privilege.
	"sudo": {"value": ["u", "user", "g", "group", "C", "close-from", "D", "chdir", "h", "host", "p", "prompt", "r", "role", "t", "type", "T", "command-timeout", "U", "other-user", "R", "chroot"]},
	"doas": {"value": ["C", "u"]},
	"pkexec": {"value": ["user"]},
	"run0": {"env": ["setenv"], "value": ["u", "user", "g", "group", "nice", "D", "chdir", "unit", "p", "property", "description", "slice", "background", "machine", "area"], "emit": "options"},
	"su": _su,
	"runuser": object.union(_su, {"value": array.concat(_su.value, ["u", "user"]), "argv": ["u", "user"]}),
	"sg": {"skip": 1, "string": true},
	# The shell's own.
	"env": {"value": ["u", "unset", "C", "chdir", "S", "split-string", "P"]},
	"command": {"none": ["v", "V"]},
	"builtin": {},
	"exec": {"value": ["a"]},
	"eval": {"string": true},
	"nohup": {},
	"setsid": {},
	"time": _time,
	"gtime": _time,
	# Scheduling and resources.
	"nice": {"value": ["n", "adjustment"]},
	"ionice": {"value": ["c", "class", "n", "classdata", "p", "pid", "P", "pgid", "u", "uid"], "none": ["p", "pid", "P", "pgid", "u", "uid"]},
	"taskset": {"skip": 1, "none": ["p", "pid"]},
	"chrt": {"skip": 1, "value": ["T", "sched-runtime", "P", "sched-period", "D", "sched-deadline"], "none": ["p", "pid", "m", "max"]},
	"numactl": {
		"value": ["N", "cpunodebind", "m", "membind", "i", "interleave", "C", "physcpubind", "p", "preferred", "P", "preferred-many", "w", "weighted-interleave"],
		"none": ["s", "show", "H", "hardware"],
	},
	"prlimit": {"value": ["p", "pid", "o", "output"], "none": ["p", "pid"]},
	"cgexec": {"value": ["g"]},
	"timeout": {"skip": 1, "value": ["s", "signal", "k", "kill-after"]},
	"caffeinate": {"value": ["t", "w"]},
	"stdbuf": {"value": ["i", "input", "o", "output", "e", "error"]},
	"unbuffer": {},
	"chronic": {},
	"watch": {"value": ["n", "interval", "q", "equexit"], "string": true, "argv": ["x", "exec"]},
	"flock": {"skip": 1, "value": ["w", "wait", "timeout", "E", "conflict-exit-code"], "command": ["c", "command"]},
	"faketime": {"skip": 1, "value": ["date-prog"]},
	"catchsegv": {},
	"setarch": {"skip": 1, "none": ["list"]},
	"linux32": {},
	"linux64": {},
	"systemd-run": _systemd_run,
	"systemd-inhibit": {"value": ["what", "who", "why", "mode"]},
	# Namespaces, sandboxes and other roots: what they run is still run.
	"chroot": {"skip": 1, "value": ["userspec", "groups"], "emit": "options"},
	"nsenter": {"value": ["t", "target", "S", "setuid", "G", "setgid"], "emit": "options"},
	"unshare": {"value": ["propagation", "setgroups", "map-user", "map-group", "map-users", "map-groups", "S", "setuid", "G", "setgid", "R", "root", "w", "wd"], "emit": "options"},
	"firejail": {"emit": "options"},
	"bwrap": {
		"value": ["chdir", "tmpfs", "proc", "dev", "dir", "remount-ro", "uid", "gid", "hostname", "unsetenv", "seccomp", "info-fd", "json-status-fd", "lock-file", "sync-fd", "block-fd", "userns-block-fd", "args", "exec-label", "file-label", "cap-add", "cap-drop", "perms", "size", "userns", "userns2", "pidns", "argv0", "add-seccomp-fd"],
		"pair": ["bind", "ro-bind", "dev-bind", "bind-try", "ro-bind-try", "dev-bind-try", "symlink", "setenv", "file", "bind-data", "ro-bind-data", "chmod", "overlay-src"],
		"emit": "options",
	},
	"ip": {"words": ["netns", "exec"], "skip": 1},
	# launchctl asuser UID CMD runs CMD in that user's session (macOS).
	"launchctl": {"words": ["asuser"], "skip": 1},
	"xvfb-run": {"value": ["e", "error-file", "f", "auth-file", "n", "server-num", "p", "xauth-protocol", "s", "server-args", "w", "wait"]},
	"dbus-run-session": {"value": ["config-file", "dbus-daemon"]},
	# Terminal multiplexers and dialogue drivers start the command in a
	# session of their own, detached or typed in (tmux send-keys's key
	# names, Enter, then end the line); expect's -c is a script whose
	# spawn starts a program.
	"tmux": {
		"verbs": ["new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "send-keys", "send", "run-shell", "run"],
		"value": ["L", "S", "f", "s", "n", "c", "t", "x", "y", "F", "N", "p"],
		"env": ["e"],
		"string": true,
	},
	"screen": {"value": ["S", "c", "t", "e", "h", "p", "T", "Logfile"], "none": ["r", "R", "x", "ls", "list", "wipe", "X", "Q", "v", "version"]},
	"expect": {"command": ["c"], "skip": -1},
	"spawn": {},
	"script": {"skip": 1, "value": ["I", "log-in", "O", "log-out", "B", "log-io", "T", "log-timing", "m", "logging-format", "E", "echo", "o", "output-limit"], "command": ["c", "command"]},
	# Network routing.
	"proxychains": _proxychains,
	"proxychains4": _proxychains,
	"torsocks": {"value": ["u", "user", "p", "pass", "a", "address", "P", "port"]},
	"torify": {},
	# Tracers and debuggers that start the program they trace.
	"strace": {"value": ["o", "e", "p", "s", "a", "b", "E", "I", "O", "P", "S", "u", "X", "output", "trace", "attach", "string-limit", "signal", "status", "user", "env"], "none": ["p", "attach"]},
	"ltrace": {"value": ["o", "e", "p", "s", "a", "l", "n", "u", "A", "D", "F", "x", "w", "output", "library", "config", "indent", "align"], "none": ["p"]},
	"valgrind": {},
	# Multi-call binaries: busybox rm is rm.
	"busybox": {"emit": "all"},
	"toybox": {"emit": "all"},
}
