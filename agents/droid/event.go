package droid

import (
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/internal/wire"
)

// droid is Factory's Droid CLI: PreToolUse in Claude Code's shape
// (measured with 0.225: session_id, transcript_path, cwd,
// permission_mode, hook_event_name, tool_name, tool_input; no
// tool_use_id) with its own tool names: Execute runs a command, Read,
// Create and Edit work on files (Edit with old_str, new_str and
// change_all), ApplyPatch takes a patch for models that use one.
//
// Droid runs the hook before its own gate, and a JSON "allow" skips that
// gate (a call its --auto level refuses then runs), so no objection is
// silence. A JSON "ask" lets the call run, so an ask is a deny whose
// reason says a person must approve. Execute's riskLevel is the model's
// own rating of its command, which Droid's gate trusts; it is kept in
// the input as sent and decides nothing here.
type droid struct{}

func (droid) Name() string { return "droid" }

// Identify names the call by its event's top-level keys.
func (droid) Identify(event map[string]any) agent.CallID { return agent.TopLevelCall(event) }

// Recognise: Droid sends Claude Code's shape; only the hook's --agent
// flag tells it apart.
func (droid) Recognise(map[string]any) bool { return false }

// tools maps Droid's tools to Claude Code's.
var tools = map[string]agent.Tool{
	"Execute":   {Kind: agent.KindShell, Like: "Bash"},
	"Read":      {Kind: agent.KindRead, Like: "Read"},
	"Create":    {Kind: agent.KindWrite, Like: "Write"},
	"Edit":      {Kind: agent.KindEdit, Like: "Edit", Fields: [][2]string{{"old_str", "old_string"}, {"new_str", "new_string"}, {"change_all", "replace_all"}}},
	"MultiEdit": {Kind: agent.KindEdit, Like: "MultiEdit"},
	"LS":        {Kind: agent.KindList, Like: "LS", Fields: [][2]string{{"directory_path", "path"}}},
	"Glob":      {Kind: agent.KindSearch, Like: "Glob", Fields: [][2]string{{"folder", "path"}}},
	"Grep":      {Kind: agent.KindSearch, Like: "Grep", Fields: [][2]string{{"glob_pattern", "glob"}}},
	"FetchUrl":  {Kind: agent.KindFetch, Like: "WebFetch"},
	"WebSearch": {Kind: agent.KindFetch, Like: "WebSearch"},
	"Task":      {Kind: agent.KindAgent, Like: "Task"},
	// Its own tools that touch no file the call names (0.225.1).
	"AskUser":       {Kind: agent.KindAsk, Like: "AskUserQuestion"},
	"ExitSpecMode":  {Kind: agent.KindAsk, Like: "ExitPlanMode"},
	"TodoWrite":     {Kind: agent.KindTodo, Like: "TodoWrite"},
	"WaitForScript": {Kind: agent.KindControl, Like: "BashOutput"},
}

func (droid) Canonical(event map[string]any) agent.Call {
	tool := agent.Str(event, "tool_name")
	raw := event["tool_input"]
	if tool == "ApplyPatch" {
		// The patch is in input, in apply_patch's format.
		c, _ := agent.PatchCall("apply_patch", raw)
		c.Tool = tool
		return c
	}
	if t, ok := tools[tool]; ok {
		ti, isObject := raw.(map[string]any)
		if !isObject {
			return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: raw}
		}
		in := agent.Rename(ti, t.Fields)
		if tool == "Glob" {
			// Glob takes a list of patterns: the first is Claude Code's
			// pattern, and all of them stay in patterns.
			if list, ok := ti["patterns"].([]any); ok && len(list) > 0 {
				if _, has := in["pattern"]; !has {
					in["pattern"] = list[0]
				}
			}
		}
		return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: in}
	}
	if strings.HasPrefix(tool, "mcp__") {
		return agent.MCPCall(tool, tool, raw)
	}
	return agent.Call{Tool: tool, Kind: agent.KindOther, Like: tool, LikeInput: raw}
}

// Render, as measured against the real Droid CLI:
//
//	deny        stdout JSON "deny", the reason on stderr, exit 2 (the model
//	            reads "Error: <reason>", the JSON's reason first)
//	ask         the same deny, its reason saying a human must approve
//	allow (any) nothing, exit 0: an "allow" would skip Droid's own gate
func (droid) Render(_ map[string]any, d *wire.Decision) agent.Answer {
	deny := func(r string) agent.Answer {
		return agent.Answer{Stdout: claude.JSON(wire.Deny, r), Stderr: r + "\n", Exit: agent.ExitBlock}
	}
	switch d.Verdict {
	case wire.Deny:
		return deny(agent.DenyReason(d))
	case wire.Ask:
		return deny(agent.HumanMustApprove("Factory Droid", d.Reason))
	case wire.Allow:
		return agent.Answer{Exit: agent.ExitOK}
	}
	return deny(agent.UnknownVerdict(d))
}

// Confine: Droid 0.225 merges a hook's updatedInput into the call's
// input, and with no permissionDecision beside it its own gate goes on;
// the entry's preserveRiskLevel (install writes it) keeps the model's
// riskLevel rather than rating the launcher's line again. So the answer
// carries the command alone, and no allow.
func (d droid) Confine(event map[string]any, dec *wire.Decision, wrap func(string) string) (agent.Answer, bool) {
	if dec.Verdict != wire.Allow || d.Canonical(event).Kind != agent.KindShell {
		return agent.Answer{}, false
	}
	in, ok := agent.RewriteCommand(event["tool_input"], "command", wrap)
	if !ok {
		return agent.Answer{}, false
	}
	out := claude.ClaudeSpecific{HookEventName: "PreToolUse", UpdatedInput: map[string]any{"command": in["command"]}}
	return agent.Answer{Stdout: agent.EncodeJSON(claude.ClaudeOutput{HookSpecificOutput: out}), Exit: agent.ExitOK}, true
}

// Example is Droid's PreToolUse event for a Claude Code call, in its own
// tool and field names.
func (droid) Example(tool string, input map[string]any, cwd string) map[string]any {
	names := map[string]string{"Bash": "Execute", "Write": "Create", "WebFetch": "FetchUrl"}
	name, ok := names[tool]
	if !ok {
		name = tool
	}
	fields := map[string]string{"old_string": "old_str", "new_string": "new_str", "replace_all": "change_all"}
	switch tool {
	case "LS":
		fields = map[string]string{"path": "directory_path"}
	case "Glob":
		fields = map[string]string{"path": "folder"}
	}
	return map[string]any{"session_id": "agentjail-try", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": name, "tool_input": agent.CopyRenamed(input, fields)}
}
