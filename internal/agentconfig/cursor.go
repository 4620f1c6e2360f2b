package agentconfig

import "slices"

// CursorHooks reports whether path is Cursor's ~/.cursor/hooks.json.
func CursorHooks(path, home string) bool {
	return slices.Contains([]string{".cursor/hooks.json"}, homeRel(path, home))
}

// judgeCursor keeps the rule that holds until agentjail installs its hook
// here: a file that runs agentjail-hook must keep naming it.
func judgeCursor(cur, res []byte) string { return keepsHookName(cur, res) }
