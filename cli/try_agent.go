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
	case "opencode", "kilo":
		names := map[string]string{"Bash": "bash", "Read": "read", "Write": "write", "Edit": "edit", "Grep": "grep", "Glob": "glob", "LS": "list", "WebFetch": "webfetch"}
		tool, ok := names[ev.ToolName]
		if !ok {
			tool = ev.ToolName
		}
		args := map[string]any{}
		for k, v := range in {
			args[k] = v
		}
		renameKeys(args, map[string]string{"file_path": "filePath", "old_string": "oldString", "new_string": "newString", "replace_all": "replaceAll"})
		out = map[string]any{"hook_event_name": agent.OpencodeEvent, "client": agentName, "tool": tool, "args": args, "sessionID": "agentjail-try", "callID": "agentjail-try", "cwd": ev.Cwd}
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
