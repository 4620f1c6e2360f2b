package agentconfig

import "slices"

// CopilotConfig reports whether path is Copilot CLI's ~/.copilot/config.json.
func CopilotConfig(path, home string) bool {
	return slices.Contains([]string{".copilot/config.json"}, homeRel(path, home))
}

// judgeCopilot keeps the rule that holds until agentjail installs its hook
// here: a file that runs agentjail-hook must keep naming it.
func judgeCopilot(cur, res []byte) string { return keepsHookName(cur, res) }
