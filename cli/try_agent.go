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
