package cline

import (
	"encoding/json"
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/internal/wire"
)

// cline is the Cline CLI (npm cline 3.x, on Cline's SDK): an executable
// file named PreToolUse in ~/.cline/hooks/ (or a project's
// .clinerules/hooks/ or .cline/hooks/) gets {"hookName":"tool_call",
// "tool_call":{"id","name","input"},"preToolUse":{"toolName",
// "parameters"},"workspaceRoots":[...],"agent_id","parent_agent_id",...}
// on stdin, the input as the tool got it under tool_call and again, every
// value that is not a string turned into JSON text, under preToolUse.
// Cline reads only the JSON the hook prints, whatever its exit code:
// {"cancel":true} stops the whole run (a subagent's run, for a
// subagent's call) before the tool runs, and the model is never told why;
// nothing lets one call be refused and the run go on (an overrideInput
// can replace the call's input, but the last hook to give one wins, and
// an MCP tool given a non-object runs with no arguments). It cannot ask.
// The VS Code extension's hooks send the older shape (hookName
// "PreToolUse", preToolUse alone) and the older tool names
// (execute_command, read_file, write_to_file ...): both are read.
type cline struct{}

func (cline) Name() string { return "cline" }

func (cline) Recognise(event map[string]any) bool {
	_, hasCall := event["tool_call"]
	_, hasPre := event["preToolUse"]
	_, hasVersion := event["clineVersion"]
	name := agent.Str(event, "hookName")
	return name == "tool_call" && hasCall || name == "PreToolUse" && hasPre && hasVersion
}

// tools maps Cline's tools to Claude Code's: the SDK's own names
// first, then those of the VS Code extension (whose parameters are all
// strings), which the SDK still reads as aliases.
var tools = map[string]agent.Tool{
	"run_commands":      {Kind: agent.KindShell, Like: "Bash"},
	"read_files":        {Kind: agent.KindRead, Like: "Read"},
	"search_codebase":   {Kind: agent.KindSearch, Like: "Grep"},
	"fetch_web_content": {Kind: agent.KindFetch, Like: "WebFetch"},
	"editor":            {Kind: agent.KindEdit, Like: "Edit"},
	"spawn_agent":       {Kind: agent.KindAgent, Like: "Task"},
	"skills":            {Kind: agent.KindControl, Like: "Skill"},
	"ask_question":      {Kind: agent.KindAsk, Like: "AskUserQuestion"},
	"submit_and_exit":   {Kind: agent.KindAsk, Like: "submit_and_exit"},

	"execute_command":            {Kind: agent.KindShell, Like: "Bash"},
	"bash":                       {Kind: agent.KindShell, Like: "Bash"},
	"read_file":                  {Kind: agent.KindRead, Like: "Read"},
	"write_to_file":              {Kind: agent.KindWrite, Like: "Write"},
	"replace_in_file":            {Kind: agent.KindEdit, Like: "Edit"},
	"apply_diff":                 {Kind: agent.KindEdit, Like: "Edit"},
	"list_files":                 {Kind: agent.KindList, Like: "LS"},
	"search_files":               {Kind: agent.KindSearch, Like: "Grep"},
	"list_code_definition_names": {Kind: agent.KindSearch, Like: "Grep"},
	"web_fetch":                  {Kind: agent.KindFetch, Like: "WebFetch"},
	"browser_action":             {Kind: agent.KindFetch, Like: "WebFetch"},
	"new_task":                   {Kind: agent.KindAgent, Like: "Task"},
	"use_skill":                  {Kind: agent.KindControl, Like: "Skill"},
	"ask_followup_question":      {Kind: agent.KindAsk, Like: "AskUserQuestion"},
	"attempt_completion":         {Kind: agent.KindAsk, Like: "attempt_completion"},
	"plan_mode_respond":          {Kind: agent.KindAsk, Like: "ExitPlanMode"},
	"focus_chain":                {Kind: agent.KindTodo, Like: "TodoWrite"},
	"load_mcp_documentation":     {Kind: agent.KindRead, Like: "ReadMcpResourceTool"},
}

