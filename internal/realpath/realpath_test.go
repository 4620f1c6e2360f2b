package realpath

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// fakeHome is a home with agentjail's config, Claude's settings and an
// ssh key, in a temp folder (symlinks resolved so results compare).
func fakeHome(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	for _, d := range []string{".agentjail", ".claude", ".ssh", "proj/shared"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".agentjail/config.yaml", ".claude/settings.json", ".ssh/id_ed25519"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func TestResolve(t *testing.T) {
	home := fakeHome(t)
	proj := filepath.Join(home, "proj")
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(home, name)); err != nil {
			t.Fatal(err)
		}
	}
	link(home, "proj/h")                    // ln -s ~ h
	link(home+"/.claude", "proj/c")         // a link to ~/.claude under another name
	link("../shared", "proj/sub")           // relative, inside the project
	link("c", "proj/c2")                    // a chain
	link("loop1", "proj/loop2")             // a loop
	link("loop2", "proj/loop1")             //
	link(home+"/proj/shared", "proj/up")    // `..` after a link is its target's parent
	link(home+"/.ssh/id_ed25519", "proj/k") // a link to a file

	tests := []struct {
		name, in, want string
		bad            bool
	}{
		{"plain", proj + "/src/a.go", proj + "/src/a.go", false},
		{"home link", proj + "/h/.agentjail/config.yaml", home + "/.agentjail/config.yaml", false},
		{"folder link", proj + "/c/settings.json", home + "/.claude/settings.json", false},
		{"chain", proj + "/c2/settings.json", home + "/.claude/settings.json", false},
		{"relative link", proj + "/sub/x", home + "/shared/x", false},
		{"file link", proj + "/k", home + "/.ssh/id_ed25519", false},
		{"dotdot after link", proj + "/up/../../.ssh/id_ed25519", home + "/.ssh/id_ed25519", false},
		{"missing tail", proj + "/h/.agentjail/new/x.rego", home + "/.agentjail/new/x.rego", false},
		{"loop", proj + "/loop1/x", "", true},
		{"proc self root", "/proc/self/root" + home + "/.ssh/id_ed25519", home + "/.ssh/id_ed25519", false},
		{"proc thread-self root", "/proc/thread-self/root" + proj + "/h/.claude/settings.json", home + "/.claude/settings.json", false},
		{"proc self cwd", "/proc/self/cwd/h/.ssh", home + "/.ssh", false},
		{"proc task cwd", "/proc/self/task/12/cwd/../.agentjail", home + "/.agentjail", false},
		{"proc pid root", "/proc/1/root" + home + "/.ssh", home + "/.ssh", false},
		{"proc self fd", "/proc/self/fd/3", "/proc/self/fd/3", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Resolver{Cwd: proj}
			got, ok := r.Resolve(tt.in)
			if ok == tt.bad || got != tt.want {
				t.Errorf("Resolve(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, !tt.bad)
			}
		})
	}
}

// TestResolveHops: a chain of MaxHops links resolves, one more fails.
func TestResolveHops(t *testing.T) {
	home := fakeHome(t)
	prev := home + "/.claude"
	for i := 0; i <= MaxHops; i++ {
		l := filepath.Join(home, "proj", "l"+string(rune('a'+i/26))+string(rune('a'+i%26)))
		if err := os.Symlink(prev, l); err != nil {
			t.Fatal(err)
		}
		prev = l
		r := Resolver{}
		got, ok := r.Resolve(l + "/settings.json")
		if want := i+1 <= MaxHops; ok != want || (ok && got != home+"/.claude/settings.json") {
			t.Fatalf("%d hops: %q %v", i+1, got, ok)
		}
	}
}

