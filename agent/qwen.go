package agent

import (
	"strings"

	"github.com/agentjail/agentjail/internal/wire"
)

// qwen is Qwen Code: PreToolUse in Claude Code's shape (measured with
// 0.24.4: session_id, transcript_path, cwd, hook_event_name, timestamp,
// permission_mode, prompt_id, tool_name, tool_input, tool_use_id,
// tool_call_id) with its own tool names, which it shares with Gemini CLI
// (run_shell_command, read_file, write_file, edit, grep_search, glob,
// list_directory, web_fetch ...), and Claude Code's field names
// (file_path, content, old_string, new_string, replace_all).
//
// Qwen Code runs PreToolUse after its own approval, on calls it already
// lets run: a hook's "allow" cannot widen anything, and the calls its own
// rules refuse never reach the hook. Headless, an "ask" is a deny whose
// reason the model reads as it is; interactive, Qwen Code asks the user.
type qwen struct{}

func (qwen) Name() string { return "qwen" }

// Recognise: Qwen Code sends Claude Code's shape, with tool names Gemini
// CLI's events also carry; only the hook's --agent flag tells it apart.
func (qwen) Recognise(map[string]any) bool { return false }

// qwenTools maps Qwen Code's tools to Claude Code's.
var qwenTools = map[string]struct {
	kind, like string
	fields     [][2]string
}{
	"run_shell_command": {KindShell, "Bash", nil},
	"read_file":         {KindRead, "Read", [][2]string{{"absolute_path", "file_path"}, {"path", "file_path"}}},
	"write_file":        {KindWrite, "Write", [][2]string{{"absolute_path", "file_path"}, {"path", "file_path"}}},
	"edit":              {KindEdit, "Edit", [][2]string{{"absolute_path", "file_path"}, {"path", "file_path"}}},
	"notebook_edit":     {KindEdit, "NotebookEdit", nil},
	"grep_search":       {KindSearch, "Grep", [][2]string{{"dir_path", "path"}, {"include", "glob"}}},
	"glob":              {KindSearch, "Glob", [][2]string{{"dir_path", "path"}}},
	"list_directory":    {KindList, "LS", [][2]string{{"dir_path", "path"}}},
	"web_fetch":         {KindFetch, "WebFetch", nil},
	"web_search":        {KindFetch, "WebSearch", nil},
	"agent":             {KindAgent, "Agent", nil},
}

// qwenRenamed are tool names Qwen Code still accepts for tools it has
// renamed.
var qwenRenamed = map[string]string{"replace": "edit", "search_file_content": "grep_search", "task": "agent"}

func (qwen) Canonical(event map[string]any) Call {
	tool := str(event, "tool_name")
	raw := event["tool_input"]
	name, input := tool, raw
	if tool == "tool_call" {
		// tool_call runs a deferred tool by name (matched in any case)
		// with its arguments (an object, or a JSON string): the call is
		// that tool's.
		if ti, ok := raw.(map[string]any); ok {
			if inner := str(ti, "name"); inner != "" {
				name = strings.ToLower(inner)
				if args, ok := objectOrJSON(ti["arguments"]); ok {
					input = args
				} else {
					input = ti["arguments"]
				}
			}
		}
	}
	if n, ok := qwenRenamed[name]; ok {
		name = n
	}
	if t, ok := qwenTools[name]; ok {
		ti, isObject := input.(map[string]any)
		if !isObject {
			return Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: input}
		}
		in := rename(ti, t.fields)
		dir := ""
		if name == "run_shell_command" {
			// The command runs in directory (the project root when absent).
			dir = str(ti, "directory")
		}
		return Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: in, Dir: dir}
	}
	if strings.HasPrefix(name, "mcp__") {
		return mcpCall(tool, name, input)
	}
	return Call{Tool: tool, Kind: KindOther, Like: name, LikeInput: input}
}

// personMustApprove is the reason of an ask to Qwen Code, which shows it
// to the user where it can prompt and to the model as a refusal where it
// cannot (a headless run): either way it says that a person decides.
func personMustApprove(reason string) string {
	if reason == "" {
		reason = "agentjail's policies want a person to approve this call"
	}
	return strings.TrimRight(reason, ". ") + ". A person must approve this call: where no one can be asked, ask the user to run it themselves in a terminal, or to allow it in agentjail's policies (`agentjail try` shows which rule fired)."
}

// Render, as measured against the real Qwen Code (0.24.4):
//
//	deny        stdout JSON "deny", the reason on stderr, exit 2 (Qwen Code
//	            sends the model stderr on exit 2, else the JSON's reason)
//	ask         stdout JSON "ask", its reason saying a person must approve, exit 0
//	allow (any) nothing, exit 0: its own approval has already been given
func (qwen) Render(_ map[string]any, d *wire.Decision) Answer {
	switch d.Verdict {
	case wire.Deny:
		r := denyReason(d)
		return Answer{claudeJSON(wire.Deny, r), r + "\n", ExitBlock}
	case wire.Ask:
		return Answer{claudeJSON(wire.Ask, personMustApprove(d.Reason)), "", ExitOK}
	case wire.Allow:
		return Answer{Exit: ExitOK}
	}
	r := unknownVerdict(d)
	return Answer{claudeJSON(wire.Deny, r), r + "\n", ExitBlock}
}
