package agentjail

deny[msg] {
	input.tool_name == "Bash"
	contains(input.tool_input.command, "/.ssh/")
	msg := "Blocked: command targets sensitive path ~/.ssh/"
}
