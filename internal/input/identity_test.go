package input

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentjail/agentjail/internal/agentconfig"
	"github.com/agentjail/agentjail/internal/realpath"
)

// identityEnv is an Env whose home is a real temp folder with agentjail's
// config, Claude's settings, a key and a project holding links to them.
func identityEnv(t testing.TB) (Env, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	aj := filepath.Join(home, ".agentjail")
	for _, d := range []string{".agentjail", ".claude", ".ssh", "proj/shared", "proj/build"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".agentjail/config.yaml", ".claude/settings.json", ".ssh/id_ed25519"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(home, home+"/proj/h"))
	must(os.Symlink(home+"/.claude/hooks", home+"/proj/hk"))
	must(os.Link(aj+"/config.yaml", home+"/proj/notes.yaml"))
	places := ProtectedPlaces(home, aj, aj+"/agentjail.sock", agentconfig.UserPlaces(home), []string{".ssh", ".aws"})
	return Env{Home: home, AgentjailHome: aj, ClientCwd: home + "/proj", Identity: realpath.NewIndex(places)}, home
}

func TestIdentityShell(t *testing.T) {
	env, home := identityEnv(t)
	aj := home + "/.agentjail"
	tests := []struct {
		name, cmd string
		writes    []string // among the writes
		paths     []string // among the paths
		unknown   string   // the place of an unknown-cwd write
	}{
		{"link to home", `echo x > h/.agentjail/config.yaml`, []string{aj + "/config.yaml"}, nil, ""},
		{"hard link", `echo x >> notes.yaml`, []string{aj + "/config.yaml"}, nil, ""},
		{"dotdot after a link", `echo {} > hk/../settings.json`, []string{home + "/.claude/settings.json"}, nil, ""},
		{"proc self root", `cat /proc/self/root` + home + `/.ssh/id_ed25519`, nil, []string{home + "/.ssh/id_ed25519"}, ""},
		{"same-call link", `ln -s ~ hh && echo x > hh/.bashrc`, []string{home + "/.bashrc"}, nil, ""},
		{"same-call link in a folder the line makes", `mkdir -p d && ln -s ~ d/h && echo x > d/h/.bashrc`, []string{home + "/.bashrc"}, nil, ""},
		{"same-call relative link", `ln -s ../.agentjail a && rm a/config.yaml`, []string{aj + "/config.yaml"}, nil, ""},
		{"same-call link into a folder", `ln -s ~/.claude build && echo x > build/.claude/settings.json`, []string{home + "/.claude/settings.json"}, nil, ""},
		{"mv of a folder", `mv ~/.claude c2 && echo x > c2/settings.json`, []string{home + "/.claude/settings.json"}, nil, ""},
		{"cd -P", `cd -P h && rm .agentjail/config.yaml`, []string{aj + "/config.yaml"}, nil, ""},
		{"unknown cwd", `cd "$X" && echo x > config.yaml`, nil, nil, aj + "/config.yaml"},
		{"unknown cwd, other name", `cd "$X" && echo x > out.txt`, nil, nil, ""},
		{"project link", `ln -s ../shared lib && echo x > lib/a.txt`, []string{home + "/shared/a.txt"}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Derive(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": tt.cmd}}, env)
			for _, w := range tt.writes {
				if !slices.Contains(d.Writes, w) {
					t.Errorf("writes %q lack %s", d.Writes, w)
				}
			}
			for _, p := range tt.paths {
				if !slices.Contains(d.Paths, p) {
					t.Errorf("paths %q lack %s", d.Paths, p)
				}
			}
			var got string
			if len(d.UnknownCwdWrites) > 0 {
				got = d.UnknownCwdWrites[0].Place
			}
			if got != tt.unknown {
				t.Errorf("unknown cwd write to %q, want %q", got, tt.unknown)
			}
		})
	}
}

func TestIdentityTools(t *testing.T) {
	env, home := identityEnv(t)
	d := Derive(map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": "h/.claude/settings.json", "content": "{}"}}, env)
	if !slices.Contains(d.Writes, home+"/.claude/settings.json") || !slices.Contains(d.Paths, home+"/proj/h/.claude/settings.json") {
		t.Errorf("Write through a link: paths %q writes %q", d.Paths, d.Writes)
	}
	d = Derive(map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": home + "/proj/hk/../../.ssh/id_ed25519"}}, env)
	if !slices.Contains(d.Paths, home+"/.ssh/id_ed25519") || len(d.Writes) != 0 {
		t.Errorf("Read with .. after a link: paths %q writes %q", d.Paths, d.Writes)
	}
}

// TestIdentityBound: past realpath.MaxLookups a call's paths are judged
// as written and the input says so, so a long command costs a bounded
// number of lookups and cannot hide a link behind them.
func TestIdentityBound(t *testing.T) {
	env, home := identityEnv(t)
	line := func(n int) string {
		cmd := "cat"
		for i := 0; i < n; i++ {
			cmd += fmt.Sprintf(" d%d/f", i)
		}
		return cmd + " h/.ssh/id_ed25519"
	}
	key := home + "/.ssh/id_ed25519"
	d := Derive(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": line(100)}}, env)
	if !slices.Contains(d.Paths, key) || d.PathsUnresolved {
		t.Errorf("within the bound, the link is not resolved: %d paths", len(d.Paths))
	}
	d = Derive(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": line(realpath.MaxLookups)}}, env)
	if slices.Contains(d.Paths, key) || !d.PathsUnresolved {
		t.Errorf("past the bound: resolved %v, unresolved %v", slices.Contains(d.Paths, key), d.PathsUnresolved)
	}
}

func TestUnprivate(t *testing.T) {
	for _, tt := range []struct{ res, p, want string }{
		{"/private/tmp/x", "/tmp/x", "/tmp/x"},
		{"/private/var/folders/a/T/b", "/var/folders/a/T/b", "/var/folders/a/T/b"},
		{"/private/tmp/h/.claude/settings.json", "/tmp/l/settings.json", "/tmp/h/.claude/settings.json"},
		{"/private/tmp/x", "/Users/dev/x", "/private/tmp/x"},
		{"/private/tmpx", "/tmp", "/private/tmpx"},
		{"/home/dev/.ssh", "/tmp/k", "/home/dev/.ssh"},
	} {
		if got := unprivate(tt.res, tt.p); got != tt.want {
			t.Errorf("unprivate(%q, %q) = %q, want %q", tt.res, tt.p, got, tt.want)
		}
	}
}

// BenchmarkIdentity is the cost resolution adds to deriving a shell
// call that names a few project files and one link: compare with
// BenchmarkIdentityOff.
func BenchmarkIdentity(b *testing.B) {
	env, _ := identityEnv(b)
	ev := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "cat src/a.go src/b.go README.md > out.txt && ls h/.claude"}}
	b.Run("on", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Derive(ev, env)
		}
	})
	env.Identity = nil
	b.Run("off", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Derive(ev, env)
		}
	})
}