// TestResolveSameCall: a link the call makes itself is followed before it
// exists on disk.
func TestResolveSameCall(t *testing.T) {
	home := fakeHome(t)
	r := Resolver{}
	r.AddLink(home+"/proj/h", home)
	r.AddLink(home+"/proj/rel", "../.claude")
	r.AddLink(home+"/proj/new/h", home)
	for in, want := range map[string]string{
		home + "/proj/h/.bashrc":           home + "/.bashrc",
		home + "/proj/rel/settings.json":   home + "/.claude/settings.json",
		home + "/proj/other/settings.json": home + "/proj/other/settings.json",
		// In a folder not on disk yet (mkdir -p new && ln -s ~ new/h).
		home + "/proj/new/h/.bashrc": home + "/.bashrc",
		home + "/proj/new/x/.bashrc": home + "/proj/new/x/.bashrc",
	} {
		if got, _ := r.Resolve(in); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIndexMatch(t *testing.T) {
	home := fakeHome(t)
	cfg := home + "/.agentjail/config.yaml"
	hard := home + "/proj/notes.yaml"
	if err := os.Link(cfg, hard); err != nil {
		t.Skip("no hard links here:", err)
	}
	if err := os.Link(home+"/.ssh/id_ed25519", home+"/proj/key.txt"); err != nil {
		t.Fatal(err)
	}
	x := NewIndex([]string{home + "/.agentjail", cfg, home + "/.claude/settings.json", home + "/.ssh"})
	tests := []struct {
		name, in string
		want     []string
	}{
		{"hard link to config", hard, []string{cfg}},
		{"hard link to a key", home + "/proj/key.txt", []string{home + "/.ssh/id_ed25519"}},
		{"the place itself", cfg, nil},
		{"ordinary", home + "/proj/shared", nil},
		{"missing", home + "/proj/nothing", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := x.Match(tt.in, true, nil); !slices.Equal(got, tt.want) {
				t.Errorf("Match(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	// A renamed protected folder is still the folder.
	if err := os.Rename(home+"/.ssh", home+"/proj/keys"); err != nil {
		t.Fatal(err)
	}
	if got := x.Match(home+"/proj/keys/authorized_keys", false, nil); !slices.Equal(got, []string{home + "/.ssh/authorized_keys"}) {
		t.Errorf("renamed folder: %q", got)
	}
}

// TestFold: on a volume that folds case, a name differing in case is
// the protected place; on one that does not, it is not.
func TestFold(t *testing.T) {
	home := fakeHome(t)
	places := []string{home + "/.claude/settings.json", home + "/.agentjail"}
	for _, insensitive := range []bool{true, false} {
		x := NewIndex(places)
		x.Insensitive = func(string) bool { return insensitive }
		for in, want := range map[string]string{
			home + "/.Claude/Settings.JSON":      home + "/.claude/settings.json",
			home + "/.AGENTJAIL/policies/x.rego": home + "/.agentjail/policies/x.rego",
		} {
			got := x.Match(in, false, nil)
			if insensitive != slices.Contains(got, want) {
				t.Errorf("insensitive=%v Match(%q) = %q", insensitive, in, got)
			}
		}
		if got := x.Match(home+"/.agentjailx", false, nil); len(got) != 0 {
			t.Errorf("a longer name folded: %q", got)
		}
	}
	// The probe itself: this test's temp folder, on Linux, is sensitive.
	if CaseInsensitive(home+"/.claude") != sameFileSwapped(home+"/.claude") {
		t.Error("CaseInsensitive disagrees with the file system")
	}
}

func sameFileSwapped(p string) bool {
	a, err1 := os.Stat(p)
	b, err2 := os.Stat(filepath.Join(filepath.Dir(p), swapCase(filepath.Base(p))))
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

func TestReaches(t *testing.T) {
	x := NewIndex([]string{"/h/.agentjail/config.yaml", "/h/.ssh", "/h/.claude/settings.json"})
	for rel, want := range map[string]string{
		"config.yaml":           "/h/.agentjail/config.yaml",
		".claude/settings.json": "/h/.claude/settings.json",
		".ssh/authorized_keys":  "/h/.ssh/authorized_keys",
		"out.txt":               "",
		"build/config.json":     "",
	} {
		got, _ := x.Reaches(rel)
		if got != want {
			t.Errorf("Reaches(%q) = %q, want %q", rel, got, want)
		}
	}
}
