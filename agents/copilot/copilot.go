// Package copilot is GitHub Copilot CLI: the facts agentjail knows of it
// (this file) and its adapter (event.go).
package copilot

import (
	"time"

	"github.com/agentjail/agentjail/agent"
)

// Agent is Copilot CLI.
var Agent = agent.Agent{Adapter: copilot{}, Facts: agent.Facts{
	Name: "copilot", Title: "Copilot CLI", Aliases: []string{"copilot-cli", "github-copilot"},
	Tools:    agent.Kinds(tools, nil),
	Programs: []string{"copilot"}, Packages: []string{"@github/copilot"}, Headless: []string{"-p", "--prompt"},
	Records:       []agent.Records{{Env: []string{"COPILOT_HOME"}, EnvSub: "session-state", HomeSub: ".copilot/session-state", Pattern: "*/events.jsonl", Format: "copilot-events"}},
	Folder:        ".copilot",
	HookFile:      ".copilot/hooks/agentjail.json",
	UserPlaces:    []string{".copilot", ".copilot/config.json", ".copilot/settings.json", ".copilot/hooks", ".copilot/hooks/agentjail.json"},
	ProjectPlaces: []string{".github/hooks", ".github/copilot/settings.json"},
	Machine:       []string{"/etc/github-copilot"},
	Roots: []agent.Root{
		{Var: "HOME", Files: []string{".copilot/hooks/agentjail.json"}},
		{Var: "COPILOT_HOME", Default: ".copilot", Files: []string{"hooks/agentjail.json"}},
		{Var: "XDG_CONFIG_HOME", Default: ".config"},
	},
	Credentials: []string{".config/github-copilot/hosts.json", ".config/github-copilot/apps.json"},
	Switches: []agent.Switch{
		{Flag: "--headless", Verdict: "deny", Why: "copilot --headless serves Copilot SDK sessions, which skip the machine-wide hooks, agentjail's included, unless the client asks for them"},
		{Flag: "--server", Verdict: "deny", Why: "copilot --server serves Copilot SDK sessions, which skip the machine-wide hooks, agentjail's included, unless the client asks for them"},
		{Flag: "--prefer-version", Verdict: "ask", Why: "copilot --prefer-version runs another downloaded copy of the CLI, whose hook loading agentjail has not checked"},
		{Env: "COPILOT_CLI_DIST_DIR", Verdict: "ask", Why: "copilot started with COPILOT_CLI_DIST_DIR runs the CLI from another folder, whose hook loading agentjail has not checked"},
	},
	HookTimeout: agent.Timeout{Key: "timeoutSec", Unit: time.Second},
	PostEvent:   "postToolUse",
	Table: agent.Row{
		Proven:      "1.0.102",
		Install:     "`~/.copilot/hooks/agentjail.json`",
		Events:      "`preToolUse` (`toolArgs` a JSON object in 1.0.102; a JSON string is read too)",
		NoObjection: "no output (an allow widens its prompts)",
		Deny:        "`{\"permissionDecision\":\"deny\",…}` on stdout, exit 0",
		Ask:         "JSON ask; headless (`-p`, seen on its process) it cannot ask: agentjail holds the call for a person",
		Fails:       "an error blocks the tool; a timeout runs it",
		Subagents:   "not checked",
		System:      "`/etc/github-copilot/policy.d/agentjail.json`",
	},
}}
