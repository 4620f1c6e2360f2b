package daemon

import (
	"path"
	"slices"
	"strings"

	"github.com/agentjail/agentjail/agent"
)

// maxAncestors bounds the walk from the hook up to its agent: the agent
// runs the hook itself or through a shell or two.
const maxAncestors = 8

// headlessRun reports whether the agent process above the hook whose pid
// is hook was started with one of facts' Headless options (claude -p):
// nobody is there to answer its prompt. It only chooses who asks the
// person (agentjail or the agent), never whether a call is checked: a
// wrong answer either way still asks, or denies.
func headlessRun(hook int, facts agent.Facts) bool {
	if hook <= 0 || len(facts.Headless) == 0 {
		return false
	}
	pid := hook
	for range maxAncestors {
		args := processArgs(pid)
		if isAgentProcess(args, facts) {
			return hasSwitch(args[1:], facts.Headless)
		}
		if pid = parentPID(pid); pid <= 1 {
			return false
		}
	}
	return false
}

// isAgentProcess reports whether args (a process's argv) runs the agent:
// its program, or a runtime running its npm package's script.
func isAgentProcess(args []string, facts agent.Facts) bool {
	for i, a := range args {
		if i > 1 {
			break
		}
		if slices.Contains(facts.Programs, path.Base(a)) {
			return true
		}
		for _, pkg := range facts.Packages {
			if strings.Contains(a, "/"+pkg+"/") {
				return true
			}
		}
	}
	return false
}

// hasSwitch reports whether args hold one of switches, alone or as
// --switch=value, before a "--".
func hasSwitch(args, switches []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(a, "=")
		if slices.Contains(switches, a) || strings.HasPrefix(a, "--") && slices.Contains(switches, name) {
			return true
		}
	}
	return false
}
