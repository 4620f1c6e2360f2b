package gemini

import (
	"encoding/json"
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/internal/wire"
)

// gemini is the Gemini CLI: BeforeTool with tool_name and tool_input, its
// own tool names (run_shell_command, read_file, write_file, replace,
// glob, grep_search, list_directory, web_fetch, MCP tools as
// mcp_<server>_<tool>). It reads a top-level decision and ignores Claude
// Code's fields; an "ask" hangs a headless run, and the hook cannot tell a
// headless run from an interactive one, so an ask is answered as a deny.
type gemini struct{}

func (gemini) Name() string { return "gemini" }

// Identify names the call by its event's top-level keys.
func (gemini) Identify(event map[string]any) agent.CallID { return agent.TopLevelCall(event) }

func (gemini) Recognise(event map[string]any) bool {
	return agent.Str(event, "hook_event_name") == "BeforeTool"
}

// tools maps Gemini CLI's tools to Claude Code's, with the field
// renames that make their inputs read alike.
var tools = map[string]agent.Tool{
	"run_shell_command":   {Kind: agent.KindShell, Like: "Bash"},
	"read_file":           {Kind: agent.KindRead, Like: "Read", Fields: [][2]string{{"absolute_path", "file_path"}, {"path", "file_path"}}},
	"read_many_files":     {Kind: agent.KindRead, Like: "Read", Fields: [][2]string{{"include", "paths"}}},
	"write_file":          {Kind: agent.KindWrite, Like: "Write", Fields: [][2]string{{"absolute_path", "file_path"}, {"path", "file_path"}}},
	"replace":             {Kind: agent.KindEdit, Like: "Edit", Fields: [][2]string{{"absolute_path", "file_path"}, {"path", "file_path"}}},
	"glob":                {Kind: agent.KindSearch, Like: "Glob", Fields: [][2]string{{"dir_path", "path"}}},
	"grep_search":         {Kind: agent.KindSearch, Like: "Grep", Fields: [][2]string{{"dir_path", "path"}, {"include", "glob"}}},
	"search_file_content": {Kind: agent.KindSearch, Like: "Grep", Fields: [][2]string{{"dir_path", "path"}, {"include", "glob"}}},
	"list_directory":      {Kind: agent.KindList, Like: "LS", Fields: [][2]string{{"dir_path", "path"}}},
	"web_fetch":           {Kind: agent.KindFetch, Like: "WebFetch"},
	"google_web_search":   {Kind: agent.KindFetch, Like: "WebSearch"},
	"get_internal_docs":   {Kind: agent.KindRead, Like: "Read", Fields: [][2]string{{"path", "file_path"}}},
	"invoke_agent":        {Kind: agent.KindAgent, Like: "Agent"},
	// Its own tools that touch no file the call names (0.61.0's
	// registry): questions and plans for the person, its to-do list and
	// task tracker, and the steering of its own session.
	"ask_user":                  {Kind: agent.KindAsk, Like: "AskUserQuestion"},
	"complete_task":             {Kind: agent.KindAsk, Like: "complete_task"},
	"exit_plan_mode":            {Kind: agent.KindAsk, Like: "ExitPlanMode"},
	"enter_plan_mode":           {Kind: agent.KindControl, Like: "EnterPlanMode"},
	"write_todos":               {Kind: agent.KindTodo, Like: "TodoWrite"},
	"tracker_create_task":       {Kind: agent.KindTodo, Like: "TaskCreate"},
	"tracker_update_task":       {Kind: agent.KindTodo, Like: "TaskUpdate"},
	"tracker_get_task":          {Kind: agent.KindTodo, Like: "TaskGet"},
	"tracker_list_tasks":        {Kind: agent.KindTodo, Like: "TaskList"},
	"tracker_add_dependency":    {Kind: agent.KindTodo, Like: "TaskUpdate"},
	"tracker_visualize":         {Kind: agent.KindTodo, Like: "TaskList"},
	"update_topic":              {Kind: agent.KindControl, Like: "update_topic"},
	"activate_skill":            {Kind: agent.KindControl, Like: "Skill"},
	"list_background_processes": {Kind: agent.KindControl, Like: "BashOutput"},
	"read_background_output":    {Kind: agent.KindControl, Like: "BashOutput"},
	// Older versions' memory tool appends to ~/.gemini/GEMINI.md.
	"save_memory": {Kind: agent.KindMemory, Like: "save_memory"},
}

// findURLs returns the first max URLs in s: what the pattern
// (?i)\bhttps?://[^\s"'<>`]+ finds, written out by hand so that the hook
// does not link package regexp (whose code and tables are pages the hook
// would fault in on every start). Like the pattern, it matches at a word
// boundary, folds case (the long s, U+017F, is an "s" too), and runs to
// the next space, quote, angle bracket or backquote.
func findURLs(s string, max int) []string {
	var urls []string
	for i := 0; i < len(s) && len(urls) < max; {
		if n := urlAt(s, i); n > 0 {
			urls = append(urls, s[i:i+n])
			i += n
			continue
		}
		i++
	}
	return urls
}

// urlAt is the length of the URL that starts at s[i], or 0.
func urlAt(s string, i int) int {
	if i > 0 && isWordByte(s[i-1]) {
		return 0
	}
	j := i
	for _, c := range []byte("http") {
		if j >= len(s) || s[j]|0x20 != c {
			return 0
		}
		j++
	}
	switch {
	case strings.HasPrefix(s[j:], "s") || strings.HasPrefix(s[j:], "S"):
		j++
	case strings.HasPrefix(s[j:], "\u017f"):
		j += len("\u017f")
	}
	if !strings.HasPrefix(s[j:], "://") {
		return 0
	}
	j += len("://")
	start := j
	for j < len(s) && !strings.ContainsRune(" \t\n\f\r\"'<>`", rune(s[j])) {
		j++
	}
	if j == start {
		return 0
	}
	return j - i
}

