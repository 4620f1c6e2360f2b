package shell

import (
	"fmt"
	"slices"
	"testing"
)

// TestChangeDir: where each command of a line runs, and whether that is
// known, through cd -P, pushd/popd, CDPATH and folders only known later.
func TestChangeDir(t *testing.T) {
	env := testEnv
	env.RealPath = func(p string) string {
		if p == "/home/dev/project/h" {
			return "/home/dev"
		}
		return p
	}
	env.IsDir = func(p string) bool { return p == "/home/dev/.agentjail" || p == "/home/dev/project/build" }
	tests := []struct {
		name, cmd string
		want      []string // cwd of each command, "?" after when unknown
	}{
		{"cd", `cd build && make`, []string{"/home/dev/project", "/home/dev/project/build"}},
		{"cd -P resolves", `cd -P h && touch x`, []string{"/home/dev/project", "/home/dev"}},
		{"cd -L does not", `cd -L h && touch x`, []string{"/home/dev/project", "/home/dev/project/h"}},
		{"pushd popd", `pushd /etc && pushd /srv && popd && touch x`, []string{"/home/dev/project", "/etc", "/srv", "/etc"}},
		{"popd past the stack", `popd && touch x`, []string{"/home/dev/project", "/home/dev/project ?"}},
		{"cd dynamic", `cd "$X" && echo > config.yaml`, []string{"/home/dev/project", "/home/dev/project ?"}},
		{"cd -", `cd - && touch x`, []string{"/home/dev/project", "/home/dev/project ?"}},
		{"cd subst", `cd $(mktemp -d) && touch x`, []string{"/home/dev/project", "/home/dev/project", "/home/dev/project ?"}},
		{"CDPATH in the line", `CDPATH=/home/dev; cd .agentjail && rm config.yaml`, []string{"/home/dev/project", "/home/dev/.agentjail"}},
		{"CDPATH not matching", `CDPATH=/home/dev; cd build && make`, []string{"/home/dev/project", "/home/dev/project/build"}},
		{"CDPATH skipped for ./", `CDPATH=/home/dev; cd ./.agentjail && ls`, []string{"/home/dev/project", "/home/dev/project/.agentjail"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.cmd, env)
			var got []string
			for _, c := range r.Commands {
				s := c.Cwd
				if c.CwdUnknown {
					s += " ?"
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s: got %q, want %q", tt.cmd, got, tt.want)
			}
		})
	}
}

// TestDotted: a path written with .. keeps its written form for the
// resolver, and the count is bounded.
func TestDotted(t *testing.T) {
	r := Parse(`cat c/../settings.json /a/b/../c`, testEnv)
	if got := r.Dotted["/home/dev/project/settings.json"]; got != "/home/dev/project/c/../settings.json" {
		t.Errorf("Dotted = %q", r.Dotted)
	}
	if got := r.Dotted["/a/c"]; got != "/a/b/../c" {
		t.Errorf("Dotted = %q", r.Dotted)
	}
	line := "cat"
	for i := 0; i < MaxDotted+10; i++ {
		line += fmt.Sprintf(" d%d/../f%d", i, i)
	}
	if r := Parse(line, testEnv); len(r.Dotted) != MaxDotted {
		t.Errorf("%d dotted paths kept, want %d", len(r.Dotted), MaxDotted)
	}
}
