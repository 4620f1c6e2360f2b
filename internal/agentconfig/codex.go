package agentconfig

import "slices"

// CodexConfig reports whether path is Codex's ~/.codex/config.toml or ~/.codex/hooks.json.
func CodexConfig(path, home string) bool {
	return slices.Contains([]string{".codex/config.toml", ".codex/hooks.json"}, homeRel(path, home))
}

// judgeCodex keeps the rule that holds until agentjail installs its hook
// here: a file that runs agentjail-hook must keep naming it.
func judgeCodex(cur, res []byte) string { return keepsHookName(cur, res) }
