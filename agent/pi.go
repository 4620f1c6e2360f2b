package agent

import (
	_ "embed"
	"strings"

	"github.com/agentjail/agentjail/internal/wire"
)

// pi is the pi coding agent (npm @mariozechner/pi-coding-agent). pi has
// no hook commands: its extensions (TypeScript or JavaScript modules it
// loads into its own process) may block a tool call from a "tool_call"
// handler. agentjail's extension (PiExtension) runs the hook with pi's
// event as it receives it, plus the folder and session pi runs in:
//
//	{"hook_event_name":"tool_call","toolName":"bash","toolCallId":"call_1",
//	 "input":{"command":"ls"},"cwd":"/w","session_id":"..."}
//
// and blocks the call when the hook exits 2, with the hook's stderr as
// the reason pi hands the model as the tool's result.
type pi struct{}

func (pi) Name() string { return "pi" }

// PiExtension is agentjail's pi extension, as install writes it into
// pi's extensions folder after PiConfigPrefix puts its settings in.
//
//go:embed pi_extension.ts
var PiExtension string

// PiConfigPrefix starts the one line of PiExtension that install
// rewrites: the rest of that line is a JSON object ({"command",
// "timeoutMs", "failClosed"}) and a semicolon.
const PiConfigPrefix = "const config = "

// Recognise: "tool_call" is pi's name for the event, and no other agent
// sends it.
func (pi) Recognise(event map[string]any) bool {
	_, hasTool := event["toolName"].(string)
	return str(event, "hook_event_name") == "tool_call" && hasTool
}

// piTools maps pi's built-in tools to Claude Code's, with the field
// renames that make their inputs read alike. edit is left to Canonical.
var piTools = map[string]struct {
	kind, like string
	fields     [][2]string
}{
	"bash":  {KindShell, "Bash", nil},
	"read":  {KindRead, "Read", [][2]string{{"path", "file_path"}}},
	"write": {KindWrite, "Write", [][2]string{{"path", "file_path"}}},
	"edit":  {KindEdit, "Edit", [][2]string{{"path", "file_path"}}},
	"grep":  {KindSearch, "Grep", nil},
	"find":  {KindSearch, "Glob", nil},
	"ls":    {KindList, "LS", nil},
}

func (pi) Canonical(event map[string]any) Call {
	tool := str(event, "toolName")
	raw := event["input"]
	in, isObject := raw.(map[string]any)
	t, known := piTools[tool]
	switch {
	case known && isObject:
		in = rename(in, t.fields)
		for _, k := range []string{"file_path", "path"} {
			if p, ok := in[k].(string); ok && t.kind != KindShell {
				in[k] = piPath(p)
			}
		}
		if tool == "edit" {
			return piEdit(tool, in)
		}
		return Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: in}
	case known:
		return Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: raw}
	case strings.HasPrefix(tool, "mcp__"):
		return mcpCall(tool, tool, raw)
	case shellNames[strings.ToLower(tool)]:
		return Call{Tool: tool, Kind: KindShell, Like: "Bash", LikeInput: raw}
	}
	// A tool an extension registered: pi runs its code, whatever it is.
	return Call{Tool: tool, Kind: KindOther, Like: tool, LikeInput: raw}
}

// piEdit reads pi's edit, {path, edits: [{oldText, newText}, ...]}: one
// replacement is Claude Code's Edit, more are its MultiEdit. pi matches
// every oldText against the file as it was, MultiEdit each against the
// file the earlier ones left; for the unique, non-overlapping texts pi
// requires the two come to the same file.
func piEdit(tool string, in map[string]any) Call {
	edits, _ := in["edits"].([]any)
	var out []any
	for _, e := range edits {
		m, ok := e.(map[string]any)
		if !ok {
			return Call{Tool: tool, Kind: KindEdit, Like: "Edit", LikeInput: in}
		}
		out = append(out, rename(m, [][2]string{{"oldText", "old_string"}, {"newText", "new_string"}}))
	}
	if len(out) == 1 {
		one := out[0].(map[string]any)
		single := rename(in, nil)
		delete(single, "edits")
		single["old_string"], single["new_string"] = one["old_string"], one["new_string"]
		return Call{Tool: tool, Kind: KindEdit, Like: "Edit", LikeInput: single}
	}
	multi := rename(in, nil)
	if out != nil {
		multi["edits"] = out
	}
	return Call{Tool: tool, Kind: KindEdit, Like: "MultiEdit", LikeInput: multi}
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
//	allow (any) nothing, exit 0: the extension returns nothing
func (pi) Render(_ map[string]any, d *wire.Decision) Answer {
	switch d.Verdict {
	case wire.Deny:
		return Answer{Stderr: denyReason(d) + "\n", Exit: ExitBlock}
	case wire.Ask:
		return Answer{Stderr: humanMustApprove("pi", d.Reason) + "\n", Exit: ExitBlock}
	case wire.Allow:
		return Answer{Exit: ExitOK}
	}
	return Answer{Stderr: unknownVerdict(d) + "\n", Exit: ExitBlock}
}
