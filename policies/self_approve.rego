package agentjail

# Self-protection, approvals: a call held for a person's answer is
# answered by that person, never by the agent whose call it is. The
# agent may not run `agentjail approve`, `deny` or `pending` (which shows
# the one-time codes) by any name or route, revoke grants, speak the
# daemon's protocol on its socket, or forge the click that answers one in
# the tray's menu or a notification. A locked rule (its id starts with
# "self."); `agentjail grants` only lists and stays allowed.

approve_msg := "only a person can answer an approval: ask the user to approve it in the menu bar, the notification, or with `agentjail approve` in their own terminal."

# approval_ops are agentjail's subcommands that answer held calls or
# list them with their one-time codes.
approval_ops := {"approve", "deny", "pending"}

# approval_words(ops): agentjail's operands ops answer or list held
# calls, or change grants (`grants` alone only lists them).
approval_words(ops) if ops[0] in approval_ops

approval_words(ops) if {
	ops[0] == "grants"
	count(ops) > 1
}

deny contains {"id": "self.approve", "msg": msg} if {
	"agentjail" in input.agentjail.names
	some cmd in commands
	cmd.name == "agentjail"
	approval_words(cmd.operands)
	msg := sprintf("Blocked: `agentjail %s`: %s", [concat(" ", cmd.operands), approve_msg])
}

# echo "agentjail approve 3" | sh, bash <<< "agentjail pending": a
# shell given the command as text on its standard input.
deny contains {"id": "self.approve", "msg": msg} if {
	"shell" in input.agentjail.kinds
	some cmd in commands
	cmd.name in shells
	some text in shell_fed_text(cmd)
	approval_text(text)
	msg := sprintf("Blocked: `%s` is given a command that answers an approval: %s", [cmd.name, approve_msg])
}

shell_fed_text(cmd) := {r.target | some r in cmd.redirects; r.op == "<<<"} | {a |
	some other in commands
	other.name in {"echo", "printf"}
	other.name in cmd.pipe_from
	some a in other.args
}

approval_text(text) if regex.match(`(^|[\s;&|(/'"])agentjail['"]?\s+(-\S+\s+)*(approve|deny|pending|grants\s+revoke)([\s;&|'"\\]|$)`, text)

# $(which agentjail) approve 3, "$AJ" deny 3 after AJ=$(command -v
# agentjail): a program found at run time, in a call that looks it up or
# names agentjail.
deny contains {"id": "self.approve", "msg": msg} if {
	some cmd in commands
	approval_words(cmd.operands) # first: rare, and cheap to test
	dynamic_program(cmd)
	finds_agentjail_at_run_time
	msg := sprintf("Blocked: `%s` runs agentjail found at run time to answer an approval: %s", [concat(" ", array.concat([cmd.program], cmd.args)), approve_msg])
}

finds_agentjail_at_run_time if call_names_agentjail

finds_agentjail_at_run_time if "lookup" in input.agentjail.kinds

# alias ok='agentjail approve' (then ok 3 on a line of its own): the
# alias's words, then the command's, are what agentjail is given.
deny contains {"id": "self.approve", "msg": msg} if {
	"alias" in input.agentjail.names
	some def in commands
	def.name == "alias"
	some a in def.args
	[name, value] := split(a, "=")
	words := [w | some w in split(trim_space(value), " "); w != ""]
	base_name(words[0]) == "agentjail"
	some cmd in commands
	cmd.name == name
	ops := array.concat([w | some i, w in words; i > 0; not startswith(w, "-")], cmd.operands)
	approval_words(ops)
	msg := sprintf("Blocked: `%s` is agentjail under an alias, answering an approval: %s", [name, approve_msg])
}

# A copy or link of agentjail's program made by the same call, run under
# its new name (cp ~/.agentjail/bin/agentjail /tmp/x && /tmp/x approve 3,
# go build -o ok ./cmd/agentjail && ./ok deny 3): the program is judged
# by what it is, not by its name.
deny contains {"id": "self.approve", "msg": msg} if {
	some cmd in commands
	approval_words(cmd.operands) # first: rare, and cheap to test
	cmd.name != "agentjail"
	some src in commands
	src != cmd
	src.name in binary_copiers
	copies_agentjail(src)
	msg := sprintf("Blocked: `%s` runs a copy of agentjail (made by `%s`) to answer an approval: %s", [concat(" ", array.concat([cmd.name], cmd.args)), src.name, approve_msg])
}

