package agentjail

# Self-protection, agent permissions: an agent that edits its own
# settings to approve its own tool calls in advance takes the user out of
# the loop, for this session and every later one. As for the hooks
# (self_settings.rego), the daemon judges the file the write would leave
# (internal/agentconfig) and lists in input.agentjail.guard_config what it
# grants that the file did not: each grant with "verdict" deny (every
# command or a whole tool that changes the machine, a mode that approves
# every call, a deny rule removed, the home folder or the root added) or
# ask (one command, one folder, a mode that approves edits). Reading the
# settings, and changing anything else in them, grants nothing. Locked:
# every id starts with "self.".

deny contains {"id": "self.permissions_widened", "msg": msg} if {
	input.agentjail.guard_config[0]
	some g in input.agentjail.guard_config
	some grant in object.get(g, "grants", [])
	grant.verdict == "deny"
	msg := sprintf("Blocked: this change to %s would %s, so the agent would act without the user's approval. Ask the user to change the agent's permissions themselves.", [pretty(g.path), grant.grant])
}

ask contains {"id": "self.permissions_granted", "msg": msg} if {
	input.agentjail.guard_config[0]
	some g in input.agentjail.guard_config
	some grant in object.get(g, "grants", [])
	grant.verdict == "ask"
	msg := sprintf("This change to %s would %s: the agent grants itself a permission, which the user has to approve.", [pretty(g.path), grant.grant])
}

# The same settings changed through Claude Code's own command: `claude
# config add allowedTools "Bash(*)"`, `claude config set defaultMode
# bypassPermissions`. The rule text is judged as internal/agentconfig
# judges it in a file: a wildcard, a whole tool that changes the machine,
# a command that runs any other, or a mode that approves every call is
# denied; any other permission asks.
claude_config_grants contains [wide, v] if {
	"claude" in input.agentjail.names
	some cmd in commands
	cmd.name == "claude"
	ops := [o | some o in cmd.operands]
	count(ops) >= 3
	ops[0] == "config"
	ops[1] in {"set", "add"}
	regex.match(`(?i)^(permissions\.)?(allow|allowedTools|defaultMode|additionalDirectories)$`, ops[2])
	some v in array.slice(ops, 3, count(ops))
	wide := wide_rule_text(v)
}

wide_rule_text(v) := true if regex.match(wide_rule_pattern, v)

wide_rule_text(v) := false if not regex.match(wide_rule_pattern, v)

wide_rule_pattern := `^\s*(\*|bypassPermissions|[A-Za-z_]*\*.*|mcp__\*.*|(Bash|Write|Edit|MultiEdit|NotebookEdit|WebFetch|Task|Agent)\s*(\(\s*[*:/~.\s]*\s*\))?|Bash\(\s*(sh|bash|zsh|env|sudo|xargs|eval|exec|python[0-9.]*|node|perl|ruby|npx|bunx|uvx)\b.*\)|~/?|/)\s*$`

deny contains {"id": "self.permissions_widened", "msg": msg} if {
	"claude" in input.agentjail.names
	some [true, v] in claude_config_grants
	msg := sprintf("Blocked: `claude config` with %s would approve a whole tool, every command or every call in advance, so the agent would act without the user's approval. Ask the user to change the agent's permissions themselves.", [v])
}

ask contains {"id": "self.permissions_granted", "msg": msg} if {
	"claude" in input.agentjail.names
	some [false, v] in claude_config_grants
	msg := sprintf("`claude config` with %s changes the agent's permissions: the agent grants itself a permission, which the user has to approve.", [v])
}

# Cursor's files of tool permissions (agentconfig.CursorPermissions): file
# tools' writes are judged on the result above; shell commands may not
# write them (self_files.rego), as for the agents' hook settings.
agent_permission_file(p) if {
	base_name(p) in {"cli-config.json", "cli.json", "permissions.json"}
	base_name(parent_dir(p)) == ".cursor"
}
