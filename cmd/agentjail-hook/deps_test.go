package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The hook starts on every tool call an agent makes; it must stay the
// standard library, less net and regexp, plus internal packages that
// themselves import only the standard library and each other (wire,
// paths, unixsock, ...) and the agent adapters: agent and agents/...
// (and its own package). The one module beyond them is golang.org/x/sys,
// for the launcher's system calls (internal/jail: Landlock).
func TestHookLinksOnlyStdlibAndWire(t *testing.T) {
	const module = "github.com/agentjail/agentjail/"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	allowed := map[string]bool{
		module + "cmd/agentjail-hook": true,
		module + "hook":               true,
		module + "agent":              true, // the adapters' kit: stdlib and internal/ only
	}
	forbidden := []string{"open-policy-agent", "spf13/viper", "fyne.io/systray", "gen2brain/beeep"}
	// Standard packages whose start-up and pages the hook pays for on
	// every run though it needs none of them: it dials with raw
	// syscalls, and the Gemini adapter finds URLs by hand.
	forbiddenStdlib := map[string]bool{"net": true, "net/netip": true, "regexp": true, "regexp/syntax": true}
	isStdlib := func(pkg string) bool { return !strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") }
	isInternal := func(pkg string) bool { return strings.HasPrefix(pkg, module+"internal/") }
	isSys := func(pkg string) bool { return strings.HasPrefix(pkg, "golang.org/x/sys/") }
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 10 {
		t.Fatalf("go list printed only %q", out)
	}
	for _, line := range lines {
		fields := strings.Fields(line)
		dep, imports := fields[0], fields[1:]
		for _, f := range forbidden {
			if strings.Contains(dep, f) {
				t.Errorf("agentjail-hook links %s", dep)
			}
		}
		if forbiddenStdlib[dep] {
			t.Errorf("agentjail-hook links %s", dep)
		}
		isAgent := dep == module+"agents" || strings.HasPrefix(dep, module+"agents/")
		switch {
		case isStdlib(dep) || allowed[dep] || isAgent || isSys(dep):
		case isInternal(dep):
			// An internal package may come along only while it is
			// standard library only: its own imports are the standard
			// library or other internal packages, each checked here too.
			for _, imp := range imports {
				if !isStdlib(imp) && !isInternal(imp) && !isSys(imp) {
					t.Errorf("agentjail-hook links %s, which imports %s; the hook's internal packages import only the standard library, golang.org/x/sys and each other", dep, imp)
				}
			}
		default:
			t.Errorf("agentjail-hook links %s; only the standard library, standard-library-only internal packages, agent and the agents' folders are allowed", dep)
		}
	}
}
