package agentjail

# Self-protection: an agent may not switch agentjail off. These rules are
# locked: config.yaml cannot disable them (every id starts with "self.").

# claude_settings(p): p holds an agent's hook settings. A file of a new
# name needs its mark in names_guard_place too (self_files.rego).
claude_settings(p) if {
	base_name(p) in {"settings.json", "settings.local.json"}
	base_name(parent_dir(p)) == ".claude"
}

claude_settings(p) if p in {
	"/etc/claude-code/managed-settings.json",
	"/Library/Application Support/ClaudeCode/managed-settings.json",
}

# The hook configuration of the other agents agentjail guards, the
# user's and every project's (as agentconfig.Agent): Codex's hooks.json
# and config.toml (which holds the hooks' trust), Gemini CLI's
# settings.json, Cursor's hooks.json, Copilot CLI's hook files.
claude_settings(p) if {
	base_name(p) in {"config.toml", "hooks.json"}
	base_name(parent_dir(p)) == ".codex"
}

claude_settings(p) if {
	base_name(p) == "settings.json"
	base_name(parent_dir(p)) == ".gemini"
}

claude_settings(p) if p in {"/etc/gemini-cli/settings.json", "/Library/Application Support/GeminiCli/settings.json"}

claude_settings(p) if {
	base_name(p) == "hooks.json"
	base_name(parent_dir(p)) == ".cursor"
}

claude_settings(p) if home_rel(p) == ".copilot/config.json"

claude_settings(p) if {
	endswith(p, ".json")
	base_name(parent_dir(p)) == "hooks"
	base_name(parent_dir(parent_dir(p))) in {".copilot", ".github"}
}

# Writing a whole settings folder (rsync dir/ ~/.claude/) replaces them too.
claude_settings(p) if base_name(p) in {".claude", ".codex", ".cursor", ".gemini", ".copilot"}

# Every agent's hook files from its facts (agent_places.rego): the file a
# user's install writes and the project's, wherever the home or the
# project is; a folder of its own; anything in its machine-wide places.
claude_settings(p) if {
	some place in agent_hook_places
	endswith(p, concat("", ["/", place]))
}

claude_settings(p) if {
	home_rel(p) in agent_folders
}

claude_settings(p) if {
	some m in agent_machine_places
	startswith(p, concat("", [m, "/"]))
}

# Any file in a folder every file of which is a hook (~/.cline/hooks/x).
claude_settings(p) if {
	some d in agent_hook_folders
	contains(p, concat("", ["/", d, "/"]))
}

agent_hook_places := agent_hook_files | agent_project_places

claude_settings(p) if {
	base_name(p) == "hooks"
	base_name(parent_dir(p)) in {".copilot", ".github"}
}

deny contains {"id": "self.settings_shell_write", "msg": msg} if {
	input.agentjail.tool_kind == "shell" # first: OPA's rule index then skips every Edit and Write
	input.agentjail.writes[0]
	some p in writes
	claude_settings(p)
	msg := sprintf("Blocked: %s holds the agent's hooks, including agentjail's; shell commands may not change it. Use the Edit tool for other settings, and leave the agentjail hook in place.", [pretty(p)])
}

# agentjail's own files: policies, config, binaries, socket, logs.
deny contains {"id": "self.home_write", "msg": msg} if {
	input.agentjail.unusual == true # agentjail_paths are unusual
	input.agentjail.writes[0]
	some p in writes
	p in agentjail_paths
	msg := sprintf("Blocked: %s belongs to agentjail (policies, config, binaries); agents may not change it. Tell the user what to change.", [pretty(p)])
}

# agentjail_paths are the paths of the call inside agentjail's homes.
agentjail_paths := {p | some p in unusual_paths; some aj in agentjail_homes; under(p, aj)}

# A shell command naming these files: see self_files.rego.

# The agentjail command: reading state is fine, changing it is the user's.
agentjail_read_only := {"status", "try", "logs", "version", "help", "completion"}

deny contains {"id": "self.cli", "msg": msg} if {
	"agentjail" in input.agentjail.names
	some cmd in commands
	cmd.name == "agentjail"
	count(cmd.operands) > 0
	not agentjail_cli_allowed(cmd)
	not approval_words(cmd.operands) # self.approve says why
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
	not approval_words(cmd.operands) # self.approve says why
	msg := "Blocked: this runs the agentjail command to change how agentjail guards this machine; only the user may do that."
}

agentjail_cli_read_only(cmd) if cmd.operands[0] in agentjail_read_only

# grants alone lists the grants in force; grants revoke removes them
# (self.approve).
agentjail_cli_read_only(cmd) if {
	cmd.operands[0] == "grants"
	count(cmd.operands) == 1
}

# install --dry-run and uninstall --dry-run print what they would change
# and change nothing (the roles table marks the flag).
agentjail_cli_read_only(cmd) if cmd.dry_run

agentjail_cli_read_only(cmd) if {
	cmd.operands[0] == "policy"
	cmd.operands[1] == "test"
}

# agentjail_cli_allowed: what an agent may run besides reading. policy
# export writes the pack's files into a new or empty folder agentjail
# does not load (it refuses any other); being no reader, its folder is
# judged as any written path is (self_files.rego).
agentjail_cli_allowed(cmd) if agentjail_cli_read_only(cmd)

agentjail_cli_allowed(cmd) if {
	cmd.operands[0] == "policy"
	cmd.operands[1] == "export"
}

# Stopping the daemon: see self_stop.rego.
