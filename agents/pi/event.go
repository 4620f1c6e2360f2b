package pi

import (
	_ "embed"
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/internal/wire"
)

// pi is the pi coding agent (npm @mariozechner/pi-coding-agent). pi has
// no hook commands: its extensions (TypeScript or JavaScript modules it
// loads into its own process) may block a tool call from a "tool_call"
// handler. agentjail's extension (Extension) runs the hook with pi's
// event as it receives it, plus the folder and session pi runs in:
//
//	{"hook_event_name":"tool_call","toolName":"bash","toolCallId":"call_1",
//	 "input":{"command":"ls"},"cwd":"/w","session_id":"..."}
//
// and blocks the call when the hook exits 2, with the hook's stderr as
// the reason pi hands the model as the tool's result. After the tool has
// run, it sends the same fields as "tool_result" to the hook run with
// --post (Agent.PostEvent), which the daemon matches with the decision
// by session_id and toolCallId.
type pi struct{}

func (pi) Name() string { return "pi" }

// Identify names the call by its event's top-level keys.
func (pi) Identify(event map[string]any) agent.CallID { return agent.TopLevelCall(event) }

// Extension is agentjail's pi extension, as install writes it into
// pi's extensions folder after ConfigPrefix puts its settings in.
//
//go:embed extension.ts
var Extension string

// ConfigPrefix starts the one line of Extension that install
// rewrites: the rest of that line is a JSON object ({"command",
// "timeoutMs", "failClosed", "post": {"command", "timeoutMs"}}, post
// absent when no post-tool hook is wired) and a semicolon.
const ConfigPrefix = "const config = "

// Recognise: "tool_call" is pi's name for the event, and no other agent
// sends it.
func (pi) Recognise(event map[string]any) bool {
	_, hasTool := event["toolName"].(string)
	return agent.Str(event, "hook_event_name") == "tool_call" && hasTool
}

// tools maps pi's built-in tools to Claude Code's, with the field
// renames that make their inputs read alike. edit is left to Canonical.
var tools = map[string]agent.Tool{
	"bash":  {Kind: agent.KindShell, Like: "Bash"},
	"read":  {Kind: agent.KindRead, Like: "Read", Fields: [][2]string{{"path", "file_path"}}},
	"write": {Kind: agent.KindWrite, Like: "Write", Fields: [][2]string{{"path", "file_path"}}},
	"edit":  {Kind: agent.KindEdit, Like: "Edit", Fields: [][2]string{{"path", "file_path"}}},
	"grep":  {Kind: agent.KindSearch, Like: "Grep"},
	"find":  {Kind: agent.KindSearch, Like: "Glob"},
	"ls":    {Kind: agent.KindList, Like: "LS"},
}

func (pi) Canonical(event map[string]any) agent.Call {
	tool := agent.Str(event, "toolName")
	raw := event["input"]
	in, isObject := raw.(map[string]any)
	t, known := tools[tool]
	switch {
	case known && isObject:
		in = agent.Rename(in, t.Fields)
		for _, k := range []string{"file_path", "path"} {
			if p, ok := in[k].(string); ok && t.Kind != agent.KindShell {
				in[k] = piPath(p)
			}
		}
		if tool == "edit" {
			return piEdit(tool, in)
		}
		return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: in}
	case known:
		return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: raw}
	case strings.HasPrefix(tool, "mcp__"):
		return agent.MCPCall(tool, tool, raw)
	case Agent.ShellTool(tool):
		return agent.Call{Tool: tool, Kind: agent.KindShell, Like: "Bash", LikeInput: raw}
	}
	// A tool an extension registered: pi runs its code, whatever it is.
	return agent.Call{Tool: tool, Kind: agent.KindOther, Like: tool, LikeInput: raw}
}

