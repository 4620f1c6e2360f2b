package agentjail

# Self-protection, files: every writer is a writer. A shell command that
# names one of agentjail's protected files (the agents' hook settings,
# anything in agentjail's home or policy folders, its socket, the
# LaunchAgent or systemd unit that keeps it running) is stopped unless its
# program is known only to read: sed -i, perl -pi, cp, mv, rsync, tar,
# an interpreter, and any program the tables below do not know are all
# writers. Locked rules (every id starts with "self.").

# --- where -------------------------------------------------------------

# policy_dirs are the extra policy folders of config.yaml (data.config).
default policy_dirs := []

policy_dirs := data.config.policy_dirs

# daemon_socket is the socket the daemon serves ($AGENTJAIL_SOCKET).
daemon_socket := object.get(derived, "socket", "")

# service_dirs hold the LaunchAgent plist and the systemd --user unit;
# the folders themselves are protected (moving one away unloads us), and
# so is every entry in them whose name mentions agentjail (the unit, its
# .d drop-ins, the .wants link).
service_dirs := {
	concat("", [home_slash, "Library/LaunchAgents"]),
	concat("", [home_slash, ".config/systemd/user"]),
	concat("", [home_slash, ".config/systemd"]),
	concat("", [home_slash, ".local/share/systemd/user"]),
	"/Library/LaunchAgents",
	"/Library/LaunchDaemons",
	"/etc/systemd/user",
}

service_file(p) if p in service_dirs

service_file(p) if {
	some d in service_dirs
	startswith(p, concat("", [d, "/"]))
	contains(lower(substring(p, count(d), -1)), "agentjail")
}

# protected_file(p): p is, or is inside, something that keeps agentjail
# guarding this machine. The cheap test first: most paths fail it and
# never reach protected_place's many checks.
protected_file(p) if {
	names_guard_place([p])
	protected_place(p)
}

protected_place(p) if claude_settings(p)

protected_place(p) if agent_permission_file(p)

protected_place(p) if {
	some aj in agentjail_homes
	under(p, aj)
}

protected_place(p) if {
	some d in policy_dirs
	under(p, d)
}

protected_place(p) if service_file(p)

protected_place(p) if {
	daemon_socket != ""
	p == daemon_socket
}

# The socket's own folder, when it is not a shared one.
protected_place(p) if {
	daemon_socket != ""
	p == parent_dir(daemon_socket)
	not under(home, p)
	not catastrophic(p)
}

# A glob that would match one of them: rm -rf ~/.agentj*, cp x ~/.cla*/settings.json.
protected_place(p) if {
	plain_glob(p)
	some f in protected_examples
	glob.match(p, ["/"], f)
}

# names_guard_place(paths): one of paths could be, hold or lie inside a
# protected place; a cheap test, built-ins over the paths as one text,
# that holds for every path protected_place accepts and every word
# embedded_places finds (and for a few more). The settings files
# (claude_settings), service folders, the default home and globs show
# by the marks below; a configured home, policy folder or the socket by
# its text; the socket's folder as a start of the socket. A settings
# file named otherwise must get its mark here.
names_guard_place(paths) if regex.match(guard_place_pattern, concat("\n", paths))

# guard_place_pattern: agentjail's own marks, then every agent's folders
# and places (agent_places.rego).
guard_place_pattern := concat("|", [`\.(agentjail|claude|codex|gemini|cursor|copilot|github)|managed-settings|gemini-cli|GeminiCli|Library/Launch|systemd|[*?]`, agent_place_pattern])

names_guard_place(paths) if {
	some place in [object.get(input.agentjail, "agentjail_home", ""), object.get(input.agentjail, "socket", "")]
	place != ""
	contains(concat("\n", paths), place)
}

names_guard_place(paths) if {
	some d in data.config.policy_dirs
	contains(concat("\n", paths), d)
}

names_guard_place(paths) if strings.any_prefix_match(object.get(input.agentjail, "socket", ""), paths)

# call_names_guard_place: some path or static folder the call names
# (unusual_paths are among the paths) could be a protected place. False
# for almost every call; the shell rules start here.
call_names_guard_place if names_guard_place(array.concat(object.get(input.agentjail, "paths", []), object.get(input.agentjail, "prefixes", [])))

# plain_glob(p): p has * or ? and none of the syntax glob.match could
# refuse ([ranges], {alternatives}, escapes), so matching cannot fail.
plain_glob(p) if {
	regex.match(`[*?]`, p)
	not regex.match(`[\[\]{}\\]`, p)
}

