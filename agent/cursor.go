package agent

import (
	"strings"

	"github.com/agentjail/agentjail/internal/wire"
)

// cursor is Cursor's agent: hook_event_name preToolUse (tool_name,
// tool_input), beforeShellExecution (a top-level command),
// beforeReadFile (file_path) and beforeMCPExecution (tool_name and
// tool_input, perhaps as a JSON string). It reads
// {"permission","user_message","agent_message"}; beforeReadFile knows
// only allow and deny.
type cursor struct{}

func (cursor) Name() string { return "cursor" }

// CursorEvents are the events the installer registers; the hook answers
// each. Cursor's documentation has preToolUse fire before every tool and
// the before* hooks before their own kind of call, so a shell call (an
// MCP call, a read) reaches the hook twice. Both are kept: preToolUse is
// the only gate of writes, edits, deletions and subagents, and the
// before* hooks are the documented gates of shell, MCP and file reads
// (beforeReadFile also sees files Cursor reads for the agent, such as
// attachments, that are no tool call). The daemon answers both events
// and logs and notifies the call once (daemon/repeat.go).
var CursorEvents = []string{"preToolUse", "beforeShellExecution", "beforeReadFile", "beforeMCPExecution"}

func (cursor) Recognise(event map[string]any) bool {
	name := str(event, "hook_event_name")
	for _, e := range CursorEvents {
		if name == e {
			return true
		}
	}
	return false
}

// cursorTools maps the tools of Cursor's preToolUse to Claude Code's.
var cursorTools = map[string]struct {
	kind, like string
	fields     [][2]string
}{
	"Shell":      {KindShell, "Bash", nil},
	"Terminal":   {KindShell, "Bash", nil},
	"Read":       {KindRead, "Read", [][2]string{{"path", "file_path"}}},
	"Write":      {KindWrite, "Write", [][2]string{{"path", "file_path"}, {"contents", "content"}}},
	"Edit":       {KindEdit, "Edit", [][2]string{{"path", "file_path"}}},
	"StrReplace": {KindEdit, "Edit", [][2]string{{"path", "file_path"}}},
	"MultiEdit":  {KindEdit, "MultiEdit", [][2]string{{"path", "file_path"}}},
	"Delete":     {KindWrite, "Delete", [][2]string{{"path", "file_path"}}},
	"Grep":       {KindSearch, "Grep", nil},
	"Glob":       {KindSearch, "Glob", nil},
	"LS":         {KindList, "LS", nil},
	"WebFetch":   {KindFetch, "WebFetch", nil},
	"WebSearch":  {KindFetch, "WebSearch", nil},
	"Task":       {KindAgent, "Task", nil},
}

func (cursor) Canonical(event map[string]any) Call {
	switch str(event, "hook_event_name") {
	case "beforeShellExecution":
		in := map[string]any{}
		if c, ok := event["command"]; ok {
			in["command"] = c
		}
		return Call{Tool: "beforeShellExecution", Kind: KindShell, Like: "Bash", LikeInput: in}
	case "beforeReadFile":
		in := map[string]any{}
		if p, ok := event["file_path"]; ok {
			in["file_path"] = p
		}
		return Call{Tool: "beforeReadFile", Kind: KindRead, Like: "Read", LikeInput: in}
	case "beforeMCPExecution":
		tool := str(event, "tool_name")
		var in any = event["tool_input"]
		if m, ok := objectOrJSON(in); ok {
			in = m
		}
		return mcpCall(tool, "mcp__"+strings.TrimPrefix(tool, "MCP:"), in)
	}
	tool := str(event, "tool_name")
	raw := event["tool_input"]
	ti, isObject := objectOrJSON(raw)
	if isObject {
		raw = ti
	}
	if t, ok := cursorTools[tool]; ok {
		if !isObject {
			return Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: raw}
		}
		return Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: rename(ti, t.fields)}
	}
	if rest, ok := strings.CutPrefix(tool, "MCP:"); ok {
		return mcpCall(tool, "mcp__"+strings.Replace(rest, ":", "__", 1), raw)
	}
	return Call{Tool: tool, Like: tool, LikeInput: raw}
}

// cursorOutput is the answer Cursor reads from stdout.
type cursorOutput struct {
	Permission   string `json:"permission"`
	UserMessage  string `json:"user_message,omitempty"`
	AgentMessage string `json:"agent_message,omitempty"`
}

// Render, per Cursor's contract:
//
//	deny        stdout {"permission":"deny","user_message":R,"agent_message":R}, exit 0
//	ask         stdout {"permission":"ask",...}, exit 0; beforeReadFile cannot ask, so there the deny
//	allow (any) nothing, exit 0
func (cursor) Render(event map[string]any, d *wire.Decision) Answer {
	deny := func(r string) Answer {
		return Answer{Stdout: encodeJSON(cursorOutput{"deny", r, r}), Exit: ExitOK}
	}
	switch d.Verdict {
	case wire.Deny:
		return deny(denyReason(d))
	case wire.Ask:
		if str(event, "hook_event_name") == "beforeReadFile" {
			return deny(humanMustApprove("Cursor", d.Reason))
		}
		r := d.Reason
		if r == "" {
			r = "agentjail's policies want a person to approve this call"
		}
		return Answer{Stdout: encodeJSON(cursorOutput{"ask", r, r}), Exit: ExitOK}
	case wire.Allow:
		return Answer{Exit: ExitOK}
	}
	return deny(unknownVerdict(d))
}
