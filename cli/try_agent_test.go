package cli

import (
	"testing"

	"github.com/agentjail/agentjail/agent"
)

// try --agent builds each agent's own event, which that agent's adapter
// (and no other) reads back as the same call.
func TestTryAgentEvent(t *testing.T) {
	for _, name := range agent.Names() {
		for _, tt := range []struct{ tool, arg, kind string }{{"Bash", "cat ~/.ssh/id_rsa", agent.KindShell}, {"Read", "~/.aws/credentials", agent.KindRead}} {
			t.Run(name+"/"+tt.tool, func(t *testing.T) {
				ev, err := tryEvent(nil, "", tt.tool, "/work/p", []string{tt.arg})
				if err != nil {
					t.Fatal(err)
				}
				m := agent.Decode(agentEvent(name, ev))
				// Codex's shape is Claude Code's: only the flag tells them apart.
				a := agent.For(m, name)
				if a.Name() != name {
					t.Fatalf("read as %s", a.Name())
				}
				if c := a.Canonical(m); c.Kind != tt.kind {
					t.Errorf("kind %q, want %q (%v)", c.Kind, tt.kind, m)
				}
				if name != "codex" && name != "claude-code" && agent.For(m, "claude-code").Name() != name {
					t.Errorf("the %s event is not recognised without the flag", name)
				}
			})
		}
	}
}