protected_examples := {f |
	some f in array.concat(
		array.concat(
			[aj | some aj in agentjail_homes],
			[concat("", [home_slash, substring(e, 2, -1)]) | some e in guard_home_examples],
		),
		array.concat(
			[concat("", [project, "/", p]) | some p in agent_project_places],
			[daemon_socket],
		),
	)
	f != ""
}

# guard_home_examples are the protected places in the home folder,
# written from ~: the examples above, and what the shell parser matches
# every glob against (roles.rego's examples), so that a pattern naming
# one counts as naming it whether or not it is there now.
guard_home_examples := {
	"~/.agentjail", "~/.agentjail/agentjail.sock", "~/.agentjail/config.yaml", "~/.agentjail/policies", "~/.agentjail/bin/agentjail",
	"~/Library/LaunchAgents/dev.agentjail.agent.plist", "~/.config/systemd/user/agentjail.service",
} | {concat("", ["~/", p]) | some p in agent_hook_places_in_home}

# agent_hook_places_in_home are the agents' folders and hook files in
# the home folder (their facts).
agent_hook_places_in_home := agent_folders | agent_hook_files | {".claude/settings.local.json", ".codex/config.toml", ".copilot/settings.json"}

# --- what only reads ---------------------------------------------------

# read_only_programs never change a file they name: they read it, list
# it or print about it. mkdir only creates what is not there.
read_only_programs := {
	"[", "ack", "ag", "b2sum", "basename", "bat", "batcat", "cat", "cd", "cksum", "cmp", "column", "comm",
	"cut", "df", "diff", "dirname", "du", "echo", "egrep", "eza", "exa", "fd", "fgrep", "file", "fold",
	"getfacl", "grep", "gron", "head", "hexdump", "jq", "less", "ls", "lsattr", "lsd", "lsof", "md5",
	"md5sum", "mdls", "mkdir", "more", "nl", "od", "paste", "pgrep", "printf", "ps", "pushd", "pwd",
	"readlink", "realpath", "rev", "rg", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum",
	"shasum", "stat", "strings", "tac", "tail", "test", "tree", "type", "wc", "which",
}

# read_only_unless: programs that only read unless given one of these
# flags (sed -i, find -delete, sort -o, yq -i, fuser -k ...).
read_only_unless := {
	"awk": {"i", "f", "inplace"},
	"find": {"delete", "exec", "execdir", "ok", "okdir", "fprint", "fprint0", "fprintf", "fls"},
	"fuser": {"k", "kill"},
	"gawk": {"i", "f", "inplace"},
	"gsed": {"i", "in-place", "f", "file"},
	"mawk": {"i", "f"},
	"nawk": {"i", "f"},
	"sed": {"i", "in-place", "f", "file"},
	"sort": {"o", "output"},
	"xattr": {"w", "d", "c", "r"},
	"yq": {"i", "inplace"},
}

# read_only_subcommands: programs that only read when run with one of
# these subcommands (git diff, systemctl status, launchctl list ...).
read_only_subcommands := {
	"git": {
		"add", "annotate", "blame", "commit", "cat-file", "check-ignore", "describe", "diff", "diff-files", "diff-index",
		"diff-tree", "grep", "log", "ls-files", "ls-tree", "rev-list", "rev-parse", "shortlog", "show", "status",
		"whatchanged",
	},
	"launchctl": {"blame", "help", "list", "print", "print-disabled"},
	"opa": {"check", "deps", "eval", "inspect", "parse", "test", "version"},
	"systemctl": {
		"cat", "help", "is-active", "is-enabled", "is-failed", "list-dependencies", "list-timers",
		"list-unit-files", "list-units", "show", "status",
	},
}

# Scripts of sed and awk that write files or run commands: sed's w and e
# commands (s///w file, 1w file), awk's print > file, | "cmd", system().
script_writers := {
	"sed": `(^|[;{}/0-9$\s])[wWe](\s|$|;)`,
	"gsed": `(^|[;{}/0-9$\s])[wWe](\s|$|;)`,
	"awk": `[>|]|system\s*\(`,
	"gawk": `[>|]|system\s*\(`,
	"mawk": `[>|]|system\s*\(`,
	"nawk": `[>|]|system\s*\(`,
}

writes_by_script(cmd) if {
	re := script_writers[cmd.name]
	some a in cmd.args
	regex.match(re, a)
}

read_only(cmd) if cmd.name in read_only_programs

read_only(cmd) if {
	flags := read_only_unless[cmd.name]
	not has_flag(cmd, flags)
	not writes_by_script(cmd)
}

