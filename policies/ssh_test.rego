package agentjail

test_ssh_rm_denied if {
	some m in deny with input as {"tool_name": "Bash", "tool_input": {"command": "rm -rf ~/.ssh/"}}
	m.id == "ssh.command_touches_ssh"
}

test_ssh_cat_key_denied if {
	some m in deny with input as {"tool_name": "Bash", "tool_input": {"command": "cat ~/.ssh/id_rsa"}}
	m.id == "ssh.command_touches_ssh"
}

test_ssh_ls_src_allowed if {
	count(deny) == 0 with input as {"tool_name": "Bash", "tool_input": {"command": "ls ./src"}}
}

test_ssh_other_tool_not_matched if {
	ids := {m.id | some m in deny} with input as {"tool_name": "Write", "tool_input": {"file_path": "/tmp/notes.md", "content": "see /.ssh/"}}
	not "ssh.command_touches_ssh" in ids
}
