package agentjail

# Nested agents started with their own approvals switched off (OWASP LLM06,
# excessive agency): an agent run from the agent's seat that approves its
# own tool calls. agentjail's hook may still run inside it, but its asks
# are then answered by nobody (a headless run turns them into denies or,
# for some agents, approves them) and a sandbox may be off with them, so a
# human confirms the launch. self_settings.rego denies the launches that
# switch agentjail's hook itself off (claude --bare ...).

# approval_switches: for each agent's program, the words that start it
# without approvals. flags are whole words (or the word before `=`);
# values are options whose value (next word or after `=`) matches the
# pattern; env are variables whose value (matching the pattern) does the
# same when set for the command. Users add agents in
# data.agentjail.approval_switches_extra.
approval_switches := object.union(approval_switches_pack, {k: v | some k, v in data.agentjail.approval_switches_extra})

approval_switches_pack := {
	"claude": {
		"flags": {"--dangerously-skip-permissions", "--allow-dangerously-skip-permissions"},
		"values": {"--permission-mode": `^bypassPermissions$`},
	},
	"codex": {
		"flags": {"--dangerously-bypass-approvals-and-sandbox", "--yolo", "--full-auto"},
		"values": {
			"-s": `^danger-full-access$`, "--sandbox": `^danger-full-access$`,
			"-a": `^never$`, "--ask-for-approval": `^never$`,
			"-c": `^\s*(approval_policy\s*=\s*"?never"?|sandbox_mode\s*=\s*"?danger-full-access"?)\s*$`,
			"--config": `^\s*(approval_policy\s*=\s*"?never"?|sandbox_mode\s*=\s*"?danger-full-access"?)\s*$`,
		},
	},
	"gemini": {"flags": {"--yolo", "-y"}, "values": {"--approval-mode": `^yolo$`}},
	"qwen": {"flags": {"--yolo", "-y"}, "values": {"--approval-mode": `^yolo$`}},
	"copilot": {"flags": {"--allow-all-tools", "--allow-all", "--yolo"}},
	"cursor-agent": {"flags": {"--force", "-f"}},
	"aider": {"flags": {"--yes-always"}, "env": {"AIDER_YES_ALWAYS": `^(?i)(1|true|yes|on)$`}},
	"amp": {"flags": {"--dangerously-allow-all"}},
	"goose": {"env": {"GOOSE_MODE": `^auto$`}},
}

# agent_packages: the registry packages runners start these agents from
# (npx @openai/codex, uvx --from aider-chat aider).
agent_packages := {
	"@anthropic-ai/claude-code": "claude", "@openai/codex": "codex", "@google/gemini-cli": "gemini",
	"@qwen-code/qwen-code": "qwen", "@github/copilot": "copilot", "@sourcegraph/amp": "amp",
	"opencode-ai": "opencode", "aider-chat": "aider", "aider-install": "aider",
}

agent_runners := {"npx", "bunx", "pnpx", "uvx", "pipx"}

program_group contains [prog, "agent_config"] if some prog, _ in approval_switches

program_group contains [prog, "agent_config"] if some prog in agent_runners

# agent_launches: [program, arguments, assigns] of every agent the call
# starts, by name or through a runner and its package.
agent_launches contains [cmd.name, cmd.args, cmd.assigns] if {
	some cmd in commands
	approval_switches[cmd.name]
}

agent_launches contains [prog, array.slice(cmd.args, i + 1, count(cmd.args)), cmd.assigns] if {
	some cmd in commands
	cmd.name in agent_runners
	some i, a in cmd.args
	prog := agent_packages[package_name(a)]
}

ask contains {"id": "agents.approvals_off", "msg": msg} if {
	"agent_config" in input.agentjail.kinds
	some [prog, args, assigns] in agent_launches
	switch := approval_off(prog, args, assigns)
	msg := sprintf("This starts %s with its approvals switched off (%s): it would run every command and edit it chooses without anyone confirming them; the user has to approve the launch (or run it without that switch).", [prog, switch])
}

approval_off(prog, args, _) := a if {
	some a in args
	split(a, "=")[0] in approval_switches[prog].flags
}

approval_off(prog, args, _) := concat(" ", [opt, v]) if {
	some i, opt in args
	pattern := approval_switches[prog].values[opt]
	v := args[i + 1]
	regex.match(pattern, v)
}

approval_off(prog, args, _) := a if {
	some a in args
	[opt, v] := split_once(a, "=")
	pattern := approval_switches[prog].values[opt]
	regex.match(pattern, v)
}

approval_off(prog, _, assigns) := sprintf("%s=%s", [k, assigns[k]]) if {
	some k, pattern in approval_switches[prog].env
	regex.match(pattern, assigns[k])
}

split_once(s, sep) := [substring(s, 0, i), substring(s, i + count(sep), -1)] if {
	i := indexof(s, sep)
	i > 0
}