read_only(cmd) if {
	subcommand(cmd) in read_only_subcommands[cmd.name]
	not has_flag(cmd, {"output"})
}

read_only(cmd) if {
	cmd.name == "agentjail"
	agentjail_cli_read_only(cmd)
}

# copy_source(cmd, p): cmd copies p somewhere else and only reads it:
# a source operand of cp, rsync, install, scp or ditto, while the
# destination (the last operand) is none of ours. Not when an option
# could change the source or tie the copy to it (a hard or symbolic
# link, rsync --remove-source-files), nor when the destination may not
# be the last word written (-t DIR, install -d, operands from xargs, an
# option's value, a dynamic word or a glob).
copy_source(cmd, p) if {
	copy_reads_sources(cmd)
	p in cmd.paths
	p != cmd.paths[count(cmd.paths) - 1]
}

copy_reads_sources(cmd) if {
	off := copy_programs[cmd.name]
	not has_flag(cmd, off)
	not cmd.dynamic
	not cmd.glob
	not cmd.remote
	not cmd.via in {"xargs", "find -exec"}
	not "xargs" in cmd.wrappers
	count(cmd.paths) >= 2
	count(cmd.paths) == count(cmd.operands) # every path is an operand, in order
	count(object.get(cmd, "prefixes", [])) == 0
	dest := cmd.paths[count(cmd.paths) - 1]
	not protected_file(dest)
	not names_guard_word(dest)
}

# names_guard_word(w): w holds one of agentjail's places in its text.
names_guard_word(w) if {
	some place in guard_places
	contains(w, place)
}

copy_programs := {
	"cp": {"l", "link", "s", "symbolic-link", "t", "target-directory", "remove-destination", "attributes-only"},
	"rsync": {"remove-source-files", "remove-sent-files", "files-from", "include-from", "exclude-from"},
	"install": {"d", "directory", "t", "target-directory"},
	"scp": {"3"},
	"ditto": set(),
}

# --- the rules ---------------------------------------------------------

# command_named(cmd) are the paths a command names: its operands, and
# the folder a dynamic operand starts in (~/.claude/$F).
command_named(cmd) := array.concat(cmd.paths, object.get(cmd, "prefixes", []))

# The shell rules give their messages to shell_protected_file, and this
# one rule lets them speak only when the call names something that could
# be ours: an ordinary call costs one cheap test, not the sets below.
deny contains {"id": "self.protected_file", "msg": msg} if {
	input.agentjail.tool_kind == "shell"
	call_names_guard_place
	some msg in shell_protected_file
}

# guard_named are the protected paths a shell call names, worked out
# once. Only some paths can be protected: the unusual ones (outside the
# project, or hidden in it), the static folders of dynamic words, the
# socket, and (when configured) paths in policy_dirs; so most calls never
# enter protected_file.
guard_named := ((guard_unusual | guard_prefixes) | guard_socket) | guard_policy_dirs

guard_unusual := {p | some p in unusual_paths; protected_file(p)}

guard_prefixes := {p | some p in object.get(derived, "prefixes", []); protected_file(p)}

guard_socket := {p | some p in named_paths & socket_places; protected_file(p)}

socket_places := {daemon_socket, parent_dir(daemon_socket)} if daemon_socket != ""

guard_policy_dirs := {p | count(policy_dirs) > 0; some p in named_paths; some d in policy_dirs; under(p, d)}

shell_protected_file contains msg if {
	count(guard_named) > 0
	some cmd in commands
	not read_only(cmd)
	some p in command_named(cmd)
	p in guard_named
	not copy_source(cmd, p)
	msg := sprintf("Blocked: `%s` on %s could change what keeps agentjail guarding this session (its files, policies, socket or service, or the agent's hook settings); only read-only tools (cat, grep, ls, git diff ...) may touch it. Tell the user what you need changed.", [cmd.name, pretty(p)])
}

# Output redirections: echo x > $AGENTJAIL_HOME/policies/allow.rego,
# > ~/.agentjail/policies/$N.rego.
shell_protected_file contains msg if {
	count(guard_named) > 0
	some cmd in commands
	some r in cmd.redirects
	contains(r.op, ">")
	some p in {r.path, object.get(r, "prefix", "")}
	p in guard_named
	msg := sprintf("Blocked: writing to %s could change what keeps agentjail guarding this session; agents may not. Tell the user what you need changed.", [pretty(p)])
}