// piEdit reads pi's edit, {path, edits: [{oldText, newText}, ...]}: one
// replacement is Claude Code's Edit, more are its MultiEdit. pi matches
// every oldText against the file as it was, MultiEdit each against the
// file the earlier ones left; for the unique, non-overlapping texts pi
// requires the two come to the same file.
func piEdit(tool string, in map[string]any) agent.Call {
	edits, _ := in["edits"].([]any)
	var out []any
	for _, e := range edits {
		m, ok := e.(map[string]any)
		if !ok {
			return agent.Call{Tool: tool, Kind: agent.KindEdit, Like: "Edit", LikeInput: in}
		}
		out = append(out, agent.Rename(m, [][2]string{{"oldText", "old_string"}, {"newText", "new_string"}}))
	}
	if len(out) == 1 {
		one := out[0].(map[string]any)
		single := agent.Rename(in, nil)
		delete(single, "edits")
		single["old_string"], single["new_string"] = one["old_string"], one["new_string"]
		return agent.Call{Tool: tool, Kind: agent.KindEdit, Like: "Edit", LikeInput: single}
	}
	multi := agent.Rename(in, nil)
	if out != nil {
		multi["edits"] = out
	}
	return agent.Call{Tool: tool, Kind: agent.KindEdit, Like: "MultiEdit", LikeInput: multi}
}

// piPath is a path as pi's file tools read it (expandPath in its
// tools/path-utils): a leading "@" dropped, and the Unicode spaces
// U+00A0, U+2000-U+200A, U+202F, U+205F and U+3000 read as plain
// spaces. "~/" is left for the daemon, which expands it the same way.
func piPath(p string) string {
	p = strings.TrimPrefix(p, "@")
	return strings.Map(func(r rune) rune {
		if r == 0xa0 || 0x2000 <= r && r <= 0x200a || r == 0x202f || r == 0x205f || r == 0x3000 {
			return ' '
		}
		return r
	}, p)
}

// Render, per the contract between the hook and agentjail's extension:
//
//	deny        reason on stderr, exit 2 (the extension returns {block: true, reason})
//	ask         the same deny, its reason saying a human must approve
//	allow (any) nothing, exit 0: the extension returns nothing (a shell
//	            call's command rewritten to run in the jail: Confine)
func (pi) Render(_ map[string]any, d *wire.Decision) agent.Answer {
	switch d.Verdict {
	case wire.Deny:
		return agent.Answer{Stderr: agent.DenyReason(d) + "\n", Exit: agent.ExitBlock}
	case wire.Ask:
		return agent.Answer{Stderr: agent.HumanMustApprove("pi", d.Reason) + "\n", Exit: agent.ExitBlock}
	case wire.Allow:
		return agent.Answer{Exit: agent.ExitOK}
	}
	return agent.Answer{Stderr: agent.UnknownVerdict(d) + "\n", Exit: agent.ExitBlock}
}

// piRewrite is the answer that has agentjail's extension replace the
// shell call's command (event.input.command, which pi lets a tool_call
// handler change in place) before pi runs it.
type piRewrite struct {
	Command string `json:"command"`
}

// Confine: pi 0.73.1 runs a tool with event.input as its tool_call
// handlers leave it (changed in place, not validated again); our
// extension takes the command of an allow that carries one, and nothing
// else of it.
func (p pi) Confine(event map[string]any, d *wire.Decision, wrap func(string) string) (agent.Answer, bool) {
	if d.Verdict != wire.Allow || p.Canonical(event).Kind != agent.KindShell {
		return agent.Answer{}, false
	}
	in, ok := agent.RewriteCommand(event["input"], "command", wrap)
	if !ok {
		return agent.Answer{}, false
	}
	return agent.Answer{Stdout: agent.EncodeJSON(piRewrite{in["command"].(string)}), Exit: agent.ExitOK}, true
}

// Example is the event agentjail's extension sends for a Claude Code
// call: pi's own tool names, path for file_path, an edit as a list of
// replacements.
func (pi) Example(tool string, input map[string]any, cwd string) map[string]any {
	names := map[string]string{"Bash": "bash", "Read": "read", "Write": "write", "Edit": "edit", "Grep": "grep", "Glob": "find", "LS": "ls"}
	name, ok := names[tool]
	if !ok {
		name = tool
	}
	in := agent.CopyRenamed(input, map[string]string{"file_path": "path"})
	if _, has := in["old_string"]; name == "edit" && has {
		in["edits"] = []any{map[string]any{"oldText": in["old_string"], "newText": in["new_string"]}}
		delete(in, "old_string")
		delete(in, "new_string")
	}
	return map[string]any{"hook_event_name": "tool_call", "toolName": name, "toolCallId": "agentjail-try", "input": in, "cwd": cwd}
}
