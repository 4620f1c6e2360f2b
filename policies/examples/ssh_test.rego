package agentjail_test

import rego.v1

import data.agentjail

test_ssh_denied if {
	"Blocked: command targets sensitive path ~/.ssh/" in agentjail.deny with input as {"tool_name": "Bash", "tool_input": {"command": "cat ~/.ssh/id_rsa"}}
}