# A protected location inside a larger word, where no path is split out:
# socat UNIX-LISTEN:$HOME/.agentjail/agentjail.sock,fork (a fake daemon on
# our socket), --opt:/home/dev/.agentjail/x.
shell_protected_file contains msg if {
	count(embedded_places) > 0
	some cmd in commands
	not read_only(cmd)
	some a in cmd.args
	some place in embedded_places
	contains(a, place)
	not copied_operand(cmd, a)
	msg := sprintf("Blocked: `%s` names %s, which keeps agentjail guarding this session, inside `%s`; agents may not touch it. Tell the user what you need changed.", [cmd.name, pretty(place), a])
}

# copied_operand(cmd, a): a is a source operand of a copy that only
# reads its sources (see copy_source).
copied_operand(cmd, a) if {
	copy_reads_sources(cmd)
	some i, o in cmd.operands
	o == a
	i < count(cmd.operands) - 1
}

guard_places := {p | some p in array.concat([aj | some aj in agentjail_homes], array.concat(policy_dirs, [daemon_socket])); p != ""}

# embedded_places are the guard places some named path contains (every
# operand is also named as a path, so a word holding one shows here).
embedded_places := {place |
	some p in named_paths
	some place in guard_places
	contains(p, place)
}

# Paths that arrive through a pipe: find ~/.agentjail -name '*.rego' | xargs rm.
shell_protected_file contains msg if {
	count(guard_named) > 0
	some cmd in commands
	"xargs" in cmd.wrappers
	not read_only(cmd)
	some other in commands
	other.name in cmd.pipe_from
	some p in command_named(other)
	p in guard_named
	msg := sprintf("Blocked: `%s` would receive %s through a pipe and could change what keeps agentjail guarding this session. Tell the user what you need changed.", [cmd.name, pretty(p)])
}

# File tools writing the service definition, the socket or a policy
# folder (agent settings are judged on the file they leave, see
# self_settings.rego; agentjail's home by self.home_write).
deny contains {"id": "self.protected_file", "msg": msg} if {
	input.agentjail.writes[0]
	not shell_call
	some p in writes
	protected_file(p)
	not claude_settings(p)
	not agent_permission_file(p)
	msg := sprintf("Blocked: %s keeps agentjail guarding this session; agents may not change it. Tell the user what you need changed.", [pretty(p)])
}

# --- interpreters ------------------------------------------------------

# interpreter_code_options: how each interpreter is given code on the
# command line (python3 -c CODE, node -e CODE ...). Code on standard
# input (python3 - <<EOF) counts too.
interpreter_code_options := {
	"bun": {"-e", "--eval", "-p", "--print"},
	"deno": {"eval"},
	"elixir": {"-e"},
	"groovy": {"-e"},
	"julia": {"-e", "--eval"},
	"lua": {"-e"},
	"luajit": {"-e"},
	"node": {"-e", "--eval", "-p", "--print"},
	"nodejs": {"-e", "--eval", "-p", "--print"},
	"osascript": {"-e"},
	"perl": {"-e", "-E"},
	"php": {"-r"},
	"powershell": {"-c", "-command", "-Command"},
	"pwsh": {"-c", "-command", "-Command"},
	"python": {"-c"},
	"python2": {"-c"},
	"python3": {"-c"},
	"pypy": {"-c"},
	"pypy3": {"-c"},
	"R": {"-e"},
	"Rscript": {"-e"},
	"ruby": {"-e"},
	"tclsh": {"-c"},
}

# interpreter_name: python3.12 is python3.
interpreter_name(cmd) := cmd.name if interpreter_code_options[cmd.name]

interpreter_name(cmd) := regex.replace(cmd.name, `\.[0-9]+$`, "") if {
	not interpreter_code_options[cmd.name]
	regex.match(`^(python|pypy)[0-9]*\.[0-9]+$`, cmd.name)
}

# code_strings(cmd) are the code an interpreter runs that the command
# line shows: the value of its code option (also clustered, perl -ne
# CODE, or joined, --eval=CODE), what it reads on stdin (python3 - <<EOF),
# and an awk or sed script that writes or runs something.
code_strings(cmd) := (((code_option_values(cmd) | code_cluster_values(cmd)) | code_joined_values(cmd)) | code_stdin(cmd)) | script_code(cmd)

code_option_values(cmd) := {code |
	opts := interpreter_code_options[interpreter_name(cmd)]
	some i, a in cmd.args
	a in opts
	code := cmd.args[i + 1]
}

code_cluster_values(cmd) := {code |
	opts := interpreter_code_options[interpreter_name(cmd)]
	some i, a in cmd.args
	regex.match(`^-[A-Za-z]{2,}$`, a)
	concat("", ["-", substring(a, count(a) - 1, 1)]) in opts
	code := cmd.args[i + 1]
}

