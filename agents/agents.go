// Package agents is the registry of the agents agentjail guards: one
// line each in All. Each agent lives in its own folder here: its facts
// (NAME.go) and its adapter (event.go), which read its hook event into
// the canonical view and write its answer. The hook links this package,
// so every folder imports only the standard library, agent and
// internal packages that import only the standard library
// (TestHookLinksOnlyStdlibAndWire).
//
// Adding an agent is its folder, its line in All and its end-to-end test
// (e2e/real_NAME_test.go); TestAddingAnAgent checks that nothing else
// needs it.
package agents

import (
	"slices"
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/agents/cline"
	"github.com/agentjail/agentjail/agents/codex"
	"github.com/agentjail/agentjail/agents/copilot"
	"github.com/agentjail/agentjail/agents/cursor"
	"github.com/agentjail/agentjail/agents/droid"
	"github.com/agentjail/agentjail/agents/gemini"
	"github.com/agentjail/agentjail/agents/kilo"
	"github.com/agentjail/agentjail/agents/opencode"
	"github.com/agentjail/agentjail/agents/pi"
	"github.com/agentjail/agentjail/agents/qwen"
)

// All lists the agents, in the order people see them. An event is
// tried against them in this order for a shape that is unmistakably one
// agent's; those that share Claude Code's shape are told apart by the
// hook's --agent flag.
var All = []agent.Agent{
	claude.Agent,
	codex.Agent,
	gemini.Agent,
	copilot.Agent,
	cursor.Agent,
	qwen.Agent,
	droid.Agent,
	cline.Agent,
	pi.Agent,
	opencode.Agent,
	kilo.Agent,
}

// Default is the agent assumed when neither the event's shape nor the
// hook's --agent flag says otherwise.
const Default = "claude-code"

// Names lists the agents' names, for flags and help.
func Names() []string {
	out := make([]string, len(All))
	for i, a := range All {
		out[i] = a.Name
	}
	return out
}

// Named finds an agent by name or alias (any case).
func Named(name string) (agent.Agent, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, a := range All {
		if a.Name == name || slices.Contains(a.Aliases, name) {
			return a, true
		}
	}
	return agent.Agent{}, false
}

// Lookup finds an adapter by name or alias (any case).
func Lookup(name string) (agent.Adapter, bool) {
	a, ok := Named(name)
	return a.Adapter, ok
}

// For returns the adapter for an event: the agent whose shape it
// unmistakably has, else the named one (the hook's --agent flag), else
// Claude Code. An agent that runs another agent's hooks (Copilot running
// Claude Code's) is thus still answered in the dialect of the shape it
// sent.
func For(event map[string]any, name string) agent.Adapter {
	for _, a := range All {
		if a.Adapter.Recognise(event) {
			return a.Adapter
		}
	}
	if a, ok := Lookup(name); ok {
		return a
	}
	a, _ := Lookup(Default)
	return a
}

// ShellTools are the names (lowered) of every agent's shell tools: a
// call to one is a shell command, whichever agent sent it. Agents with
// no folder here (Roo Code's execute_command, Cursor's older
// run_terminal_cmd) count too: their calls can arrive in another's shape.
func ShellTools() map[string]bool {
	out := map[string]bool{"execute_command": true, "run_terminal_cmd": true}
	for _, a := range All {
		for name, kind := range a.Tools {
			if kind == agent.KindShell {
				out[strings.ToLower(name)] = true
			}
		}
	}
	return out
}
