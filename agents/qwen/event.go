package qwen

import (
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents/claude"
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

// Identify names the call by its event's top-level keys.
func (qwen) Identify(event map[string]any) agent.CallID { return agent.TopLevelCall(event) }

// Recognise: Qwen Code sends Claude Code's shape, with tool names Gemini
// CLI's events also carry; only the hook's --agent flag tells it apart.
func (qwen) Recognise(map[string]any) bool { return false }

// tools maps Qwen Code's tools to Claude Code's.
var tools = map[string]agent.Tool{
	"run_shell_command": {Kind: agent.KindShell, Like: "Bash"},
	"read_file":         {Kind: agent.KindRead, Like: "Read", Fields: [][2]string{{"absolute_path", "file_path"}, {"path", "file_path"}}},
	"write_file":        {Kind: agent.KindWrite, Like: "Write", Fields: [][2]string{{"absolute_path", "file_path"}, {"path", "file_path"}}},
	"edit":              {Kind: agent.KindEdit, Like: "Edit", Fields: [][2]string{{"absolute_path", "file_path"}, {"path", "file_path"}}},
	"notebook_edit":     {Kind: agent.KindEdit, Like: "NotebookEdit"},
	"grep_search":       {Kind: agent.KindSearch, Like: "Grep", Fields: [][2]string{{"dir_path", "path"}, {"include", "glob"}}},
	"glob":              {Kind: agent.KindSearch, Like: "Glob", Fields: [][2]string{{"dir_path", "path"}}},
	"list_directory":    {Kind: agent.KindList, Like: "LS", Fields: [][2]string{{"dir_path", "path"}}},
	"web_fetch":         {Kind: agent.KindFetch, Like: "WebFetch"},
	"web_search":        {Kind: agent.KindFetch, Like: "WebSearch"},
	"agent":             {Kind: agent.KindAgent, Like: "Agent"},
	"lsp":               {Kind: agent.KindRead, Like: "LSP"},
	// Its own tools that touch no file the call names (0.24.4's
	// ToolNames): questions and plans for the person, its to-do list,
	// the steering of its own session.
	"ask_user_question": {Kind: agent.KindAsk, Like: "AskUserQuestion"},
	"exit_plan_mode":    {Kind: agent.KindAsk, Like: "ExitPlanMode"},
	"structured_output": {Kind: agent.KindAsk, Like: "StructuredOutput"},
	"report_findings":   {Kind: agent.KindAsk, Like: "ReportFindings"},
	"enter_plan_mode":   {Kind: agent.KindControl, Like: "EnterPlanMode"},
	"todo_write":        {Kind: agent.KindTodo, Like: "TodoWrite"},
	"task_create":       {Kind: agent.KindTodo, Like: "TaskCreate"},
	"task_update":       {Kind: agent.KindTodo, Like: "TaskUpdate"},
	"task_list":         {Kind: agent.KindTodo, Like: "TaskList"},
	"task_stop":         {Kind: agent.KindControl, Like: "TaskStop"},
	"skill":             {Kind: agent.KindControl, Like: "Skill"},
	"tool_search":       {Kind: agent.KindControl, Like: "ToolSearch"},
	// save_memory appends to ~/.qwen/QWEN.md, its own memory.
	"save_memory": {Kind: agent.KindMemory, Like: "save_memory"},
}

// qwenRenamed are tool names Qwen Code still accepts for tools it has
// renamed.
var qwenRenamed = map[string]string{"replace": "edit", "search_file_content": "grep_search", "task": "agent"}

func (qwen) Canonical(event map[string]any) agent.Call {
	tool := agent.Str(event, "tool_name")
	raw := event["tool_input"]
	name, input := tool, raw
	if tool == "tool_call" {
		// tool_call runs a deferred tool by name (matched in any case)
		// with its arguments (an object, or a JSON string): the call is
		// that tool's.
		if ti, ok := raw.(map[string]any); ok {
			if inner := agent.Str(ti, "name"); inner != "" {
				name = strings.ToLower(inner)
				if args, ok := agent.ObjectOrJSON(ti["arguments"]); ok {
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
	if t, ok := tools[name]; ok {
		ti, isObject := input.(map[string]any)
		if !isObject {
			return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: input}
		}
		in := agent.Rename(ti, t.Fields)
		dir := ""
		if name == "run_shell_command" {
			// The command runs in directory (the project root when absent).
			dir = agent.Str(ti, "directory")
		}
		return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: in, Dir: dir}
	}
	if strings.HasPrefix(name, "mcp__") {
		return agent.MCPCall(tool, name, input)
	}
	return agent.Call{Tool: tool, Kind: agent.KindOther, Like: name, LikeInput: input}
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

// Prompts: Qwen Code shows its own prompt for an ask.
func (qwen) Prompts(map[string]any) bool { return true }

// Render, as measured against the real Qwen Code (0.24.4):
//
//	deny        stdout JSON "deny", the reason on stderr, exit 2 (Qwen Code
//	            sends the model stderr on exit 2, else the JSON's reason)
//	ask         stdout JSON "ask", its reason saying a person must approve, exit 0
//	allow (any) nothing, exit 0: its own approval has already been given
func (qwen) Render(_ map[string]any, d *wire.Decision) agent.Answer {
	switch d.Verdict {
	case wire.Deny:
		r := agent.DenyReason(d)
		return agent.Answer{Stdout: claude.JSON(wire.Deny, r), Stderr: r + "\n", Exit: agent.ExitBlock}
	case wire.Ask:
		return agent.Answer{Stdout: claude.JSON(wire.Ask, personMustApprove(d.Reason)), Exit: agent.ExitOK}
	case wire.Allow:
		return agent.Answer{Exit: agent.ExitOK}
	}
	r := agent.UnknownVerdict(d)
	return agent.Answer{Stdout: claude.JSON(wire.Deny, r), Stderr: r + "\n", Exit: agent.ExitBlock}
}

// Example is Qwen Code's PreToolUse event for a Claude Code call: its
// own tool names, Claude Code's field names.
func (qwen) Example(tool string, input map[string]any, cwd string) map[string]any {
	names := map[string]string{"Bash": "run_shell_command", "Read": "read_file", "Write": "write_file", "Edit": "edit", "Grep": "grep_search", "Glob": "glob", "LS": "list_directory", "WebFetch": "web_fetch"}
	name, ok := names[tool]
	if !ok {
		name = tool
	}
	return map[string]any{"session_id": "agentjail-try", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": name, "tool_input": agent.CopyRenamed(input, nil)}
}
