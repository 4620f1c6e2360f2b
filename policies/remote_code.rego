package agentjail

# Downloads piped straight into a shell run code nobody has read.

deny contains {"id": "remote.pipe_download_to_shell", "msg": msg} if {
	input.tool_name == "Bash"
	regex.match(download_to_shell_pattern, input.tool_input.command)
	msg := "Blocked: piping a download straight into a shell runs code nobody has reviewed. Download it to a file, show it to the user, and run it only if they agree."
}

# curl ... | sh, wget -O- ... | sudo bash; or bash <(curl ...), sh -c "$(curl ...)"
download_to_shell_pattern := `\b(curl|wget)\b[^;&|\n]*\|\s*(sudo\s+(-\S+\s+)*)?(\S*/)?(ba|z|k|da|fi)?sh\b|\b(ba|z|k|da)?sh\b[^;&|\n]*(<\(|\$\()\s*(curl|wget)\b`