func (cline) Canonical(event map[string]any) agent.Call {
	tool, raw := clineToolCall(event)
	dir := ""
	if roots, ok := event["workspaceRoots"].([]any); ok && len(roots) > 0 {
		// Cline runs commands from the workspace root and names it
		// nowhere else; the event has no cwd.
		dir, _ = roots[0].(string)
	}
	if c, isPatch := agent.PatchCall(tool, raw); isPatch {
		c.Dir = dir
		return c
	}
	in, isObject := raw.(map[string]any)
	t, known := tools[tool]
	switch {
	case !known && strings.HasPrefix(tool, "team_"):
		// Agent teams: teammates are agents that run tools of their own.
		return agent.Call{Tool: tool, Kind: agent.KindAgent, Like: tool, LikeInput: raw, Dir: dir}
	case !known && strings.Contains(tool, "__"):
		// MCP tools are named server__tool.
		c := agent.MCPCall(tool, "mcp__"+tool, raw)
		c.Dir = dir
		return c
	case !known:
		return agent.Call{Tool: tool, Kind: agent.KindOther, Like: tool, LikeInput: raw, Dir: dir}
	}
	c := agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: raw, Dir: dir}
	switch t.Kind {
	case agent.KindShell:
		// The SDK takes a list of commands, each a command line or an
		// argument vector run without a shell; all are judged as one
		// script. What cannot be read goes on as it came: the daemon
		// says the command is missing.
		if cmds, ok := clineCommands(raw); ok {
			out := map[string]any{"command": strings.Join(cmds, "\n")}
			if isObject {
				for k, v := range in {
					if k != "commands" && k != "command" && k != "cmd" && k != "args" {
						out[k] = v
					}
				}
			}
			c.LikeInput = out
		}
	case agent.KindRead:
		if paths := clinePaths(raw); len(paths) > 0 {
			c.LikeInput = pathsInput(paths)
		}
	case agent.KindWrite, agent.KindEdit, agent.KindList:
		if isObject {
			out := agent.Rename(in, [][2]string{{"path", "file_path"}, {"content", "content"}, {"old_text", "old_string"}, {"new_text", "new_string"}})
			if edits, ok := searchReplaceEdits(agent.Str(in, "diff")); ok {
				// replace_in_file's and apply_diff's SEARCH/REPLACE blocks
				// are a MultiEdit's edits, judged as one is.
				c.Like, out["edits"] = "MultiEdit", edits
			}
			if tool == "editor" {
				// The editor makes the file from new_text when there is
				// no old_text and no insert_line: a write.
				if old, _ := in["old_text"].(string); old == "" && in["insert_line"] == nil {
					c.Kind, c.Like = agent.KindWrite, "Write"
					out["content"] = in["new_text"]
				}
			}
			c.LikeInput = out
		}
	case agent.KindSearch:
		if isObject {
			out := agent.Rename(in, [][2]string{{"regex", "pattern"}, {"file_pattern", "glob"}})
			if qs := stringsOf(in["queries"]); len(qs) > 0 {
				out["pattern"] = qs[0]
			}
			c.LikeInput = out
		} else if qs := stringsOf(raw); len(qs) > 0 {
			c.LikeInput = map[string]any{"pattern": qs[0], "queries": raw}
		}
	case agent.KindFetch:
		if isObject {
			out := agent.Rename(in, nil)
			var urls []any
			if reqs, ok := in["requests"].([]any); ok {
				for _, r := range reqs {
					if m, ok := r.(map[string]any); ok && agent.Str(m, "url") != "" {
						urls = append(urls, m["url"])
					}
				}
			}
			if len(urls) > 0 {
				out["url"], out["urls"] = urls[0], urls
			}
			c.LikeInput = out
		}
	case agent.KindAgent:
		if isObject {
			c.LikeInput = agent.Rename(in, [][2]string{{"task", "prompt"}, {"systemPrompt", "description"}})
		}
	}
	return c
}

// Identify: the SDK names the call under tool_call (before it runs) or
// tool_result (after), and the conversation by taskId, which a
// subagent has its own of; call ids are the model's, unique within one
// conversation. The VS Code extension's older shape names no call and
// is left to the digest of its tool and input.
func (cline) Identify(event map[string]any) agent.CallID {
	top := agent.TopLevelCall(event)
	for _, k := range []string{"tool_call", "tool_result"} {
		if tc, ok := event[k].(map[string]any); ok {
			return agent.CallID{Session: agent.Str(event, "taskId"), ID: agent.Str(tc, "id"), Tool: agent.Str(tc, "name"), Input: tc["input"], Event: top.Event, Transcript: top.Transcript}
		}
	}
	tool, in := clineToolCall(event)
	return agent.CallID{Session: agent.Str(event, "taskId"), Tool: tool, Input: in, Event: top.Event, Transcript: top.Transcript}
}

