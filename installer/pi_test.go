package installer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/agents/pi"
)

// install writes agentjail's pi extension with the hook command and its
// settings in it, beside the user's own extensions; uninstall takes it
// away and leaves the folder as it was.
func TestPiExtension(t *testing.T) {
	o := agentOptions(t, "pi")
	o.HookTimeout = 3 * time.Second
	mine := filepath.Join(o.UserHome, ".pi", "agent", "extensions", "mine.ts")
	write(t, mine, "export default function () {}\n")
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	got := read(t, o.piExtensionPath())
	hook := filepath.Join(o.Home, "bin", hookBinary) + ` --timeout 3s --agent pi`
	want := `const config = {"command":"` + hook + `","timeoutMs":6000,"failClosed":false,"post":{"command":"` + hook + ` --post","timeoutMs":6000}};` + "\n"
	if !strings.Contains(got, want) {
		t.Errorf("the extension lacks its settings line %q:\n%s", want, got)
	}
	if strings.Count(got, pi.ConfigPrefix) != 1 || len(got) != len(pi.Extension)-len(piConfigLine(pi.Extension))+len(want) {
		t.Errorf("install changed more than the settings line:\n%s", got)
	}
	if a := agentState(t, o, "pi"); !a.Wired || len(a.Problems) != 0 {
		t.Errorf("pi after install: %+v", a)
	}
	o.Agents = nil
	if err := Uninstall(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(mine))
	if len(entries) != 1 || entries[0].Name() != "mine.ts" || read(t, mine) != "export default function () {}\n" {
		t.Errorf("after uninstall the extensions folder holds %v", entries)
	}
}

func piConfigLine(src string) string {
	for _, l := range strings.SplitAfter(src, "\n") {
		if strings.HasPrefix(l, pi.ConfigPrefix) {
			return l
		}
	}
	return ""
}

// With no folder of its own, a system install writes nothing for pi.
func TestPiSystemWritesNothing(t *testing.T) {
	o := agentOptions(t)
	o.System = true
	if e := (piPart{}).edits(o); len(e) != 0 {
		t.Errorf("system edits %v", e)
	}
}

// pi's settings.json can keep our extension from loading.
func TestPiOff(t *testing.T) {
	o := agentOptions(t)
	settings := filepath.Join(o.UserHome, ".pi", "agent", "settings.json")
	tests := []struct {
		name, extensions string
		off              bool
	}{
		{"none", `[]`, false},
		{"another excluded", `["!other.ts"]`, false},
		{"by name", `["!agentjail.ts"]`, true},
		{"by glob", `["!extensions/*"]`, true},
		{"every extension", `["!**"]`, true},
		{"excluded, then forced back on", `["!*.ts", "+extensions/agentjail.ts"]`, false},
		{"forced off wins", `["+extensions/agentjail.ts", "-extensions/agentjail.ts"]`, true},
		{"a path to load, not a switch", `["/opt/ext.ts"]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			write(t, settings, `{"extensions": `+tt.extensions+`}`)
			got := o.piOff()
			if (len(got) > 0) != tt.off {
				t.Errorf("off %q, want off %v", got, tt.off)
			}
		})
	}
}
