package cli

import (
	"encoding/json"

	"github.com/agentjail/agentjail/agent"
)

// agentEvent rewrites the Claude Code event try builds from a command or
// a path into the event agentName sends for the same call, so that
// `try --agent` shows what that agent's hook would see and answer.
func agentEvent(agentName string, event []byte) []byte {
	var ev struct {
		Cwd       string         `json:"cwd"`
		ToolName  string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
	}
	if json.Unmarshal(event, &ev) != nil {
		return event
	}
	in := ev.ToolInput
	path, _ := in["file_path"].(string)
	if path == "" {
		path, _ = in["path"].(string)
	}
	var out map[string]any
	switch agentName {
	case "gemini":
		names := map[string]string{"Bash": "run_shell_command", "Read": "read_file", "Write": "write_file", "Edit": "replace", "Grep": "grep_search", "Glob": "glob", "LS": "list_directory", "WebFetch": "web_fetch"}
		tool, ok := names[ev.ToolName]
		if !ok {
			tool = ev.ToolName
		}
		ti := map[string]any{}
		for k, v := range in {
			ti[k] = v
		}
		if _, ok := ti["path"]; ok && (tool == "grep_search" || tool == "glob" || tool == "list_directory") {
			ti["dir_path"] = ti["path"]
			delete(ti, "path")
		}
		out = map[string]any{"session_id": "agentjail-try", "cwd": ev.Cwd, "hook_event_name": "BeforeTool", "tool_name": tool, "tool_input": ti}
	case "copilot":
		names := map[string]string{"Bash": "bash", "Read": "view", "Write": "create", "Edit": "edit", "Grep": "grep", "Glob": "glob", "WebFetch": "web_fetch"}
		tool, ok := names[ev.ToolName]
		if !ok {
			tool = ev.ToolName
		}
		args := map[string]any{}
		for k, v := range in {
			args[k] = v
		}
		if path != "" {
			delete(args, "file_path")
			args["path"] = path
		}
		// Copilot's own names for an edit's and a file's text.
		renameKeys(args, map[string]string{"old_string": "old_str", "new_string": "new_str", "content": "file_text"})
		b, _ := json.Marshal(args)
		out = map[string]any{"timestamp": 0, "cwd": ev.Cwd, "toolName": tool, "toolArgs": string(b)}
	case "cursor":
		base := map[string]any{"conversation_id": "agentjail-try", "generation_id": "agentjail-try", "cwd": ev.Cwd, "workspace_roots": []string{ev.Cwd}}
		switch ev.ToolName {
		case "Bash":
			base["hook_event_name"] = "beforeShellExecution"
			base["command"] = in["command"]
		case "Read":
			base["hook_event_name"] = "beforeReadFile"
			base["file_path"] = path
		default:
			base["hook_event_name"] = "preToolUse"
			base["tool_name"] = ev.ToolName
			ti := map[string]any{}
			for k, v := range in {
				ti[k] = v
			}
			renameKeys(ti, map[string]string{"content": "contents"}) // Cursor's Write
			base["tool_input"] = ti
		}
		out = base
	case "cline":
		out = clineTryEvent(ev.Cwd, ev.ToolName, in, path)
	default: // claude-code and codex send this very shape
		return event
	}
	b, err := json.Marshal(out)
	if err != nil {
		return event
	}
	return b
}

// renameKeys renames m's keys from -> to where they are present.
func renameKeys(m map[string]any, names map[string]string) {
	for from, to := range names {
		if v, ok := m[from]; ok {
			delete(m, from)
			m[to] = v
		}
	}
}

// tryAgent resolves try's --agent to an adapter's name.
func tryAgent(name string) (string, error) {
	a, ok := agent.Lookup(name)
	if !ok {
		return "", exitWith(ExitUsage, "--agent %q: use one of %v", name, agent.Names())
	}
	return a.Name(), nil
}

// clineTryEvent is the Cline CLI's tool_call event for the call: its own
// tool names and input shapes, the input again under preToolUse with
// every value that is not a string as JSON text.
func clineTryEvent(cwd, tool string, in map[string]any, path string) map[string]any {
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
