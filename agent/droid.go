package agent

import (
	"strings"

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

// Recognise: Droid sends Claude Code's shape; only the hook's --agent
// flag tells it apart.
func (droid) Recognise(map[string]any) bool { return false }

// droidTools maps Droid's tools to Claude Code's.
var droidTools = map[string]struct {
	kind, like string
	fields     [][2]string
}{
	"Execute":   {KindShell, "Bash", nil},
	"Read":      {KindRead, "Read", nil},
	"Create":    {KindWrite, "Write", nil},
	"Edit":      {KindEdit, "Edit", [][2]string{{"old_str", "old_string"}, {"new_str", "new_string"}, {"change_all", "replace_all"}}},
	"MultiEdit": {KindEdit, "MultiEdit", nil},
	"LS":        {KindList, "LS", [][2]string{{"directory_path", "path"}}},
	"Glob":      {KindSearch, "Glob", [][2]string{{"folder", "path"}}},
	"Grep":      {KindSearch, "Grep", [][2]string{{"glob_pattern", "glob"}}},
	"FetchUrl":  {KindFetch, "WebFetch", nil},
	"WebSearch": {KindFetch, "WebSearch", nil},
	"Task":      {KindAgent, "Task", nil},
}

func (droid) Canonical(event map[string]any) Call {
	tool := str(event, "tool_name")
	raw := event["tool_input"]
	if tool == "ApplyPatch" {
		// The patch is in input, in apply_patch's format.
		c, _ := patchCall("apply_patch", raw)
		c.Tool = tool
		return c
	}
	if t, ok := droidTools[tool]; ok {
		ti, isObject := raw.(map[string]any)
		if !isObject {
			return Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: raw}
		}
		in := rename(ti, t.fields)
		if tool == "Glob" {
			// Glob takes a list of patterns: the first is Claude Code's
			// pattern, and all of them stay in patterns.
			if list, ok := ti["patterns"].([]any); ok && len(list) > 0 {
				if _, has := in["pattern"]; !has {
					in["pattern"] = list[0]
				}
			}
		}
		return Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: in}
	}
	if strings.HasPrefix(tool, "mcp__") {
		return mcpCall(tool, tool, raw)
	}
	return Call{Tool: tool, Kind: KindOther, Like: tool, LikeInput: raw}
}

// Render, as measured against the real Droid CLI:
//
//	deny        stdout JSON "deny", the reason on stderr, exit 2 (the model
//	            reads "Error: <reason>", the JSON's reason first)
//	ask         the same deny, its reason saying a human must approve
//	allow (any) nothing, exit 0: an "allow" would skip Droid's own gate
func (droid) Render(_ map[string]any, d *wire.Decision) Answer {
	deny := func(r string) Answer {
		return Answer{claudeJSON(wire.Deny, r), r + "\n", ExitBlock}
	}
	switch d.Verdict {
	case wire.Deny:
		return deny(denyReason(d))
	case wire.Ask:
		return deny(humanMustApprove("Factory Droid", d.Reason))
	case wire.Allow:
		return Answer{Exit: ExitOK}
	}
	return deny(unknownVerdict(d))
}
