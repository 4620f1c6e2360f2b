// Package qwen is Qwen Code: the facts agentjail knows of it (this file)
// and its adapter (event.go).
package qwen

import (
	"time"

	"github.com/agentjail/agentjail/agent"
)

// Agent is Qwen Code.
var Agent = agent.Agent{Adapter: qwen{}, Facts: agent.Facts{
	Name: "qwen", Title: "Qwen Code", Aliases: []string{"qwen-code"},
	Tools:    agent.Kinds(tools, nil),
	Programs: []string{"qwen"}, Packages: []string{"@qwen-code/qwen-code"}, Headless: []string{"-p", "--prompt"},
	Records:       []agent.Records{{Env: []string{"QWEN_RUNTIME_DIR", "QWEN_HOME"}, EnvSub: "projects", HomeSub: ".qwen/projects", Pattern: "*/chats/*.jsonl", Format: "qwen-chat"}},
	Folder:        ".qwen",
	HookFile:      ".qwen/settings.json",
	UserPlaces:    []string{".qwen", ".qwen/settings.json"},
	ProjectPlaces: []string{".qwen/settings.json"},
	Machine:       []string{"/etc/qwen-code", "/Library/Application Support/QwenCode"},
	Roots: []agent.Root{
		{Var: "HOME", Files: []string{".qwen/settings.json"}},
		{Var: "QWEN_HOME", Default: ".qwen", Files: []string{"settings.json"}},
		{Var: "QWEN_CODE_SYSTEM_SETTINGS_PATH", Default: "/etc/qwen-code/settings.json"},
	},
	Credentials: []string{".qwen/oauth_creds.json"},
	// 0.24.4's memories, plans and task lists.
	WorkingFiles: []string{".qwen/memories/**", ".qwen/plans/**", ".qwen/tasks/**"},
	HooksOff:     []string{"disableAllHooks"},
	HookTimeout:  agent.Timeout{Key: "timeout", Unit: time.Second},
	PostEvent:    "PostToolUse",
	Table: agent.Row{
		Proven:      "0.24.4",
		Install:     "`PreToolUse` in `~/.qwen/settings.json` (`$QWEN_HOME`), Claude Code's format",
		Events:      "`PreToolUse`, run after Qwen Code's own approval (a call it refuses never reaches the hook)",
		NoObjection: "no output (an allow widens nothing: its own approval came first)",
		Deny:        "JSON deny + reason on stderr, exit 2 (the model reads stderr)",
		Ask:         "JSON ask whose reason says a person must approve (headless, a deny; interactive, it asks)",
		Fails:       "exit 1, garbage and a timeout run the tool; a project's `.qwen/settings.json` with `disableAllHooks: true` turns every hook off with no trust step (system mode's `disableAllHooks: false` outweighs it)",
		Subagents:   "not checked",
		System:      "`/etc/qwen-code/settings.json` (unit-tested, not run as another user)",
		Unconfined:  "its pre-tool hook cannot rewrite a call (0.24.4 drops the `updatedInput` its documentation names)",
	},
}}
