// Package opencode is opencode: the facts agentjail knows of it (this
// file), the adapter it shares with its fork Kilo CLI (event.go), and
// the plugin that runs the hook from inside both (plugin.js).
package opencode

import (
	"time"

	"github.com/agentjail/agentjail/agent"
)

// Agent is opencode.
var Agent = agent.Agent{Adapter: NewAdapter("opencode", "opencode"), Facts: facts()}

func facts() agent.Facts {
	f := Facts("opencode", "opencode", "opencode-ai", "OPENCODE")
	f.Aliases = []string{"opencode-ai"}
	f.Table.Proven = "1.18.33"
	return f
}

// Facts are the facts of an agent our plugin guards: opencode, or a fork
// of it that keeps its layout under its own name (kilo, KILO_PURE).
func Facts(name, title, pkg, envPrefix string) agent.Facts {
	config := ".config/" + name
	return agent.Facts{
		Name: name, Title: title,
		Tools:    agent.Kinds(tools, nil),
		Programs: []string{name}, Packages: []string{pkg},
		Folder:        config,
		HookFile:      config + "/plugin/agentjail.js",
		UserPlaces:    []string{config, config + "/plugin", config + "/plugins", config + "/" + name + ".json", config + "/" + name + ".jsonc"},
		ProjectPlaces: []string{"." + name + "/" + name + ".json", "." + name + "/" + name + ".jsonc"},
		HookFolders:   []string{config + "/plugin", config + "/plugins", "." + name + "/plugin", "." + name + "/plugins"},
		Machine:       []string{"/etc/" + name},
		Roots: []agent.Root{
			{Var: "HOME", Files: []string{config + "/plugin/agentjail.js"}},
			{Var: "XDG_CONFIG_HOME", Default: ".config", Files: []string{name + "/plugin/agentjail.js"}},
		},
		Credentials: []string{".local/share/" + name + "/auth.json"},
		GuardKeys:   []string{"plugin"},
		Switches: []agent.Switch{
			{Flag: "--pure", Verdict: "deny", Why: name + " --pure loads no plugin, agentjail's included"},
			{Env: envPrefix + "_PURE", Verdict: "deny", Why: name + " started with " + envPrefix + "_PURE loads no plugin, agentjail's included"},
		},
		// The plugin's own wait, in its settings line.
		HookTimeout: agent.Timeout{Key: "timeoutMs", Unit: time.Millisecond},
		// The plugin runs the hook with --post from tool.execute.after
		// when its settings carry the "post" argv.
		PostEvent: PostEvent,
		Table: agent.Row{
			Install:     "agentjail's plugin `~/.config/" + name + "/plugin/agentjail.js` (`plugins/` where that is the folder in use), which runs the hook from `tool.execute.before` (and with `--post` from `tool.execute.after`)",
			Events:      "`tool.execute.before` (sent to the hook as `{\"hook_event_name\":\"tool.execute.before\",\"client\":\"" + name + "\",\"tool\",\"args\",…}`), for every tool, MCP and task included",
			NoObjection: "no output: the call goes on to " + title + "'s own permission rules, which it never widens",
			Deny:        "`{\"decision\":\"deny\",\"reason\":…}`, exit 2; the plugin throws the reason and the model reads it as the tool's result",
			Ask:         "**cannot ask** from a plugin: held for a person's approval (menu bar, notification, `agentjail approve`) up to `approval_timeout`, then no objection or a deny",
			Fails:       "the plugin bounds its wait (`hook_timeout` + `approval_timeout` + 5 s: 67 s by default, 5 s holding nothing) and fails closed unless the hook is installed with `--fail-closed=false`; `--pure` or `" + envPrefix + "_PURE` loads no plugin, ours included (a nested launch with it is refused)",
			Subagents:   "the `task` call that starts one reaches the hook; the subagent runs in the same process under the same plugin (its own calls not driven here)",
			System:      "none: `/etc/" + name + "` holds only `" + name + ".json`, no plugin folder; install says so",
		},
	}
}