// isWordByte is \w in the pattern's sense: ASCII letters, digits, _.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z'
}

func (gemini) Canonical(event map[string]any) agent.Call {
	tool := agent.Str(event, "tool_name")
	raw := event["tool_input"]
	ti, isObject := raw.(map[string]any)
	if t, ok := tools[tool]; ok {
		if !isObject {
			return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: raw}
		}
		in := agent.Rename(ti, t.Fields)
		dir := ""
		switch tool {
		case "run_shell_command":
			// The command runs in dir_path (the project root when absent).
			dir = agent.Str(ti, "dir_path")
		case "replace":
			// Gemini replaces exactly expected_replacements occurrences
			// (1 when absent): more than one is Claude Code's replace_all.
			if n, ok := in["expected_replacements"].(json.Number); ok {
				if v, err := n.Int64(); err == nil && v > 1 {
					in["replace_all"] = true
				}
			}
		case "web_fetch":
			// The URLs are inside the prompt.
			if _, ok := in["url"]; !ok {
				if urls := findURLs(agent.Str(ti, "prompt"), 20); len(urls) > 0 {
					in["url"] = urls[0]
					list := make([]any, len(urls))
					for i, u := range urls {
						list[i] = u
					}
					in["urls"] = list
				}
			}
		}
		return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: in, Dir: dir}
	}
	switch {
	case strings.HasPrefix(tool, "mcp__"):
		return agent.MCPCall(tool, tool, raw)
	case strings.HasPrefix(tool, "mcp_"):
		// mcp_<server>_<tool>: server and tool cannot be told apart, so
		// the whole rest is read as the tool's name.
		return agent.MCPCall(tool, "mcp__"+tool[len("mcp_"):], raw)
	case Agent.ShellTool(tool):
		return agent.Call{Tool: tool, Kind: agent.KindShell, Like: "Bash", LikeInput: raw}
	}
	return agent.Call{Tool: tool, Kind: agent.KindOther, Like: tool, LikeInput: raw}
}

// geminiOutput is the answer Gemini CLI reads from stdout.
type geminiOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// Render, per Gemini CLI's contract:
//
//	deny        stdout {"decision":"deny","reason":R}, R on stderr, exit 2 (either blocks)
//	ask         the same deny, its reason saying a human must approve
//	allow (any) nothing, exit 0
func (gemini) Render(_ map[string]any, d *wire.Decision) agent.Answer {
	deny := func(r string) agent.Answer {
		return agent.Answer{Stdout: agent.EncodeJSON(geminiOutput{"deny", r}), Stderr: r + "\n", Exit: agent.ExitBlock}
	}
	switch d.Verdict {
	case wire.Deny:
		return deny(agent.DenyReason(d))
	case wire.Ask:
		return deny(agent.HumanMustApprove("Gemini CLI", d.Reason))
	case wire.Allow:
		return agent.Answer{Exit: agent.ExitOK}
	}
	return deny(agent.UnknownVerdict(d))
}

// Notice: Gemini CLI shows a hook's systemMessage to the user (as a
// warning); with no decision the call goes on.
func (gemini) Notice(_ map[string]any, msg string) agent.Answer {
	return agent.Answer{Stdout: agent.EncodeJSON(agent.SystemMessage{SystemMessage: msg}), Stderr: msg + "\n", Exit: agent.ExitOK}
}

// Example is Gemini CLI's BeforeTool event for a Claude Code call.
func (gemini) Example(tool string, input map[string]any, cwd string) map[string]any {
	names := map[string]string{"Bash": "run_shell_command", "Read": "read_file", "Write": "write_file", "Edit": "replace", "Grep": "grep_search", "Glob": "glob", "LS": "list_directory", "WebFetch": "web_fetch"}
	name, ok := names[tool]
	if !ok {
		name = tool
	}
	in := agent.CopyRenamed(input, nil)
	if name == "grep_search" || name == "glob" || name == "list_directory" {
		in = agent.CopyRenamed(input, map[string]string{"path": "dir_path"})
	}
	return map[string]any{"session_id": "agentjail-try", "cwd": cwd, "hook_event_name": "BeforeTool", "tool_name": name, "tool_input": in}
}

// geminiRewrite is Gemini CLI's answer that replaces a tool's arguments.
type geminiRewrite struct {
	HookSpecificOutput struct {
		HookEventName string         `json:"hookEventName"`
		ToolInput     map[string]any `json:"tool_input"`
	} `json:"hookSpecificOutput"`
}

// Confine: Gemini CLI 0.61.0 replaces a call's arguments with the
// hook's hookSpecificOutput.tool_input (whole: it is validated against
// the tool's schema), then runs its own policy and confirmation on the
// rewritten call; a hook's allow would not change them, so none is sent.
// It tells the model that a hook changed the call.
func (gemini) Confine(event map[string]any, d *wire.Decision, wrap func(string) string) (agent.Answer, bool) {
	if d.Verdict != wire.Allow || agent.Str(event, "tool_name") != "run_shell_command" {
		return agent.Answer{}, false
	}
	in, ok := agent.RewriteCommand(event["tool_input"], "command", wrap)
	if !ok {
		return agent.Answer{}, false
	}
	var out geminiRewrite
	out.HookSpecificOutput.HookEventName, out.HookSpecificOutput.ToolInput = "BeforeTool", in
	return agent.Answer{Stdout: agent.EncodeJSON(out), Exit: agent.ExitOK}, true
}
