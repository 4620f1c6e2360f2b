// Package cursor is Cursor (its agent and its CLI, cursor-agent): the
// facts agentjail knows of it (this file) and its adapter (event.go).
package cursor

import "github.com/agentjail/agentjail/agent"

// Agent is Cursor.
var Agent = agent.Agent{Adapter: cursor{}, Facts: agent.Facts{
	Name: "cursor", Title: "Cursor",
	Tools:         agent.Kinds(tools, nil),
	Programs:      []string{"cursor-agent", "cursor"},
	Headless:      []string{"-p", "--print"},
	Folder:        ".cursor",
	HookFile:      ".cursor/hooks.json",
	UserPlaces:    []string{".cursor", ".cursor/hooks.json", ".cursor/cli-config.json", ".cursor/permissions.json"},
	ProjectPlaces: []string{".cursor/hooks.json"},
	Machine:       []string{"/etc/cursor", "/Library/Application Support/Cursor"},
	Roots:         []agent.Root{{Var: "HOME", Files: []string{".cursor/hooks.json"}}},
	FailClosed:    agent.Knob{Key: "failClosed", Value: true},
	PostEvent:     "postToolUse",
	Table: agent.Row{
		Proven:      "not run here: no CLI that runs without a login; tested with the events of its documentation",
		Install:     "`~/.cursor/hooks.json` (`preToolUse`, `beforeShellExecution`, `beforeReadFile`, `beforeMCPExecution`)",
		Events:      "those four; one shell call fires both `preToolUse` and `beforeShellExecution` (an MCP call, a read: `preToolUse` and its `before…` event), logged once",
		NoObjection: "no output",
		Deny:        "`{\"permission\":\"deny\",\"agent_message\":…}`",
		Ask:         "`permission: ask` (`beforeReadFile` cannot ask: a deny)",
		Fails:       "the tool runs, unless the entry sets `failClosed: true`, which install writes with `fail_mode: closed`",
		Subagents:   "not checked",
		System:      "`/etc/cursor/hooks.json` (not run here)",
		Unconfined:  "its hooks' documentation gives no way to rewrite a call, and Cursor cannot be run here to find one",
	},
}}
