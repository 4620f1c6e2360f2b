package agent

import (
	"encoding/json"
	"strings"

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
	name := str(event, "hookName")
	return name == "tool_call" && hasCall || name == "PreToolUse" && hasPre && hasVersion
}

// clineTools maps Cline's tools to Claude Code's: the SDK's own names
// first, then those of the VS Code extension (whose parameters are all
// strings), which the SDK still reads as aliases.
var clineTools = map[string]struct{ kind, like string }{
	"run_commands":      {KindShell, "Bash"},
	"read_files":        {KindRead, "Read"},
	"search_codebase":   {KindSearch, "Grep"},
	"fetch_web_content": {KindFetch, "WebFetch"},
	"editor":            {KindEdit, "Edit"},
	"spawn_agent":       {KindAgent, "Task"},
	"skills":            {KindOther, "Skill"},
	"ask_question":      {KindOther, "AskUserQuestion"},
	"submit_and_exit":   {KindOther, "submit_and_exit"},

	"execute_command":            {KindShell, "Bash"},
	"bash":                       {KindShell, "Bash"},
	"read_file":                  {KindRead, "Read"},
	"write_to_file":              {KindWrite, "Write"},
	"replace_in_file":            {KindEdit, "Edit"},
	"apply_diff":                 {KindEdit, "Edit"},
	"list_files":                 {KindList, "LS"},
	"search_files":               {KindSearch, "Grep"},
	"list_code_definition_names": {KindSearch, "Grep"},
	"web_fetch":                  {KindFetch, "WebFetch"},
	"browser_action":             {KindFetch, "WebFetch"},
	"new_task":                   {KindAgent, "Task"},
	"use_skill":                  {KindOther, "Skill"},
}

func (cline) Canonical(event map[string]any) Call {
	tool, raw := clineToolCall(event)
	dir := ""
	if roots, ok := event["workspaceRoots"].([]any); ok && len(roots) > 0 {
		// Cline runs commands from the workspace root and names it
		// nowhere else; the event has no cwd.
		dir, _ = roots[0].(string)
	}
	if c, isPatch := patchCall(tool, raw); isPatch {
		c.Dir = dir
		return c
	}
	in, isObject := raw.(map[string]any)
	t, known := clineTools[tool]
	switch {
	case !known && strings.HasPrefix(tool, "team_"):
		// Agent teams: teammates are agents that run tools of their own.
		return Call{Tool: tool, Kind: KindAgent, Like: tool, LikeInput: raw, Dir: dir}
	case !known && strings.Contains(tool, "__"):
		// MCP tools are named server__tool.
		c := mcpCall(tool, "mcp__"+tool, raw)
		c.Dir = dir
		return c
	case !known:
		return Call{Tool: tool, Kind: KindOther, Like: tool, LikeInput: raw, Dir: dir}
	}
	c := Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: raw, Dir: dir}
	switch t.kind {
	case KindShell:
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
	case KindRead:
		if paths := clinePaths(raw); len(paths) > 0 {
			c.LikeInput = pathsInput(paths)
		}
	case KindWrite, KindEdit, KindList:
		if isObject {
			out := rename(in, [][2]string{{"path", "file_path"}, {"content", "content"}, {"old_text", "old_string"}, {"new_text", "new_string"}})
			if tool == "editor" {
				// The editor makes the file from new_text when there is
				// no old_text and no insert_line: a write.
				if old, _ := in["old_text"].(string); old == "" && in["insert_line"] == nil {
					c.Kind, c.Like = KindWrite, "Write"
					out["content"] = in["new_text"]
				}
			}
			c.LikeInput = out
		}
	case KindSearch:
		if isObject {
			out := rename(in, [][2]string{{"regex", "pattern"}, {"file_pattern", "glob"}})
			if qs := stringsOf(in["queries"]); len(qs) > 0 {
				out["pattern"] = qs[0]
			}
			c.LikeInput = out
		} else if qs := stringsOf(raw); len(qs) > 0 {
			c.LikeInput = map[string]any{"pattern": qs[0], "queries": raw}
		}
	case KindFetch:
		if isObject {
			out := rename(in, nil)
			var urls []any
			if reqs, ok := in["requests"].([]any); ok {
				for _, r := range reqs {
					if m, ok := r.(map[string]any); ok && str(m, "url") != "" {
						urls = append(urls, m["url"])
					}
				}
			}
			if len(urls) > 0 {
				out["url"], out["urls"] = urls[0], urls
			}
			c.LikeInput = out
		}
	case KindAgent:
		if isObject {
			c.LikeInput = rename(in, [][2]string{{"task", "prompt"}, {"systemPrompt", "description"}})
		}
	}
	return c
}

// clineToolCall is the call's tool and input: tool_call's, or (the VS
// Code extension's shape) preToolUse's, whose parameters are strings,
// JSON text where the value was not one.
func clineToolCall(event map[string]any) (string, any) {
	if tc, ok := event["tool_call"].(map[string]any); ok {
		return str(tc, "name"), tc["input"]
	}
	pre, _ := event["preToolUse"].(map[string]any)
	params, ok := pre["parameters"].(map[string]any)
	if !ok {
		return str(pre, "toolName"), pre["parameters"]
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
	return str(pre, "toolName"), in
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
				if s := str(x, k); s != "" {
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

// Render, per Cline's contract:
//
//	deny        stdout {"cancel":true,"errorMessage":R}, exit 0: the run stops
//	ask         the same, R saying a human must approve (Cline cannot ask)
//	allow (any) nothing, exit 0: Cline's hook has no allow to give
func (cline) Render(_ map[string]any, d *wire.Decision) Answer {
	switch d.Verdict {
	case wire.Deny:
		return Answer{Stdout: encodeJSON(clineOutput{true, denyReason(d)}), Exit: ExitOK}
	case wire.Ask:
		return Answer{Stdout: encodeJSON(clineOutput{true, humanMustApprove("Cline", d.Reason)}), Exit: ExitOK}
	case wire.Allow:
		return Answer{Exit: ExitOK}
	}
	return Answer{Stdout: encodeJSON(clineOutput{true, unknownVerdict(d)}), Exit: ExitOK}
}
