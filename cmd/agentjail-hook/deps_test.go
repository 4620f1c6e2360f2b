package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The hook starts on every tool call an agent makes; it must stay the
// standard library, less net and regexp, plus internal/wire and the
// agent adapters: agent and agents/... (and its own package).
func TestHookLinksOnlyStdlibAndWire(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	allowed := map[string]bool{
		"github.com/agentjail/agentjail/cmd/agentjail-hook": true,
		"github.com/agentjail/agentjail/hook":               true,
		"github.com/agentjail/agentjail/agent":              true, // the adapters' kit: stdlib and wire only
		"github.com/agentjail/agentjail/internal/wire":      true,
	}
	forbidden := []string{"open-policy-agent", "spf13/viper", "fyne.io/systray", "gen2brain/beeep"}
	// Standard packages whose start-up and pages the hook pays for on
	// every run though it needs none of them: it dials with raw
	// syscalls, and the Gemini adapter finds URLs by hand.
	forbiddenStdlib := map[string]bool{"net": true, "net/netip": true, "regexp": true, "regexp/syntax": true}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list printed only %q", out)
	}
	for _, dep := range deps {
		for _, f := range forbidden {
			if strings.Contains(dep, f) {
				t.Errorf("agentjail-hook links %s", dep)
			}
		}
		if forbiddenStdlib[dep] {
			t.Errorf("agentjail-hook links %s", dep)
		}
		first := strings.SplitN(dep, "/", 2)[0]
		isStdlib := !strings.Contains(first, ".")
		isAgent := dep == "github.com/agentjail/agentjail/agents" || strings.HasPrefix(dep, "github.com/agentjail/agentjail/agents/")
		if !isStdlib && !allowed[dep] && !isAgent {
			t.Errorf("agentjail-hook links %s; only the standard library, internal/wire, agent and the agents' folders are allowed", dep)
		}
	}
}
