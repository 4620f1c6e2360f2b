package agentjail

rm_event(cmd) := {"tool_name": "Bash", "tool_input": {"command": cmd}, "agentjail": {"home": "/home/dev"}}

rm_denied(cmd) if {
	some m in deny with input as rm_event(cmd)
	m.id == "fs.rm_recursive_root_or_home"
}

test_rm_rf_home_tilde if rm_denied("rm -rf ~")

test_rm_rf_root if rm_denied("rm -rf /")

test_rm_fr_home_slash if rm_denied("rm -fr ~/")

test_rm_r_dollar_home if rm_denied(`rm -r "$HOME"`)

test_rm_rf_home_path if rm_denied("rm -rf /home/dev")

test_rm_after_semicolon if rm_denied("cd /tmp; rm -rf ~")

test_rm_absolute_binary if rm_denied("/bin/rm --recursive --force /")

test_rm_node_modules_allowed if {
	not rm_denied("rm -rf ./node_modules")
}

test_rm_dist_build_allowed if {
	not rm_denied("rm -rf dist build")
}

test_rm_tmp_allowed if {
	not rm_denied("rm -rf /tmp/x")
}

test_rm_home_file_not_recursive_allowed if {
	not rm_denied("rm ~/notes.txt")
}

test_grep_for_rm_allowed if {
	not rm_denied(`grep -rn "rm -rf" docs/`)
}
