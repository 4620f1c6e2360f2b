package shell

import (
	"maps"
	"slices"
	"testing"
)

// TestDeclarations: export, declare, typeset, readonly and local are
// commands whose Assigns are the variables they set, values expanded.
func TestDeclarations(t *testing.T) {
	tests := []struct {
		name     string
		command  string
		decl     string
		assigns  map[string]string
		operands []string
		flags    []string
	}{
		{"export", "export HISTFILE=/dev/null", "export", map[string]string{"HISTFILE": "/dev/null"}, []string{"HISTFILE=/dev/null"}, nil},
		{"declare -x", "declare -x HISTSIZE=0", "declare", map[string]string{"HISTSIZE": "0"}, []string{"HISTSIZE=0"}, []string{"x"}},
		{"expanded", "N=0; typeset -x HISTSIZE=$N", "typeset", map[string]string{"HISTSIZE": "0"}, []string{"HISTSIZE=0"}, []string{"x"}},
		{"name only", "export PATH", "export", nil, []string{"PATH"}, nil},
		{"print", "export -p", "export", nil, nil, []string{"p"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.command, testEnv)
			i := slices.IndexFunc(r.Commands, func(c Command) bool { return c.Name == tt.decl })
			if i < 0 {
				t.Fatalf("no %s command in %+v", tt.decl, r.Commands)
			}
			c := r.Commands[i]
			if !maps.Equal(c.Assigns, tt.assigns) || !slices.Equal(c.Operands, tt.operands) || !slices.Equal(c.Flags, tt.flags) {
				t.Errorf("got assigns %v operands %q flags %q; want %v %q %q", c.Assigns, c.Operands, c.Flags, tt.assigns, tt.operands, tt.flags)
			}
		})
	}
}

// TestExportedEnv: the variables a command inherits from the command
// line before it: exported names, names every environment exports,
// export NAME after NAME=x, declare -x, set -a; not plain assignments.
func TestExportedEnv(t *testing.T) {
	env := testEnv
	env.Exported = []string{"CLAUDE_CONFIG_DIR"}
	tests := []struct {
		command string
		want    map[string]string
	}{
		{"HOME=/tmp/x; claude -p hi", map[string]string{"HOME": "/tmp/x"}},
		{"XDG_CONFIG_HOME=/tmp/c; copilot", map[string]string{"XDG_CONFIG_HOME": "/tmp/c"}},
		{"CLAUDE_CONFIG_DIR=/tmp/c; claude", map[string]string{"CLAUDE_CONFIG_DIR": "/tmp/c"}},
		{"X=1; export X; claude", map[string]string{"X": "1"}},
		{"export X; X=2; claude", map[string]string{"X": "2"}},
		{"declare -x X=3; claude", map[string]string{"X": "3"}},
		{"set -a; X=4; claude", map[string]string{"X": "4"}},
		{"set -o allexport; X=5; set +a; Y=6; claude", map[string]string{"X": "5"}},
		{"X=1; claude", nil},
		{"declare X=1; claude", nil},
		{"HOME=/tmp/x; bash -c claude", map[string]string{"HOME": "/tmp/x"}},
		{"tmux new -d -e HOME=/tmp/y claude", map[string]string{"HOME": "/tmp/y"}},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			r := Parse(tt.command, env)
			i := slices.IndexFunc(r.Commands, func(c Command) bool { return c.Name == "claude" || c.Name == "copilot" })
			if i < 0 {
				t.Fatalf("no agent in %+v", r.Commands)
			}
			if got := r.Commands[i].Env; !maps.Equal(got, tt.want) {
				t.Errorf("env %v, want %v", got, tt.want)
			}
		})
	}
}