// clineToolCall is the call's tool and input: tool_call's, or (the VS
// Code extension's shape) preToolUse's, whose parameters are strings,
// JSON text where the value was not one.
func clineToolCall(event map[string]any) (string, any) {
	if tc, ok := event["tool_call"].(map[string]any); ok {
		return agent.Str(tc, "name"), tc["input"]
	}
	pre, _ := event["preToolUse"].(map[string]any)
	params, ok := pre["parameters"].(map[string]any)
	if !ok {
		return agent.Str(pre, "toolName"), pre["parameters"]
	}
	in := make(map[string]any, len(params))
	for k, v := range params {
		in[k] = v
		if s, ok := v.(string); ok && (strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{")) {
			var x any
			dec := json.NewDecoder(strings.NewReader(s))
			dec.UseNumber()
			if dec.Decode(&x) == nil && !dec.More() {
				in[k] = x
			}
		}
	}
	return agent.Str(pre, "toolName"), in
}

// clineCommands reads run_commands' input in every shape the SDK takes:
// {"commands": [...]}, {"commands": one}, {"command": ...} (with "args"),
// {"cmd": ...}, a list, or one command line; each command a string or
// {"command", "args"}. ok is false when any part is something else.
func clineCommands(raw any) ([]string, bool) {
	one := func(v any) (string, bool) {
		switch x := v.(type) {
		case string:
			return x, true
		case map[string]any:
			prog, ok := x["command"].(string)
			if !ok {
				return "", false
			}
			a, present := x["args"]
			if !present || a == nil {
				// Without args, command is a command line.
				return prog, true
			}
			list, ok := a.([]any)
			if !ok {
				return "", false
			}
			args := []string{prog}
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					return "", false
				}
				args = append(args, s)
			}
			return shellJoin(args), true
		}
		return "", false
	}
	many := func(v any) ([]string, bool) {
		list, ok := v.([]any)
		if !ok {
			s, ok := one(v)
			return []string{s}, ok
		}
		var out []string
		for _, e := range list {
			s, ok := one(e)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, len(out) > 0
	}
	if m, ok := raw.(map[string]any); ok {
		switch {
		case m["commands"] != nil:
			return many(m["commands"])
		case m["cmd"] != nil:
			return many(m["cmd"])
		case m["command"] != nil:
			return many(m)
		}
		return nil, false
	}
	return many(raw)
}

// shellJoin writes an argument vector as a command line that a shell
// reads back as the same words.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`;&|<>(){}[]*?!~#=%") {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// clinePaths are the files read_files reads, in every shape it takes: a
// path, {"path"|"file_path"|"filePath"}, lists of these, or any of them
// under "files", "file_paths" or "paths".
func clinePaths(raw any) []string {
	var out []string
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 3 {
			return
		}
		switch x := v.(type) {
		case string:
			if x != "" {
				out = append(out, x)
			}
		case []any:
			for _, e := range x {
				walk(e, depth+1)
			}
		case map[string]any:
			for _, k := range []string{"path", "file_path", "filePath"} {
				if s := agent.Str(x, k); s != "" {
					out = append(out, s)
				}
			}
			for _, k := range []string{"files", "file_paths", "paths"} {
				if e, ok := x[k]; ok {
					walk(e, depth+1)
				}
			}
		}
	}
	walk(raw, 0)
	return out
}

// pathsInput is a Read of paths: the first as file_path, all as paths.
func pathsInput(paths []string) map[string]any {
	list := make([]any, len(paths))
	for i, p := range paths {
		list[i] = p
	}
	return map[string]any{"file_path": paths[0], "paths": list}
}

