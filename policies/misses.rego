package agentjail

# Smaller classes the measurements found thin: the clipboard read in a
# loop (a clipboard logger), a cluster's API or pods exposed on every
# interface, and this machine registered as a CI runner.

# --- clipboard logger (ATT&CK T1115) -------------------------------------

# clipboard_readers: programs that print the clipboard, and the words
# that make a reader of one that can also write it (xclip -o).
clipboard_readers := {
	"pbpaste": set(), "wl-paste": set(), "termux-clipboard-get": set(), "gpaste-client": set(),
	"xclip": {"-o", "-out"}, "xsel": {"-o", "--output", "-b", "--clipboard", "-p", "--primary"},
}

# A clipboard read over and over, into a file or another program: what the
# user copies (passwords from a manager, tokens) is collected as they copy
# it. A single read is everyday.
ask contains {"id": "collection.clipboard_loop", "msg": msg} if {
	input.agentjail.repeats
	some cmd in commands
	words := clipboard_readers[cmd.name]
	cmd.repeats != ""
	reads_clipboard(cmd, words)
	clipboard_kept(cmd)
	msg := sprintf("`%s` reads the clipboard in a loop and keeps what it finds: whatever the user copies (passwords, tokens) would be collected. Read it once, when the user asks.", [full_text(cmd)])
}

reads_clipboard(_, words) if count(words) == 0

reads_clipboard(cmd, words) if {
	some a in cmd.args
	a in words
	not some_clipboard_input(cmd)
}

some_clipboard_input(cmd) if {
	some a in cmd.args
	a in {"-i", "-in", "--input", "-a", "--append"}
}

clipboard_kept(cmd) if {
	some r in cmd.redirects
	contains(r.op, ">")
	r.path != "/dev/null"
}

clipboard_kept(cmd) if {
	some other in commands
	cmd.name in other.pipe_from
}

# --- cluster access exposed (ATT&CK T1133, T1572) -------------------------

program_group contains ["kubectl", "tunnel"]

# kubectl proxy and port-forward listen on 127.0.0.1 unless told
# otherwise; on every interface, anyone who reaches this machine reaches
# the cluster's API (with the user's credentials) or the pod.
exposes_port(cmd) if {
	cmd.name == "kubectl"
	"--address" in cmd.args
	positional(cmd)[0] in {"proxy", "port-forward"}
	some v in option_values(cmd, {"--address"})
	some a in split(v, ",")
	not a in {"localhost", "127.0.0.1", "::1"}
}

exposes_port(cmd) if {
	cmd.name == "kubectl"
	some a in cmd.args
	startswith(a, "--address=")
	positional(cmd)[0] in {"proxy", "port-forward"}
	some v in split(substring(a, 10, -1), ",")
	not v in {"localhost", "127.0.0.1", "::1"}
}

# --- this machine registered as a CI runner (ATT&CK T1072) ---------------

# A self-hosted runner runs whatever workflow anyone who can push to the
# repository writes, on this machine, with the user's files in reach.
program_group contains [prog, "ci_runner"] if some prog in {"config.sh", "config.cmd", "gitlab-runner", "gitlab-ci-multi-runner"}

ask contains {"id": "ci.runner_register", "msg": msg} if {
	"ci_runner" in input.agentjail.kinds
	some cmd in commands
	runner_registration(cmd)
	msg := sprintf("`%s` registers this machine as a CI runner: every workflow of that repository would then run here, with this user's files and credentials in reach. The user has to approve it.", [full_text(cmd)])
}

runner_registration(cmd) if {
	cmd.name in {"config.sh", "config.cmd"}
	"--url" in cmd.args
	some a in cmd.args
	a in {"--token", "--pat"}
}

runner_registration(cmd) if {
	cmd.name in {"gitlab-runner", "gitlab-ci-multi-runner"}
	positional(cmd)[0] == "register"
}

# --- history switched off by a declaration (ATT&CK T1070.003) ------------

# export/declare/typeset/readonly/local are commands whose assigns are
# the variables they set (internal/shell), so a value worked out from
# other variables (N=0; export HISTSIZE=$N) is judged as it will be.
declaration_builtins := {"export", "declare", "typeset", "readonly", "local"}

program_group contains [prog, "shell_history"] if some prog in declaration_builtins

hides_history(cmd) if {
	cmd.name in declaration_builtins
	some k, v in cmd.assigns
	regex.match(`^HIST(FILE|SIZE|FILESIZE)$`, k)
	v in {"", "0", "/dev/null"}
}

# --- AppleScript from a file (ATT&CK T1059.002) -------------------------

# osascript FILE runs a script agentjail does not read: a compiled one
# (.scpt, .scptd, an applet) cannot be read at all, and one in a temp or
# hidden folder was not part of the project. Judged like `osascript -e`
# with code that cannot be seen: the user approves it. A text script of
# the project (./scripts/notify.applescript) is the project's own code.
ask contains {"id": "macos.applescript_file", "msg": msg} if {
	"interpreter" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "osascript"
	not "-e" in cmd.args
	some p in cmd.paths
	p == cmd.paths[0]
	unseen_script(p)
	msg := sprintf("`%s` runs an AppleScript agentjail cannot read (compiled, or from outside the project); it can drive other apps and run shell commands outside agentjail's check. The user has to approve it, or run it with -e so its code is seen.", [full_text(cmd)])
}

unseen_script(p) if regex.match(`\.(scpt|scptd|app)/?$`, p)

unseen_script(p) if in_temp(p)

unseen_script(p) if regex.match(`/\.[^/]+/`, p)

unseen_script(p) if not in_project(p)
