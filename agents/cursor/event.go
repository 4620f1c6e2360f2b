package cursor

import (
	"strings"

	"github.com/agentjail/agentjail/agent"
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

// Identify names the call by its event's top-level keys.
func (cursor) Identify(event map[string]any) agent.CallID { return agent.TopLevelCall(event) }

// Events are the events the installer registers; the hook answers
// each. Cursor's documentation has preToolUse fire before every tool and
// the before* hooks before their own kind of call, so a shell call (an
// MCP call, a read) reaches the hook twice. Both are kept: preToolUse is
// the only gate of writes, edits, deletions and subagents, and the
// before* hooks are the documented gates of shell, MCP and file reads
// (beforeReadFile also sees files Cursor reads for the agent, such as
// attachments, that are no tool call). The daemon answers both events
// and logs and notifies the call once (daemon/repeat.go).
var Events = []string{"preToolUse", "beforeShellExecution", "beforeReadFile", "beforeMCPExecution"}

func (cursor) Recognise(event map[string]any) bool {
	name := agent.Str(event, "hook_event_name")
	for _, e := range Events {
		if name == e {
			return true
		}
	}
	return false
}

// tools maps the tools of Cursor's preToolUse to Claude Code's.
var tools = map[string]agent.Tool{
	"Shell":      {Kind: agent.KindShell, Like: "Bash"},
	"Terminal":   {Kind: agent.KindShell, Like: "Bash"},
	"Read":       {Kind: agent.KindRead, Like: "Read", Fields: [][2]string{{"path", "file_path"}}},
	"Write":      {Kind: agent.KindWrite, Like: "Write", Fields: [][2]string{{"path", "file_path"}, {"contents", "content"}}},
	"Edit":       {Kind: agent.KindEdit, Like: "Edit", Fields: [][2]string{{"path", "file_path"}}},
	"StrReplace": {Kind: agent.KindEdit, Like: "Edit", Fields: [][2]string{{"path", "file_path"}}},
	"MultiEdit":  {Kind: agent.KindEdit, Like: "MultiEdit", Fields: [][2]string{{"path", "file_path"}}},
	"Delete":     {Kind: agent.KindWrite, Like: "Delete", Fields: [][2]string{{"path", "file_path"}}},
	"Grep":       {Kind: agent.KindSearch, Like: "Grep"},
	"Glob":       {Kind: agent.KindSearch, Like: "Glob"},
	"LS":         {Kind: agent.KindList, Like: "LS"},
	"WebFetch":   {Kind: agent.KindFetch, Like: "WebFetch"},
	"WebSearch":  {Kind: agent.KindFetch, Like: "WebSearch"},
	"Task":       {Kind: agent.KindAgent, Like: "Task"},
}

func (cursor) Canonical(event map[string]any) agent.Call {
	switch agent.Str(event, "hook_event_name") {
	case "beforeShellExecution":
		in := map[string]any{}
		if c, ok := event["command"]; ok {
			in["command"] = c
		}
		return agent.Call{Tool: "beforeShellExecution", Kind: agent.KindShell, Like: "Bash", LikeInput: in}
	case "beforeReadFile":
		in := map[string]any{}
		if p, ok := event["file_path"]; ok {
			in["file_path"] = p
		}
		return agent.Call{Tool: "beforeReadFile", Kind: agent.KindRead, Like: "Read", LikeInput: in}
	case "beforeMCPExecution":
		tool := agent.Str(event, "tool_name")
		var in any = event["tool_input"]
		if m, ok := agent.ObjectOrJSON(in); ok {
			in = m
		}
		return agent.MCPCall(tool, "mcp__"+strings.TrimPrefix(tool, "MCP:"), in)
	}
	tool := agent.Str(event, "tool_name")
	raw := event["tool_input"]
	ti, isObject := agent.ObjectOrJSON(raw)
	if isObject {
		raw = ti
	}
	if t, ok := tools[tool]; ok {
		if !isObject {
			return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: raw}
		}
		return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: agent.Rename(ti, t.Fields)}
	}
	if rest, ok := strings.CutPrefix(tool, "MCP:"); ok {
		return agent.MCPCall(tool, "mcp__"+strings.Replace(rest, ":", "__", 1), raw)
	}
	return agent.Call{Tool: tool, Like: tool, LikeInput: raw}
}

// cursorOutput is the answer Cursor reads from stdout.
type cursorOutput struct {
	Permission   string `json:"permission"`
	UserMessage  string `json:"user_message,omitempty"`
	AgentMessage string `json:"agent_message,omitempty"`
}

// Prompts: Cursor asks for an ask, except before a file read, where it
// can only allow or deny.
func (cursor) Prompts(event map[string]any) bool {
	return agent.Str(event, "hook_event_name") != "beforeReadFile"
}

// Render, per Cursor's contract:
//
//	deny        stdout {"permission":"deny","user_message":R,"agent_message":R}, exit 0
//	ask         stdout {"permission":"ask",...}, exit 0; beforeReadFile cannot ask, so there the deny
//	allow (any) nothing, exit 0
func (cursor) Render(event map[string]any, d *wire.Decision) agent.Answer {
	deny := func(r string) agent.Answer {
		return agent.Answer{Stdout: agent.EncodeJSON(cursorOutput{"deny", r, r}), Exit: agent.ExitOK}
	}
	switch d.Verdict {
	case wire.Deny:
		return deny(agent.DenyReason(d))
	case wire.Ask:
		if agent.Str(event, "hook_event_name") == "beforeReadFile" {
			return deny(agent.HumanMustApprove("Cursor", d.Reason))
		}
		r := d.Reason
		if r == "" {
			r = "agentjail's policies want a person to approve this call"
		}
		return agent.Answer{Stdout: agent.EncodeJSON(cursorOutput{"ask", r, r}), Exit: agent.ExitOK}
	case wire.Allow:
		return agent.Answer{Exit: agent.ExitOK}
	}
	return deny(agent.UnknownVerdict(d))
}

// Example is Cursor's event for a Claude Code call: a shell command and
// a read have their own events, the rest is preToolUse.
func (cursor) Example(tool string, input map[string]any, cwd string) map[string]any {
	ev := map[string]any{"conversation_id": "agentjail-try", "generation_id": "agentjail-try", "cwd": cwd, "workspace_roots": []string{cwd}}
	switch tool {
	case "Bash":
		ev["hook_event_name"] = "beforeShellExecution"
		ev["command"] = input["command"]
	case "Read":
		ev["hook_event_name"] = "beforeReadFile"
		ev["file_path"] = input["file_path"]
	default:
		ev["hook_event_name"] = "preToolUse"
		ev["tool_name"] = tool
		ev["tool_input"] = agent.CopyRenamed(input, map[string]string{"content": "contents"}) // Cursor's Write
	}
	return ev
}