// stringsOf is v as a list of strings: one string, or the strings of a
// list.
func stringsOf(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// clineOutput is the answer Cline reads from stdout. errorMessage goes
// to Cline's log alone.
type clineOutput struct {
	Cancel       bool   `json:"cancel"`
	ErrorMessage string `json:"errorMessage"`
}

// clineRewrite is the answer that replaces a call's input whole.
type clineRewrite struct {
	OverrideInput map[string]any `json:"overrideInput"`
}

// Confine: Cline 3.0 runs a tool with a hook's overrideInput in place of
// its input (the whole input: nothing is merged). run_commands runs
// each of its commands on its own, so each is rewritten on its own to
// run under the launcher, in order; a command given as an argument
// vector becomes the command line that a shell reads back as the same
// words. An input that cannot be read is not rewritten, nor a call in
// the VS Code extension's older shape (whose tools take other inputs).
func (cline) Confine(event map[string]any, d *wire.Decision, wrap func(string) string) (agent.Answer, bool) {
	tc, sdk := agent.ObjectOrJSON(event["tool_call"])
	if d.Verdict != wire.Allow || !sdk || agent.Str(tc, "name") != "run_commands" {
		return agent.Answer{}, false
	}
	cmds, ok := clineCommands(tc["input"])
	if !ok || len(cmds) == 0 {
		return agent.Answer{}, false
	}
	wrapped := make([]any, len(cmds))
	for i, cmd := range cmds {
		if strings.TrimSpace(cmd) == "" {
			return agent.Answer{}, false
		}
		wrapped[i] = wrap(cmd)
	}
	return agent.Answer{Stdout: agent.EncodeJSON(clineRewrite{map[string]any{"commands": wrapped}}), Exit: agent.ExitOK}, true
}

// Render, per Cline's contract:
//
//	deny        stdout {"cancel":true,"errorMessage":R}, exit 0: the run stops
//	ask         the same, R saying a human must approve (Cline cannot ask)
//	allow (any) nothing, exit 0: Cline's hook has no allow to give
func (cline) Render(_ map[string]any, d *wire.Decision) agent.Answer {
	switch d.Verdict {
	case wire.Deny:
		return agent.Answer{Stdout: agent.EncodeJSON(clineOutput{true, agent.DenyReason(d)}), Exit: agent.ExitOK}
	case wire.Ask:
		return agent.Answer{Stdout: agent.EncodeJSON(clineOutput{true, agent.HumanMustApprove("Cline", d.Reason)}), Exit: agent.ExitOK}
	case wire.Allow:
		return agent.Answer{Exit: agent.ExitOK}
	}
	return agent.Answer{Stdout: agent.EncodeJSON(clineOutput{true, agent.UnknownVerdict(d)}), Exit: agent.ExitOK}
}

// Example is the Cline CLI's tool_call event for a Claude Code call: its
// own tool names and input shapes, the input again under preToolUse
// with every value that is not a string as JSON text.
func (cline) Example(tool string, in map[string]any, cwd string) map[string]any {
	path, _ := in["file_path"].(string)
	ti := map[string]any{}
	switch tool {
	case "Bash":
		tool, ti["commands"] = "run_commands", []any{in["command"]}
	case "Read":
		tool, ti["files"] = "read_files", []any{map[string]any{"path": path}}
	case "Write":
		tool, ti["path"], ti["new_text"] = "editor", path, in["content"]
	case "Edit":
		tool, ti["path"], ti["old_text"], ti["new_text"] = "editor", path, in["old_string"], in["new_string"]
	case "Grep":
		tool, ti["queries"] = "search_codebase", []any{in["pattern"]}
	case "WebFetch":
		tool, ti["requests"] = "fetch_web_content", []any{map[string]any{"url": in["url"], "prompt": in["prompt"]}}
	default:
		for k, v := range in {
			ti[k] = v
		}
	}
	params := map[string]any{}
	for k, v := range ti {
		if s, ok := v.(string); ok {
			params[k] = s
		} else if b, err := json.Marshal(v); err == nil {
			params[k] = string(b)
		}
	}
	return map[string]any{"clineVersion": "", "hookName": "tool_call", "taskId": "agentjail-try", "workspaceRoots": []string{cwd},
		"tool_call":  map[string]any{"id": "agentjail-try", "name": tool, "input": ti},
		"preToolUse": map[string]any{"toolName": tool, "parameters": params}}
}

// searchReplaceEdits reads the SEARCH/REPLACE blocks of replace_in_file
// and apply_diff (the latter's :start_line: and ------- lines included)
// as edits {old_string, new_string}; ok is false when diff holds none or
// a block is left open.
func searchReplaceEdits(diff string) ([]any, bool) {
	const search, sep, replace = "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE"
	var edits []any
	var old, repl []string
	state := 0 // 0 outside, 1 in SEARCH, 2 in REPLACE
	for _, line := range strings.Split(strings.ReplaceAll(diff, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case state == 0 && strings.HasPrefix(t, search):
			state, old, repl = 1, nil, nil
		case state == 1 && (strings.HasPrefix(t, ":start_line:") || strings.HasPrefix(t, ":end_line:") || t == "-------") && len(old) == 0:
		case state == 1 && t == sep:
			state = 2
		case state == 2 && strings.HasPrefix(t, replace):
			edits = append(edits, map[string]any{"old_string": strings.Join(old, "\n"), "new_string": strings.Join(repl, "\n")})
			state = 0
		case state == 1:
			old = append(old, line)
		case state == 2:
			repl = append(repl, line)
		}
	}
	return edits, len(edits) > 0 && state == 0
}
