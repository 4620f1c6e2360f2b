package agentjail

# A command agentjail cannot parse might hide anything: ask the user
# rather than allow it unseen.

ask contains {"id": "shell.unparsed", "msg": msg} if {
	input.agentjail.tool_kind == "shell"
	err := input.agentjail.parse_error
	msg := sprintf("agentjail could not check this command (%s), so the user has to approve it. Simpler commands (no unusual syntax, one step at a time) can be checked.", [err])
}
