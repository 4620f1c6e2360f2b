// Package kilo is Kilo CLI, a fork of opencode that keeps its layout
// under its own name: its facts and its adapter are opencode's.
package kilo

import (
	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents/opencode"
)

// kilo is the plugin adapter, speaking for Kilo CLI.
type kilo struct{ opencode.Adapter }

// Agent is Kilo CLI.
var Agent = agent.Agent{Adapter: kilo{opencode.NewAdapter("kilo", "Kilo CLI")}, Facts: facts()}

func facts() agent.Facts {
	f := opencode.Facts("kilo", "Kilo CLI", "@kilocode/cli", "KILO")
	f.Aliases = []string{"kilocode", "kilo-cli"}
	f.Programs = append(f.Programs, "kilocode")
	f.Table.Proven = "7.7.7 (the last whose Linux binary the registry serves here)"
	return f
}
