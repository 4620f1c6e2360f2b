// Package cline is the Cline CLI: the facts agentjail knows of it (this
// file) and its adapter (event.go).
package cline

import (
	"time"

	"github.com/agentjail/agentjail/agent"
)

// Agent is the Cline CLI.
var Agent = agent.Agent{Adapter: cline{}, Facts: agent.Facts{
	Name: "cline", Title: "Cline", Aliases: []string{"cline-cli"},
	Tools:    agent.Kinds(tools, nil),
	Programs: []string{"cline"}, Packages: []string{"cline"},
	Folder:        ".cline",
	HookFile:      ".cline/hooks/PreToolUse",
	UserPlaces:    []string{".cline", ".cline/hooks", ".cline/hooks/PreToolUse"},
	ProjectPlaces: []string{".clinerules/hooks", ".cline/hooks"},
	HookFolders:   []string{".cline/hooks", ".clinerules/hooks", "Documents/Cline/Hooks"},
	Roots: []agent.Root{
		{Var: "HOME", Files: []string{".cline/hooks/PreToolUse"}},
		{Var: "CLINE_DIR", Default: ".cline", Files: []string{"hooks/PreToolUse"}},
	},
	Credentials: []string{".cline/data/secrets.json"},
	PostEvent:   "PostToolUse",
	// Cline stops a hook after 120 s; no setting changes it.
	HookTimeout: agent.Timeout{Fixed: 120 * time.Second},
	Table: agent.Row{
		Proven:      "3.0.65",
		Install:     "an executable `~/.cline/hooks/PreToolUse` of ours (`$CLINE_DIR/hooks`), and `PostToolUse` beside it; a `PreToolUse` of the user's is never overwritten: install refuses (a `PostToolUse` of theirs is kept, and ours not written)",
		Events:      "`tool_call` (`tool_call.name`/`input`; a subagent's calls included)",
		NoObjection: "no output",
		Deny:        "`{\"cancel\":true,\"errorMessage\":…}`, exit 0: **a cancel stops the whole run** (a subagent's, for its calls) before the tool runs; the model is not told why, the user sees `[abort] aborted by another client`, and `cline` exits 0",
		Ask:         "**cannot ask**: held for a person's approval (menu bar, notification, `agentjail approve`) up to `approval_timeout`; a denial is the same cancel, its message saying who denied or that nobody answered",
		Fails:       "only the printed JSON counts: any exit code, garbage or a timeout (120 s, not settable) runs the tool, so install holds a call for a person at most 113 s here (with the default `hook_timeout`)",
		Subagents:   "guarded: `spawn_agent` subagents run the hook (checked by hand, not in the end-to-end test)",
		System:      "none: Cline reads hooks only from each user's and project's folders; install says so",
	},
}}
