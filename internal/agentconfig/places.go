package agentconfig

import "path/filepath"

// userPlaces are, relative to the home directory, the folders that hold
// each agent's user-level hook settings and the files in them that the
// installer writes or that switch the hook off: what the daemon also
// knows by (device, inode), so that a hard link, a link or a renamed copy
// is judged as the file itself. Each file is one Agent recognises
// (TestUserPlaces).
var userPlaces = []string{
	".claude", ".claude/settings.json", ".claude/settings.local.json",
	".codex", ".codex/hooks.json", ".codex/config.toml",
	".gemini", ".gemini/settings.json",
	".cursor", ".cursor/hooks.json", ".cursor/cli-config.json", ".cursor/permissions.json",
	".copilot", ".copilot/config.json", ".copilot/hooks",
}

// UserPlaces are the user-level hook settings folders and files of every
// agent under home, absolute.
func UserPlaces(home string) []string {
	if home == "" {
		return nil
	}
	out := make([]string, len(userPlaces))
	for i, p := range userPlaces {
		out[i] = filepath.Join(home, p)
	}
	return out
}