# binary_copiers make a program file from another: copies, links,
# moves, raw copies, builds.
binary_copiers := {"cp", "ln", "link", "install", "rsync", "ditto", "dd", "cat", "mv", "tee", "go", "scp", "tar", "cpio"}

copies_agentjail(src) if {
	some p in command_named(src)
	agentjail_program_path(p)
}

copies_agentjail(src) if {
	some a in src.args
	agentjail_program_path(trim_prefix(a, "if="))
}

# cp "$(which agentjail)" x: the source is found at run time.
copies_agentjail(src) if {
	count(src.subst) > 0
	some other in commands
	other.name in {"which", "command", "type", "realpath", "readlink", "whereis"}
	other.name in src.subst
	mentions_agentjail(other)
}

# agentjail_program_path(p): p is agentjail's program, where install
# puts it or where a build finds its source (./cmd/agentjail).
agentjail_program_path(p) if base_name(p) == "agentjail"

# go run ./cmd/agentjail approve 3: built and run in one step.
deny contains {"id": "self.approve", "msg": msg} if {
	"go" in input.agentjail.names
	some cmd in commands
	cmd.name == "go"
	cmd.operands[0] == "run"
	some i, a in cmd.operands
	i > 0
	agentjail_program_path(trim_suffix(a, "/"))
	approval_words(array.slice(cmd.operands, i + 1, count(cmd.operands)))
	msg := sprintf("Blocked: `go run %s` builds and runs agentjail to answer an approval: %s", [concat(" ", array.slice(cmd.operands, 1, count(cmd.operands))), approve_msg])
}

# --- the daemon's socket ---------------------------------------------------

# A client of a Unix socket given agentjail's: the daemon's own (any
# spelling the parser resolves: a variable, a glob, a link the call
# makes), the system daemon's, any socket in an agentjail home, or one
# the call finds at run time while naming agentjail. A frame sent there
# could answer a held call; `agentjail status` reads what the daemon
# says. Its socket written out is self.protected_file's too.
deny contains {"id": "self.approve", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	unix_socket_client(cmd)
	talks_to_agentjail_socket(cmd)
	msg := sprintf("Blocked: `%s` talks to agentjail's socket directly, where a held call's answer arrives; %s `agentjail status` shows what the daemon is doing.", [cmd.name, approve_msg])
}

unix_socket_client(cmd) if {
	cmd.name in {"nc", "ncat", "netcat"}
	has_flag(cmd, {"U", "unixsock"})
}

unix_socket_client(cmd) if {
	cmd.name == "socat"
	some a in cmd.args
	socat_unix_address(a)
}

unix_socket_client(cmd) if {
	cmd.name == "curl"
	has_flag(cmd, {"unix-socket", "abstract-unix-socket"})
}

socat_unix_address(a) if regex.match(`(?i)^(unix|unix-connect|unix-client|unix-sendto|local|abstract|abstract-connect|abstract-client|abstract-sendto|gopen|open):`, a)

# socket_words are what names a socket in cmd: its paths, and its
# arguments with socat's address type and options taken off.
socket_words(cmd) := {w |
	some a in array.concat(command_named(cmd), cmd.args)
	w := regex.replace(regex.replace(a, `^(?i)[a-z-]+:`, ""), `,.*$`, "")
}

talks_to_agentjail_socket(cmd) if {
	some w in socket_words(cmd)
	agentjail_socket(w)
}

talks_to_agentjail_socket(cmd) if {
	cmd.dynamic
	call_names_agentjail
}

# system_sockets: the system daemon's socket (internal/paths), on Linux
# and on macOS.
system_sockets := {"/run/agentjail/agentjail.sock", "/var/run/agentjail/agentjail.sock"}

agentjail_socket(w) if {
	daemon_socket != ""
	w == daemon_socket
}

agentjail_socket(w) if w in system_sockets

agentjail_socket(w) if {
	endswith(w, ".sock")
	some aj in (agentjail_homes | {"/run/agentjail", "/var/run/agentjail"})
	under(w, aj)
}

agentjail_socket(w) if {
	plain_glob(w)
	some s in (system_sockets | {daemon_socket, concat("", [home_slash, ".agentjail/agentjail.sock"])})
	s != ""
	glob.match(w, ["/"], s)
}

# Code that opens a Unix socket and speaks the daemon's protocol (an op
# "answer", "pending", "revoke" or "grants"), or that names agentjail
# and an approval: python3 -c 'import subprocess;
# subprocess.run(["agentjail", "approve", "3"])', node's execSync, perl's
# system.
deny contains {"id": "self.approve", "msg": msg} if {
	"interpreter" in input.agentjail.kinds
	some cmd in commands
	some code in code_strings(cmd)
	code_answers_approval(code)
	msg := sprintf("Blocked: this %s code could answer an approval held for a person; %s", [cmd.name, approve_msg])
}

