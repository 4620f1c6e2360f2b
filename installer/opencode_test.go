package installer

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The plugin is a file of ours in the agent's plugin folder, its settings
// line filled in; uninstall takes it away and leaves the folder as it
// was, the user's own plugins and opencode.json untouched. Its settings
// carry the hook's argv for the post-tool event too, with --post.
func TestPluginInstallUninstall(t *testing.T) {
	for _, name := range []string{"opencode", "kilo"} {
		t.Run(name, func(t *testing.T) {
			o := agentOptions(t, name)
			t.Setenv("PATH", t.TempDir())
			p := partNamed(name).(pluginPart)
			mine := filepath.Join(p.dir(o), "plugin", "mine.js")
			write(t, mine, "export const Mine = async () => ({})\n")
			cfg := filepath.Join(p.dir(o), "opencode.json")
			write(t, cfg, "{\"model\": \"x/y\"}\n")
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(p.dir(o), "plugin", pluginFile)
			src := read(t, path)
			js, ok := pluginSettingsJSON([]byte(src))
			if !ok {
				t.Fatalf("no settings line in %s:\n%s", path, src)
			}
			var s pluginSettings
			if err := json.Unmarshal(js, &s); err != nil {
				t.Fatal(err)
			}
			hook := filepath.Join(o.Home, "bin", hookBinary)
			if s.Agent != name || !slices.Equal(s.Hook, []string{hook, "--agent", name}) || s.TimeoutMs != 5000 || !s.FailClosed {
				t.Errorf("settings %+v", s)
			}
			if !slices.Equal(s.Post, []string{hook, "--agent", name, "--post"}) || s.PostTimeoutMs != 5000 {
				t.Errorf("post-tool settings %+v", s)
			}
			if got := Agents(o); !got[slices.IndexFunc(got, func(a AgentState) bool { return a.Name == name })].Guarded() {
				t.Errorf("%s not guarded after install: %+v", name, got)
			}
			if err := Uninstall(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); err == nil {
				t.Errorf("%s left behind", path)
			}
			if read(t, mine) != "export const Mine = async () => ({})\n" || read(t, cfg) != "{\"model\": \"x/y\"}\n" {
				t.Errorf("the user's files changed")
			}
		})
	}
}

// A folder made for the plugin goes with it; a plugins/ folder the user
// keeps is used instead of making plugin/.
func TestPluginFolders(t *testing.T) {
	o := agentOptions(t, "opencode")
	t.Setenv("PATH", t.TempDir())
	p := pluginPart{"opencode"}
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if err := Uninstall(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.dir(o)); err == nil {
		t.Errorf("%s, made by install, is left behind", p.dir(o))
	}

	os.MkdirAll(filepath.Join(p.dir(o), "plugins"), 0o755)
	if got := p.pluginPath(o); got != filepath.Join(p.dir(o), "plugins", pluginFile) {
		t.Errorf("with plugins/ only: %s", got)
	}
	os.MkdirAll(filepath.Join(p.dir(o), "plugin"), 0o755)
	if got := p.pluginPath(o); got != filepath.Join(p.dir(o), "plugin", pluginFile) {
		t.Errorf("with both: %s", got)
	}
}

// A file of our name that is not ours stays; the settings follow the
// hook's flags.
func TestPluginNotOursAndSettings(t *testing.T) {
	if _, removed, _ := removePlugin("x/plugin/agentjail.js", []byte("export const X = 1\n")); removed {
		t.Error("a file without our settings line was taken for ours")
	}
	o := agentOptions(t)
	o.HookTimeout = 4500 * time.Millisecond
	o.System, o.FailClosed = true, false
	src, err := o.pluginText("kilo")
	if err != nil {
		t.Fatal(err)
	}
	js, _ := pluginSettingsJSON(src)
	var s pluginSettings
	json.Unmarshal(js, &s)
	if s.FailClosed || s.TimeoutMs != 8000 || !strings.Contains(s.Command, "--fail-closed=false") || s.Hook[len(s.Hook)-1] != "kilo" {
		t.Errorf("settings %+v", s)
	}
	if edits := (pluginPart{"kilo"}).edits(o); len(edits) != 0 {
		t.Errorf("system mode wrote %v: neither agent reads a machine-wide plugin folder", edits)
	}
}

// A plugin or extension of ours whose code another version wrote (one
// that would ignore a rewrite the hook answers) is a problem of the
// agent's until install writes this version's; its settings line alone
// differing is not.
func TestStaleGuardCode(t *testing.T) {
	for _, name := range []string{"opencode", "pi"} {
		t.Run(name, func(t *testing.T) {
			o := agentOptions(t, name)
			t.Setenv("PATH", t.TempDir())
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			path := o.piExtensionPath()
			if name != "pi" {
				path = filepath.Join(partNamed(name).(pluginPart).dir(o), "plugin", pluginFile)
			}
			if a := agentState(t, o, name); len(a.Problems) != 0 {
				t.Fatalf("problems after install: %v", a.Problems)
			}
			cur := read(t, path)
			write(t, path, strings.Replace(cur, "confine(", "keepAsIs(", 2))
			if a := agentState(t, o, name); !slices.ContainsFunc(a.Problems, func(p string) bool { return strings.Contains(p, "not the code this agentjail writes") }) {
				t.Errorf("an older plugin's code is no problem: %v", a.Problems)
			}
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if a := agentState(t, o, name); len(a.Problems) != 0 {
				t.Errorf("problems after install again: %v", a.Problems)
			}
		})
	}
}
