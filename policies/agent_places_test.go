package policies_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/wire"
)

// TestEveryAgentsPlacesReachThePack: the pack knows each agent's places
// from its facts in Go (internal/engine's agents document at data.agentjail.agents), with
// nothing generated in between: for every agent of agents.All, writing its
// hook file and reading its login are stopped, while a file beside its
// folder, named like it, is everyday work.
func TestEveryAgentsPlacesReachThePack(t *testing.T) {
	d := daemontest.StartFor(t, caseHome, nil)
	client := &wire.Client{Socket: d.Socket}
	decide := func(tool string, in map[string]any) *wire.Decision {
		t.Helper()
		ev, _ := json.Marshal(map[string]any{"tool_name": tool, "cwd": caseProject, "tool_input": in})
		dec, err := client.Decide(context.Background(), &wire.Request{Event: ev})
		if err != nil {
			t.Fatal(err)
		}
		return dec
	}
	for _, a := range agents.All {
		hook := filepath.Join(caseHome, a.HookFile)
		if dec := decide("Write", map[string]any{"file_path": hook, "content": "{}"}); dec.Verdict == wire.Allow {
			t.Errorf("%s: writing its hook file %s is allowed", a.Name, hook)
		}
		for _, c := range a.Credentials {
			if dec := decide("Bash", map[string]any{"command": "cat " + filepath.Join(caseHome, c)}); dec.Verdict == wire.Allow {
				t.Errorf("%s: reading its login %s is allowed", a.Name, c)
			}
		}
		beside := filepath.Join(caseHome, "notes", filepath.Base(a.Folder)+"-todo.md")
		if dec := decide("Write", map[string]any{"file_path": beside, "content": "buy milk"}); dec.Verdict != wire.Allow {
			t.Errorf("%s: writing %s: %s (%s), want allow", a.Name, beside, dec.Verdict, dec.Reason)
		}
	}
}
