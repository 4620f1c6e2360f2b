package agentconfig

import (
	"path/filepath"

	"github.com/agentjail/agentjail/agents"
)

// UserPlaces are, under home and absolute, the folders that hold each
// agent's user-level hook settings and the files in them that the
// installer writes or that switch the hook off (each agent's
// UserPlaces): what the daemon also knows by (device, inode), so that a
// hard link, a link or a renamed copy is judged as the file itself. Each
// file is one Agent recognises (TestUserPlaces).
func UserPlaces(home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, a := range agents.All {
		for _, p := range a.UserPlaces {
			out = append(out, filepath.Join(home, p))
		}
	}
	return out
}
