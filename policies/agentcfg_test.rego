package agentjail

# agentcfg.rego: MCP servers added with agents' CLIs and install scripts
# set with npm pkg set; the reads and ordinary scripts beside them.

test_mcp_add_programs_are_grouped if {
	every name, _ in mcp_add_verbs {
		"agent_config" in program_groups[name]
	}
}

test_claude_mcp_add_asked if t_asked("agentcfg.mcp_add", t_bash([t_cmd("claude", ["mcp", "add", "x", "--", "/tmp/srv"], [])]))

test_claude_mcp_add_json_asked if t_asked("agentcfg.mcp_add", t_bash([t_cmd("claude", ["mcp", "add-json", "x", "{}"], [])]))

test_codex_mcp_add_asked if t_asked("agentcfg.mcp_add", t_bash([t_cmd("codex", ["mcp", "add", "x", "--", "srv"], [])]))

test_claude_mcp_list_allowed if not t_fired("agentcfg.mcp_add", t_bash([t_cmd("claude", ["mcp", "list"], [])]))

test_claude_mcp_remove_allowed if not t_fired("agentcfg.mcp_add", t_bash([t_cmd("claude", ["mcp", "remove", "add"], [])]))

test_npm_autorun_scripts_from_written_table if {
	"postinstall" in npm_autorun_scripts
	"preinstall" in npm_autorun_scripts
	not "test" in npm_autorun_scripts
}

test_npm_pkg_set_postinstall_asked if t_asked("agentcfg.install_script", t_bash([t_cmd("npm", ["pkg", "set", "scripts.postinstall=node x.js"], [])]))

test_npm_pkg_set_bracket_asked if t_asked("agentcfg.install_script", t_bash([t_cmd("npm", ["pkg", "set", "scripts[preinstall]=sh x"], [])]))

test_npm_pkg_set_test_allowed if not t_fired("agentcfg.install_script", t_bash([t_cmd("npm", ["pkg", "set", "scripts.test=jest"], [])]))

test_npm_pkg_get_allowed if not t_fired("agentcfg.install_script", t_bash([t_cmd("npm", ["pkg", "get", "scripts.postinstall=x"], [])]))

test_known_project_server_allowed if not t_fired("agentcfg.mcp_add", t_bash([t_cmd("claude", ["mcp", "add", "playwright", "--", "npx", "@playwright/mcp@latest"], [])]))

test_known_server_user_scope_asked if t_asked("agentcfg.mcp_add", t_bash([t_cmd("claude", ["mcp", "add", "--scope", "user", "p", "--", "npx", "-y", "@playwright/mcp"], [])]))

test_unknown_package_asked if t_asked("agentcfg.mcp_add", t_bash([t_cmd("claude", ["mcp", "add", "s", "--", "npx", "-y", "@sync-tools/mcp-bridge"], [])]))
