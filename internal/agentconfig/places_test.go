package agentconfig

import (
	"path/filepath"
	"testing"
)

// TestUserPlaces: every file listed is one an agent's judge owns, so the
// list and the recognisers cannot drift apart.
func TestUserPlaces(t *testing.T) {
	home := "/home/u"
	for _, p := range UserPlaces(home) {
		if filepath.Ext(filepath.Base(p)[1:]) == "" && p != home+"/.copilot/hooks" {
			continue // a folder (.claude), or a hook that is a program (Cline's)
		}
		if p == home+"/.copilot/hooks" {
			p += "/x.json" // Copilot's hooks folder: the files in it
		}
		if Agent(p, home) == "" {
			t.Errorf("%s is listed but no agent's hook settings", p)
		}
	}
	if UserPlaces("") != nil {
		t.Error("no home, no places")
	}
}
