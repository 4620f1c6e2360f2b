package agentjail_test

import rego.v1

import data.agentjail

ids := {m.id | some m in agentjail.ask}

test_publish_asks if {
	"team.publish" in ids with input as {"tool_name": "Bash", "tool_input": {"command": "cd web && sudo npm publish"}}
}

test_install_does_not_ask if {
	not "team.publish" in ids with input as {"tool_name": "Bash", "tool_input": {"command": "npm install"}}
}
