package cli

import (
	"encoding/json"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
)

// agentEvent rewrites the Claude Code event try builds from a command or
// a path into the event agentName sends for the same call (its adapter's
// Example), so that `try --agent` shows what that agent's hook would see
// and answer. Claude Code and the agents that share its shape keep it.
func agentEvent(agentName string, event []byte) []byte {
	var ev struct {
		Cwd       string         `json:"cwd"`
		ToolName  string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
	}
	a, _ := agents.Lookup(agentName)
	ex, ok := a.(agent.Exampler)
	if !ok || json.Unmarshal(event, &ev) != nil {
		return event
	}
	b, err := json.Marshal(ex.Example(ev.ToolName, ev.ToolInput, ev.Cwd))
	if err != nil {
		return event
	}
	return b
}

// tryAgent resolves try's --agent to an adapter's name.
func tryAgent(name string) (string, error) {
	a, ok := agents.Lookup(name)
	if !ok {
		return "", exitWith(ExitUsage, "--agent %q: use one of %v", name, agents.Names())
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
