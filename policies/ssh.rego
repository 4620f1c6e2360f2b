package agentjail

# The seed rule: any shell command that names a path inside an .ssh folder.
deny contains {"id": "ssh.command_touches_ssh", "msg": msg} if {
	input.tool_name == "Bash"
	contains(input.tool_input.command, "/.ssh/")
	msg := "Blocked: command targets sensitive path ~/.ssh/"
}
