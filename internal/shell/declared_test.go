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