code_joined_values(cmd) := {code |
	opts := interpreter_code_options[interpreter_name(cmd)]
	some a in cmd.args
	[opt, code] := split(a, "=")
	opt in opts
}

code_stdin(cmd) := {r.target |
	interpreter_code_options[interpreter_name(cmd)]
	some r in cmd.redirects
	r.op in {"<<", "<<-", "<<<"}
}

script_code(cmd) := {a |
	re := script_writers[cmd.name]
	some a in cmd.args
	regex.match(re, a)
}

# guard_markers: names in code that point at what keeps agentjail
# running. A marker counts as a path-like token, not glued to the name
# around it: ~/.cursor/mcp.json and ".claude" do, con.cursor() and
# self.claude_client do not. agentjail is a name of its own and counts
# anywhere.
guard_markers := {"managed-settings", "launchagents", "systemd"} | {lower(f) | some f in agent_folders}

guard_marker_token := concat("", [`(^|[^a-z0-9_)\]])(`, concat("|", [replace(m, ".", `\.`) | some m in guard_markers]), `)([^a-z0-9_]|$)`])

code_mentions_guard(code) if contains(lower(code), "agentjail")

code_mentions_guard(code) if regex.match(guard_marker_token, lower(code))

code_mentions_guard(code) if {
	some d in array.concat(policy_dirs, [daemon_socket])
	d != ""
	contains(code, d)
}

deny contains {"id": "self.interpreter", "msg": msg} if {
	"interpreter" in input.agentjail.kinds
	some cmd in commands
	some code in code_strings(cmd)
	code_mentions_guard(code)
	msg := sprintf("Blocked: this %s code points at agentjail's own files, socket, service or the agent's hook settings, and code can change or stop them. Read them with cat or grep instead, or tell the user what you need changed.", [cmd.name])
}

# --- every other tool --------------------------------------------------

# Any call other than a shell command that is not known only to read (the
# agents' read, search, list and fetch tools and MCP tools named with a
# read verb, agent.OnlyReads) may write every place it names, in any
# field: an MCP append_file, copy_file, set_contents, symlink, a tool an
# agent adds tomorrow. input.agentjail.touches lists them. Agent settings
# are judged on the file they would leave (guard_config,
# self_settings.rego), the rest of agentjail's places are refused.
deny contains {"id": "self.protected_file", "msg": msg} if {
	input.agentjail.touches[0]
	names_guard_place(input.agentjail.touches)
	some p in input.agentjail.touches
	protected_file(p)
	not claude_settings(p)
	not agent_permission_file(p)
	msg := sprintf("Blocked: `%s` names %s, which keeps agentjail guarding this session, and is not a tool known only to read; agents may not change it. Read it with a read-only tool, or tell the user what you need changed.", [input.agentjail.tool_name, pretty(p)])
}

# A tool that is not known only to read and whose prose mentions one of
# those places (a thought, a message, a note): a mention is no request to
# change it, but the tool's name says nothing of what it does with its
# text, so a person looks.
ask contains {"id": "self.mentions_guard", "msg": msg} if {
	input.agentjail.touches_prose[0]
	names_guard_place(input.agentjail.touches_prose)
	some p in input.agentjail.touches_prose
	protected_file(p)
	not claude_settings(p) # judged on what the call leaves in them
	not agent_permission_file(p)
	msg := sprintf("`%s` mentions %s, which keeps agentjail guarding this session, in its text; a human should check that the tool leaves it alone.", [input.agentjail.tool_name, pretty(p)])
}

# An input too large or too deep to scan whole for the places it names.
ask contains {"id": "self.touches_unchecked", "msg": msg} if {
	input.agentjail.touches_truncated
	msg := sprintf("`%s` names more places, or nests them deeper, than agentjail scans; a human should check that it leaves agentjail's files and the agent's hook settings alone.", [input.agentjail.tool_name])
}

# apply_patch run as a program whose patch the command line does not
# show (apply_patch "$(cat p)", apply_patch < p, cat p | apply_patch): the
# files it changes cannot be known, agent settings among them. A patch
# the command shows is read like the tool's (input.agentjail.writes).
ask contains {"id": "self.patch_unseen", "msg": msg} if {
	"apply_patch" in input.agentjail.names
	not input.agentjail.writes[0]
	msg := "apply_patch is given a patch that the command line does not show, so agentjail cannot tell which files it changes; a human should check it, or give the patch in the command (apply_patch <<'EOF' ... EOF)."
}
