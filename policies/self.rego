package agentjail

# Self-protection: an agent may not switch agentjail off. These rules are
# locked: config.yaml cannot disable them (every id starts with "self.").

claude_settings(p) if {
	base_name(p) in {"settings.json", "settings.local.json"}
	base_name(parent_dir(p)) == ".claude"
}

claude_settings(p) if p in {
	"/etc/claude-code/managed-settings.json",
	"/Library/Application Support/ClaudeCode/managed-settings.json",
}

# The hook configuration of the other agents agentjail guards.
claude_settings(p) if home_rel(p) in {".codex/config.toml", ".gemini/settings.json", ".cursor/hooks.json", ".copilot/config.json"}

# Writing a whole settings folder (rsync dir/ ~/.claude/) replaces them too.
claude_settings(p) if base_name(p) in {".claude", ".codex", ".cursor", ".gemini"}

deny contains {"id": "self.settings_shell_write", "msg": msg} if {
	input.agentjail.writes[0]
	some p in writes
	claude_settings(p)
	input.tool_name == "Bash"
	msg := sprintf("Blocked: %s holds the agent's hooks, including agentjail's; shell commands may not change it. Use the Edit tool for other settings, and leave the agentjail hook in place.", [pretty(p)])
}

# agentjail's own files: policies, config, binaries, socket, logs.
deny contains {"id": "self.home_write", "msg": msg} if {
	input.agentjail.writes[0]
	some p in writes
	p in agentjail_paths
	msg := sprintf("Blocked: %s belongs to agentjail (policies, config, binaries); agents may not change it. Tell the user what to change.", [pretty(p)])
}

read_only_tools := {"cat", "less", "more", "head", "tail", "ls", "stat", "grep", "egrep", "fgrep", "rg", "wc", "file", "diff", "jq", "yq", "tree", "du", "cd", "echo", "sha256sum", "shasum", "md5sum", "test", "["}

# agentjail_paths are the paths of the call inside agentjail's homes.
agentjail_paths := {p | some p in unusual_paths; some aj in agentjail_homes; under(p, aj)}

deny contains {"id": "self.home_write", "msg": msg} if {
	input.agentjail.unusual_paths[0]
	count(agentjail_paths) > 0
	some cmd in commands
	not cmd.name in read_only_tools
	some p in cmd.paths
	p in agentjail_paths
	msg := sprintf("Blocked: `%s` on %s could change agentjail's own files; only reading them is allowed.", [cmd.name, pretty(p)])
}

# The agentjail command: reading state is fine, changing it is the user's.
agentjail_read_only := {"status", "try", "logs", "version", "help", "completion"}

deny contains {"id": "self.cli", "msg": msg} if {
	"agentjail" in input.agentjail.names
	some cmd in commands
	cmd.name == "agentjail"
	count(cmd.operands) > 0
	not agentjail_cli_read_only(cmd)
	msg := sprintf("Blocked: `agentjail %s` changes how agentjail guards this machine; only the user may run it. `agentjail status`, `try` and `logs` are fine.", [concat(" ", cmd.operands)])
}

# $(which agentjail) mcp allow x: the program is agentjail, found at run time.
deny contains {"id": "self.cli", "msg": msg} if {
	"lookup" in input.agentjail.kinds
	some cmd in commands
	dynamic_program(cmd)
	some other in commands
	other.name in {"which", "command", "type", "realpath", "readlink", "find"}
	other.name in cmd.subst
	mentions_agentjail(other)
	not agentjail_cli_read_only(cmd)
	msg := "Blocked: this runs the agentjail command to change how agentjail guards this machine; only the user may do that."
}

agentjail_cli_read_only(cmd) if cmd.operands[0] in agentjail_read_only

agentjail_cli_read_only(cmd) if {
	cmd.operands[0] == "policy"
	cmd.operands[1] == "test"
}

# Stopping the daemon.
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

stops_agentjail(cmd) if {
	cmd.name in {"pkill", "killall", "kill", "skill", "slay"}
	mentions_agentjail(cmd)
}

# kill $(pgrep -f agentjail), kill `pidof agentjail`
stops_agentjail(cmd) if {
	cmd.name == "kill"
	some other in commands
	other.name in {"pgrep", "pidof", "lsof", "ps", "cat"}
	other.name in cmd.subst
	mentions_agentjail(other)
}

stops_agentjail(cmd) if {
	cmd.name == "kill"
	pid := sprintf("%d", [derived.daemon_pid])
	pid in cmd.operands
}

stops_agentjail(cmd) if {
	cmd.name == "launchctl"
	subcommand(cmd) in {"bootout", "unload", "remove", "disable", "kill", "stop"}
	mentions_agentjail(cmd)
}

stops_agentjail(cmd) if {
	cmd.name in {"systemctl", "service"}
	some op in cmd.operands
	op in {"stop", "disable", "kill", "mask", "restart", "try-restart", "reload-or-restart", "revert"}
	mentions_agentjail(cmd)
}
