// Package pi is the pi coding agent: the facts agentjail knows of it
// (this file), its adapter (event.go) and the extension that runs the
// hook from inside pi (extension.ts).
package pi

import (
	"time"

	"github.com/agentjail/agentjail/agent"
)

// Agent is pi.
var Agent = agent.Agent{Adapter: pi{}, Facts: agent.Facts{
	Name: "pi", Title: "pi", Aliases: []string{"pi-coding-agent"},
	Tools:    agent.Kinds(tools, nil),
	Programs: []string{"pi"}, Packages: []string{"@mariozechner/pi-coding-agent"},
	Records:       []agent.Records{{Env: []string{"PI_CODING_AGENT_DIR"}, EnvSub: "sessions", HomeSub: ".pi/agent/sessions", Pattern: "*/*.jsonl", Format: "pi-session"}},
	Folder:        ".pi",
	HookFile:      ".pi/agent/extensions/agentjail.ts",
	UserPlaces:    []string{".pi", ".pi/agent", ".pi/agent/extensions", ".pi/agent/settings.json"},
	ProjectPlaces: []string{".pi/settings.json"},
	HookFolders:   []string{".pi/agent/extensions", ".pi/extensions"},
	Roots: []agent.Root{
		{Var: "HOME", Files: []string{".pi/agent/extensions/agentjail.ts"}},
		{Var: "PI_CODING_AGENT_DIR", Default: ".pi/agent", Files: []string{"extensions/agentjail.ts"}},
	},
	Credentials: []string{".pi/agent/auth.json"},
	// Its extension runs the hook from this event too (extension.ts).
	PostEvent:  "tool_result",
	GuardKeys:  []string{"extensions", "packages"},
	FailClosed: agent.Knob{Key: "failClosed", Value: true},
	Switches: []agent.Switch{
		{Flag: "--no-extensions", Verdict: "deny", Why: "pi --no-extensions loads no extension, agentjail's included"},
		{Flag: "-ne", Verdict: "deny", Why: "pi -ne loads no extension, agentjail's included"},
	},
	// The extension's own wait, in its settings line.
	HookTimeout: agent.Timeout{Key: "timeoutMs", Unit: time.Millisecond},
	Table: agent.Row{
		Proven:      "0.73.1",
		Install:     "agentjail's extension `~/.pi/agent/extensions/agentjail.ts` (`$PI_CODING_AGENT_DIR/extensions`), which runs the hook from pi's `tool_call` event",
		Events:      "`tool_call` (sent to the hook as `{\"hook_event_name\":\"tool_call\",\"toolName\",\"input\",…}`)",
		NoObjection: "no output; pi has no permission gate of its own headless, so nothing is widened",
		Deny:        "reason on stderr, exit 2; the extension returns `{block: true, reason}` and the model reads the reason as the tool's result",
		Ask:         "**cannot ask** from print mode: held for a person's approval (menu bar, notification, `agentjail approve`) up to `approval_timeout`, then no objection or a deny",
		Fails:       "the extension bounds its wait (`hook_timeout` + `approval_timeout` + 5 s: 67 s by default, 5 s holding nothing) and then follows `fail_mode`: the call runs with a warning, or is blocked with `fail_mode: closed`; any other extension, loaded in the same process, could undo ours",
		Subagents:   "none built in; the example subagent extension starts `pi` again, which loads the same extension (not run here)",
		System:      "none: pi reads extensions only from each user's and project's folders",
	},
}}
