package agentjail

import rego.v1

ask contains {"id": "team.publish", "msg": "Publishing a package cannot be undone"} if {
	some cmd in input.agentjail.commands
	cmd.name == "npm"
	cmd.operands[0] == "publish"
}
