package agentconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinaries: a program is an agent by the file it is (a symlink or a
// hard link to an installed agent, found through the PATH given) or by
// the npm package a script starts; other programs are not.
func TestBinaries(t *testing.T) {
	home := t.TempDir()
	bin := filepath.Join(home, ".local", "bin")
	other := filepath.Join(home, "other")
	for _, d := range []string{bin, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(bin, "claude"), "\x7fELF claude")
	write(filepath.Join(other, "tool"), "\x7fELF tool")
	write(filepath.Join(other, "run.sh"), "#!/bin/sh\nexec node /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js \"$@\"\n")
	write(filepath.Join(other, "npm.sh"), "#!/bin/sh\nexec npm test\n")
	if err := os.Symlink(filepath.Join(bin, "claude"), filepath.Join(other, "helper")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(bin, "claude"), filepath.Join(other, "hard")); err != nil {
		t.Fatal(err)
	}
	b := NewBinaries(home, other) // ~/.local/bin is an install folder, not on the PATH
	tests := []struct {
		word, cwd, path, want string
	}{
		{"helper", home, "", "claude"},
		{"hard", home, "", "claude"},
		{"./other/helper", home, "", "claude"},
		{filepath.Join(other, "run.sh"), home, "", "claude"},
		{"run.sh", home, other + ":$PATH", "claude"},
		{"tool", home, "", ""},
		{"./other/npm.sh", home, "", ""},
		{"missing", home, "", ""},
		{"$X", home, "", ""},
	}
	for _, tt := range tests {
		if got := b.Agent(tt.word, tt.cwd, tt.path); got != tt.want {
			t.Errorf("Agent(%q, PATH=%q) = %q, want %q", tt.word, tt.path, got, tt.want)
		}
	}
	var nobody *Binaries
	if got := nobody.Agent("helper", home, ""); got != "" {
		t.Errorf("nil Binaries found %q", got)
	}
}

// TestNestedCopies: a copy or link of an agent's program made earlier in
// the command line is that agent.
func TestNestedCopies(t *testing.T) {
	cmds := []Cmd{
		{Name: "cp", Args: []string{"$(which claude)", "./helper"}, Cwd: "/home/dev/project"},
		{Name: "./helper", Args: []string{"--bare", "-p", "hi"}, Cwd: "/home/dev/project"},
	}
	if got := Nested("", "/home/dev", cmds, nil, nil); len(got) != 1 || got[0].Program != "claude" {
		t.Errorf("copy of claude: %+v", got)
	}
	cmds[0].Args[0] = "README.md"
	if got := Nested("", "/home/dev", cmds, nil, nil); len(got) != 0 {
		t.Errorf("copy of a README: %+v", got)
	}
}

// TestMovedRootStillHooked: a configuration root moved elsewhere is no
// escape when its hook file exists and is as guarded as the user's own;
// one without the hook, or without the file, starts the agent unguarded.
func TestMovedRootStillHooked(t *testing.T) {
	home := t.TempDir()
	moved := filepath.Join(t.TempDir(), "cfg")
	bare := filepath.Join(t.TempDir(), "bare")
	for _, d := range []string{filepath.Join(home, ".claude"), moved, bare} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, s := range map[string]string{
		filepath.Join(home, ".claude", "settings.json"): installed,
		filepath.Join(moved, "settings.json"):           installed,
		filepath.Join(bare, "settings.json"):            `{"model": "sonnet"}`,
	} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	launch := func(dir string) []Launch {
		return Nested("", home, []Cmd{{Name: "claude", Args: []string{"-p", "hi"}, Assigns: map[string]string{"CLAUDE_CONFIG_DIR": dir}, Cwd: home}}, nil, ReadRegular)
	}
	if got := launch(moved); len(got) != 0 {
		t.Errorf("moved root that runs the hook: %+v", got)
	}
	if got := launch(bare); len(got) != 1 {
		t.Errorf("moved root without the hook: %+v", got)
	}
	if got := launch(filepath.Join(home, "nowhere")); len(got) != 1 {
		t.Errorf("moved root without settings: %+v", got)
	}
}

// TestCodexProfile: codex --profile P is judged on the profile it selects.
func TestCodexProfile(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := "[profiles.quiet.features]\ncodex_hooks = false\n\n[profiles.fast]\nmodel = \"o4-mini\"\n"
	if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]int{"--profile quiet exec hi": 1, "-p quiet exec hi": 1, "--profile=quiet exec hi": 1, "--profile fast exec hi": 0, "exec hi": 0} {
		got := Nested("", home, []Cmd{{Name: "codex", Args: strings.Fields(args), Cwd: home}}, nil, ReadRegular)
		if len(got) != want {
			t.Errorf("codex %s: %+v", args, got)
		}
	}
}
