package agentjail

# Agent configuration changed through a program's own command line rather
# than by writing the file: a new MCP server added with an agent's CLI,
# an install script set with `npm pkg set`. What a written file adds is
# judged in written.rego (and, for shell writes whose content the command
# line holds, by the daemon on the file they leave); these are the same
# changes made by a subcommand.

# The subcommands of agents' CLIs that add an MCP server, a program every
# later session of the agent starts (its command runs outside any tool
# call, so nothing judges it then).
mcp_add_verbs := {
	"claude": {"add", "add-json", "add-from-claude-desktop"},
	"codex": {"add"},
	"gemini": {"add"},
	"qwen": {"add"},
	"amp": {"add"},
	"opencode": {"add"},
	"cursor-agent": {"add"},
	"copilot": {"add"},
}

program_group contains [prog, "agent_config"] if some prog, _ in mcp_add_verbs

program_group contains [prog, "agent_config"] if some prog in {"npm", "pnpm", "bun"}

ask contains {"id": "agentcfg.mcp_add", "msg": msg} if {
	"agent_config" in input.agentjail.kinds
	some cmd in commands
	verbs := mcp_add_verbs[cmd.name]
	some i, a in cmd.args
	a == "mcp"
	cmd.args[i + 1] in verbs
	not known_project_server(cmd)
	msg := sprintf("`%s mcp %s` adds an MCP server, a program every later %s session starts and whose tools it calls; the user has to approve it (or add it themselves).", [cmd.name, cmd.args[i + 1], cmd.name])
}

# The package scripts a package manager runs by itself (on install,
# prepare, uninstall), read from the npm_manifest row of written.rego so
# the list is kept in one place.
npm_autorun_scripts := {substring(w.key, 8, -1) |
	some r in written_files_pack
	r.kind == "npm_manifest"
	some w in r.watch
	w.label == "autorun"
	startswith(w.key, "scripts/")
}

ask contains {"id": "agentcfg.install_script", "msg": msg} if {
	"agent_config" in input.agentjail.kinds
	some cmd in commands
	"pkg" in cmd.args
	some i, a in cmd.args
	a == "pkg"
	cmd.args[i + 1] == "set"
	some kv in array.slice(cmd.args, i + 2, count(cmd.args))
	name := npm_script_set(kv)
	name in npm_autorun_scripts
	not known_install_script("npm_manifest", {"key": concat("/", ["scripts", name]), "value": substring(kv, indexof(kv, "=") + 1, -1)})
	msg := sprintf("`%s pkg set scripts.%s=…` makes package.json run a command by itself on every install; the user has to approve it.", [cmd.name, name])
}

# npm_script_set is the script a `scripts.NAME=VALUE` (or
# `scripts[NAME]=VALUE`) word of `npm pkg set` names.
npm_script_set(kv) := name if {
	m := regex.find_all_string_submatch_n(`^scripts(?:\.([A-Za-z0-9:_-]+)|\[["']?([A-Za-z0-9:_-]+)["']?\])=`, kv, 1)
	name := concat("", array.slice(m[0], 1, 3))
}

# MCP servers published by the makers of the tools they drive, run from
# their registry package: added for the project alone (not --scope user),
# they are everyday setup. Users extend it with known_mcp_packages_extra.
known_mcp_packages := {
	"@playwright/mcp", "@modelcontextprotocol/server-filesystem", "@modelcontextprotocol/server-github",
	"@modelcontextprotocol/server-memory", "@modelcontextprotocol/server-sequential-thinking",
	"@modelcontextprotocol/server-everything", "@modelcontextprotocol/server-puppeteer",
	"@upstash/context7-mcp", "chrome-devtools-mcp", "@sentry/mcp-server", "@stripe/mcp",
	"@supabase/mcp-server-supabase", "@notionhq/notion-mcp-server", "mcp-server-git", "mcp-server-fetch", "mcp-server-time",
} | {p | some p in data.agentjail.known_mcp_packages_extra}

known_project_server(cmd) if {
	not some_user_scope(cmd)
	some i, a in cmd.args
	a == "--"
	launcher := cmd.args[i + 1]
	launcher in {"npx", "bunx", "pnpx", "uvx"}
	rest := [w | some w in array.slice(cmd.args, i + 2, count(cmd.args)); not startswith(w, "-")]
	package_name(rest[0]) in known_mcp_packages
}

some_user_scope(cmd) if {
	some i, a in cmd.args
	a in {"--scope", "-s"}
	cmd.args[i + 1] == "user"
}

some_user_scope(cmd) if "--scope=user" in cmd.args

# package_name drops a version: @scope/name@1.2 and name@latest.
package_name(spec) := name if {
	startswith(spec, "@")
	parts := split(substring(spec, 1, -1), "@")
	name := concat("", ["@", parts[0]])
}

package_name(spec) := split(spec, "@")[0] if not startswith(spec, "@")

# project_own_servers(f): a project's MCP file whose new servers all run
# the project's own code (an interpreter and a script inside the
# project): the project's own tooling, judged when its script is
# written. Servers added for the whole user (~/.claude.json), packages
# from a registry and anything else stay asked.
project_own_servers(f) if {
	in_project(f.path)
	count(f.commands) > 0
	count([a | some a in f.added; a.label == "mcp_server"]) == count(f.commands) # no server without a command (a URL)
	every c in f.commands {
		project_server_command(c)
	}
}

project_server_command(c) if {
	words := split(trim_space(c), " ")
	words[0] in {"node", "python", "python3", "deno", "bun", "tsx", "ts-node"}
	script := [w | some w in array.slice(words, 1, count(words)); not startswith(w, "-")][0]
	not regex.match(`^(/|~|\$|\.\./)|://`, script)
	regex.match(`\.(js|mjs|cjs|ts|py)$`, script)
}

