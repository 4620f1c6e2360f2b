package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// globTree makes a tree for the glob tests: files, a hidden folder, a
// link to a folder outside it, a link loop and a FIFO.
func globTree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "proj"), filepath.Join(base, "home")
	for _, d := range []string{"build", "src/a", "src/b/c", ".hidden", "node_modules/.cache/x"} {
		must(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	must(t, os.MkdirAll(filepath.Join(outside, ".agentjail"), 0o700))
	for _, f := range []string{"build/a.o", "build/b.o", "build/c.c", "src/a/x.go", "src/b/c/y.go", ".hidden/k", "node_modules/.cache/x/1"} {
		must(t, os.WriteFile(filepath.Join(root, f), nil, 0o644))
	}
	must(t, os.WriteFile(filepath.Join(outside, ".agentjail/config.yaml"), nil, 0o600))
	must(t, os.Symlink(outside, filepath.Join(root, "h")))
	must(t, os.Symlink(root, filepath.Join(root, "src/loop")))
	if err := syscall.Mkfifo(filepath.Join(root, "build/pipe"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	return root, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestGlobExpansion(t *testing.T) {
	root, outside := globTree(t)
	tests := []struct {
		name, cmd string
		want      []string // paths the command names, relative to root
		unjudged  bool
	}{
		{"star", "rm -f build/*.o", []string{"build/a.o", "build/b.o"}, false},
		{"question and class", "rm build/[ab].?", []string{"build/a.o", "build/b.o"}, false},
		{"negated class", "rm build/[!a].[^o]", []string{"build/c.c"}, false},
		{"posix class", "rm build/[[:alpha:]].c", []string{"build/c.c"}, false},
		{"braces first", "rm build/{a,c}.*", []string{"build/a.o", "build/c.c"}, false},
		{"fifo matched, not opened", "rm build/pi*", []string{"build/pipe"}, false},
		{"fifo where a folder is expected", "rm build/pipe/*", nil, false},
		{"fifo under globstar", "rm build/**/x", nil, false},
		{"dot needs a dot", "rm */k", nil, false},
		{"dot written", "rm .hid*/k", []string{".hidden/k"}, false},
		{"link followed as the kernel does", "rm h/.agentjai[l]/config.*", []string{"h/.agentjail/config.yaml"}, false},
		{"globstar", "rm src/**/*.go", []string{"src/a/x.go", "src/b/c/y.go"}, false},
		{"quoted star is literal", `rm "build/*".o`, nil, false},
		{"absolute", "rm " + outside + "/.agentjail/*", []string{"h/.agentjail/config.yaml"}, false},
		{"trailing slash only folders", "ls src/*/", []string{"src/a/", "src/b/", "src/loop/"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.cmd, Env{Cwd: root, Home: outside, Look: true})
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			var got []string
			for _, p := range r.Commands[0].Paths {
				if _, err := os.Lstat(p); err == nil && p != root {
					got = append(got, p)
				}
			}
			for i, w := range tt.want {
				if filepath.IsAbs(w) {
					continue
				}
				if w == "h/.agentjail/config.yaml" && filepath.IsAbs(tt.cmd[3:]) {
					tt.want[i] = filepath.Join(outside, ".agentjail/config.yaml")
					continue
				}
				tt.want[i] = filepath.Join(root, w)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("paths %q, want %q", got, tt.want)
			}
			if u := len(r.Commands[0].Unjudged) > 0; u != tt.unjudged {
				t.Errorf("unjudged %v, want %v", r.Commands[0].Unjudged, tt.unjudged)
			}
		})
	}
}

// TestGlobLooksOnlyWhenAsked: without Env.Look the file system is not
// read (the parser alone, as in `agentjail try` of a pack test).
func TestGlobLooksOnlyWhenAsked(t *testing.T) {
	root, _ := globTree(t)
	r := Parse("rm -f build/*.o", Env{Cwd: root})
	if got := r.Commands[0].Paths; len(got) != 1 || got[0] != filepath.Join(root, "build/*.o") {
		t.Errorf("paths %q, want the pattern alone", got)
	}
}

// TestGlobBounds: past the bounds, the glob is unjudged, with the folder
// it starts from; a link loop under ** ends.
func TestGlobBounds(t *testing.T) {
	root, _ := globTree(t)
	many := filepath.Join(root, "many")
	must(t, os.MkdirAll(many, 0o755))
	for i := range MaxGlobMatches + 1 {
		must(t, os.WriteFile(filepath.Join(many, fmt.Sprintf("f%03d", i)), nil, 0o644))
	}
	r := Parse("rm many/*", Env{Cwd: root, Look: true})
	u := r.Commands[0].Unjudged
	if len(u) != 1 || u[0].Root != many || u[0].Kind != "glob" {
		t.Fatalf("unjudged %+v, want the folder %s", u, many)
	}
	if n := len(r.Commands[0].Paths); n != MaxGlobMatches+1 {
		t.Errorf("%d paths, want the pattern and %d matches", n, MaxGlobMatches)
	}
	// ** through the loop src/loop -> root is not followed.
	r = Parse("rm **/y.go", Env{Cwd: root, Look: true})
	if len(r.Commands[0].Unjudged) != 0 {
		t.Errorf("unjudged %+v", r.Commands[0].Unjudged)
	}
	// Entries: a folder wider than the bound.
	wide := filepath.Join(root, "wide")
	must(t, os.MkdirAll(wide, 0o755))
	for i := range MaxGlobEntries + 1 {
		must(t, os.WriteFile(filepath.Join(wide, fmt.Sprint(i)), nil, 0o644))
	}
	r = Parse("rm wide/x*", Env{Cwd: root, Look: true})
	if u := r.Commands[0].Unjudged; len(u) != 1 || u[0].Root != wide {
		t.Errorf("unjudged %+v, want %s", u, wide)
	}
}

// TestGlobExamples: a pattern names a protected place whether or not it
// is there, and a redirect to a glob opens what it matches.
func TestGlobExamples(t *testing.T) {
	roles := &Roles{Examples: []string{"~/.agentjail", "~/.agentjail/agentjail.sock", "~/.claude/settings.json"}}
	home := "/home/u"
	tests := []struct{ cmd, want string }{
		{"rm ~/.agentjai[l]/agentjail.sock", "/home/u/.agentjail/agentjail.sock"},
		{"rm ~/.agentjai?/policies/x.rego", "/home/u/.agentjail/policies/x.rego"},
		{"rm -r ~/.agentj*", "/home/u/.agentjail"},
		{"rm /srv/a[j]/config.yaml", "/srv/aj/config.yaml"},
	}
	for _, tt := range tests {
		r := Parse(tt.cmd, Env{Cwd: "/p", Home: home, Roles: roles, Vars: map[string]string{"AGENTJAIL_HOME": "/srv/aj"}})
		if !slices.Contains(r.Commands[0].Paths, tt.want) {
			t.Errorf("%s: paths %q, want %s", tt.cmd, r.Commands[0].Paths, tt.want)
		}
	}
	r := Parse("echo x > ~/.claude/set*.json", Env{Cwd: "/p", Home: home, Roles: roles})
	if got := r.Commands[0].Redirects[0].Path; got != "/home/u/.claude/settings.json" {
		t.Errorf("redirect path %q", got)
	}
	r = Parse("systemctl --user stop 'agentjai[l].service'", Env{Cwd: "/p", Home: home})
	if p := r.Commands[0].Patterns; len(p) != 1 || p[0] != `^(?:agentjai[l]\.service)$` {
		t.Errorf("patterns %q", p)
	}
}
