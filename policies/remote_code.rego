package agentjail

# Downloads piped straight into a shell run code nobody has read.

deny contains {"id": "remote.pipe_download_to_shell", "msg": msg} if {
	input.tool_name == "Bash"
	some pattern in download_to_shell_patterns
	regex.match(pattern, input.tool_input.command)
	msg := "Blocked: piping a download straight into a shell runs code nobody has reviewed. Download it to a file, show it to the user, and run it only if they agree."
}

download_to_shell_patterns := [
	# curl ... | sh, wget -O- ... | sudo bash
	`\b(curl|wget)\b[^;&|\n]*\|\s*(sudo\s+(-\S+\s+)*)?(\S*/)?(ba|z|k|da|fi)?sh\b`,
	# bash <(curl ...), sh -c "$(curl ...)"
	`\b(ba|z|k|da)?sh\b[^;&|\n]*(<\(|\$\()\s*(curl|wget)\b`,
]