code_answers_approval(code) if {
	regex.match(`(?i)AF_UNIX|socket\.unix|IO::Socket::UNIX|UNIXSocket|createConnection|net\.connect|unix-?socket|unix://`, code)
	regex.match(`["'](answer|pending|revoke|grants)\\?["']`, code)
}

code_answers_approval(code) if {
	contains(lower(code), "agentjail")
	regex.match(`(^|[^A-Za-z_])(approve|deny|pending|revoke)([^A-Za-z_]|$)`, code)
}

# --- the click of a person -------------------------------------------------

# The tray answers when its menu gets a click (dbusmenu's Event or
# EventGroup) or its icon is activated (StatusNotifierItem's Activate);
# a notification when the server emits ActionInvoked. Each can be forged
# on the session bus by gdbus, dbus-send, busctl or qdbus, and by a
# notification server's own client (makoctl invoke, dunstctl action).
# Listing names, introspecting and sending a notification stay allowed.
program_group contains [prog, "approve"] if some prog in (dbus_callers | {"makoctl", "dunstctl"})

deny contains {"id": "self.approve", "msg": msg} if {
	"approve" in input.agentjail.kinds
	some cmd in commands
	forges_click(cmd)
	msg := sprintf("Blocked: `%s` would click a button of agentjail's menu or a notification for the user; %s", [concat(" ", array.concat([cmd.name], cmd.args)), approve_msg])
}

# click_members: an interface and the members of it that answer.
click_members := {
	"com.canonical.dbusmenu": {"Event", "EventGroup"},
	"org.freedesktop.Notifications": {"ActionInvoked"},
	"org.kde.StatusNotifierItem": {"Activate", "SecondaryActivate"},
	"org.freedesktop.StatusNotifierItem": {"Activate", "SecondaryActivate"},
}

# dbus_sends(cmd): cmd calls a method or emits a signal (gdbus introspect,
# busctl list or monitor only read).
dbus_sends(cmd) if cmd.name in {"dbus-send", "qdbus"}

dbus_sends(cmd) if {
	cmd.name in {"gdbus", "busctl"}
	some op in cmd.operands
	op in {"call", "emit"}
}

# dbus_words(cmd) are cmd's arguments with gdbus's --method= / --signal=
# taken off.
dbus_words(cmd) := {regex.replace(a, `^--?[a-z-]+=`, "") | some a in cmd.args}

forges_click(cmd) if {
	dbus_sends(cmd)
	words := dbus_words(cmd)
	some iface, members in click_members
	some m in members
	concat(".", [iface, m]) in words
}

# busctl and qdbus take the interface and the member as two words.
forges_click(cmd) if {
	dbus_sends(cmd)
	words := dbus_words(cmd)
	some iface, members in click_members
	iface in words
	some m in members
	m in words
}

# A signal no program but the notification server emits, under any
# interface spelling.
forges_click(cmd) if {
	dbus_sends(cmd)
	some w in dbus_words(cmd)
	dbus_method(w) == "ActionInvoked"
}

forges_click(cmd) if {
	cmd.name == "makoctl"
	cmd.operands[0] in {"invoke", "menu"}
}

forges_click(cmd) if {
	cmd.name == "dunstctl"
	cmd.operands[0] in {"action", "context"}
}

# Code that reaches the session bus (gi's Gio, dbus-python, jeepney,
# dbus-next) and names a member that answers.
deny contains {"id": "self.approve", "msg": msg} if {
	"interpreter" in input.agentjail.kinds
	some cmd in commands
	some code in code_strings(cmd)
	regex.match(`(?i)dbus|Gio\.|gi\.repository|jeepney|sdbus|busctl|gdbus`, code)
	code_names_click(code)
	msg := sprintf("Blocked: this %s code would click a button of agentjail's menu or a notification for the user; %s", [cmd.name, approve_msg])
}

code_names_click(code) if contains(code, "ActionInvoked")

code_names_click(code) if {
	contains(code, "com.canonical.dbusmenu")
	regex.match(`(^|[^A-Za-z])Event(Group)?([^A-Za-z]|$)`, code)
}

code_names_click(code) if {
	contains(code, "StatusNotifierItem")
	regex.match(`(^|[^A-Za-z])(Secondary)?Activate([^A-Za-z]|$)`, code)
}
