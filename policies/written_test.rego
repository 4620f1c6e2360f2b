package agentjail

# written.rego: the MCP servers a project file adds.

t_mcp_file(commands, keys) := object.union(t_tool("Write", {"file_path": "/home/dev/project/.mcp.json", "content": "{}"}, ["/home/dev/project/.mcp.json"]), {"agentjail": {"written": [{
	"path": "/home/dev/project/.mcp.json", "kind": "mcp_config", "commands": commands, "text": [], "auto": false, "new": true,
	"added": [{"label": "mcp_server", "key": k, "value": ""} | some k in keys], "problem": "", "contained": false, "rules": [], "truncated": false,
}]}})

test_project_script_server_allowed if not t_fired("written.mcp_server", t_mcp_file(["node tools/db.js"], ["mcpServers/db"]))

test_outside_script_server_asked if t_asked("written.mcp_server", t_mcp_file(["node /tmp/x/db.js"], ["mcpServers/db"]))

test_url_server_beside_script_asked if t_asked("written.mcp_server", t_mcp_file(["node tools/db.js"], ["mcpServers/db", "mcpServers/remote"]))
