package engine

import (
	"context"
	"reflect"
	"testing"

	"github.com/agentjail/agentjail/internal/shell"
)

// TestShellRolesExtendable: the pack's shell_roles reach the engine, and
// a user's policy adds program rows and secret files without editing
// the pack.
func TestShellRolesExtendable(t *testing.T) {
	user := Source{Name: "/home/dev/.agentjail/policies/mine.rego", Text: []byte(`package agentjail

program_role contains ["deploytool", {"text": ["note"], "use": ["key"]}]

secret_example contains "~/.deploytool/token"

wrapper contains ["withlock", {"skip": 1, "value": ["t"]}]
`)}
	tests := []struct {
		name    string
		sources []Source
		user    bool
	}{
		{"pack alone", defaultPack(t, false), false},
		{"pack and a user's rows", append(defaultPack(t, false), user), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, errs := Compile(context.Background(), tt.sources, nil, nil)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			r := eng.ShellRoles()
			if r == nil {
				t.Fatal("no shell roles")
			}
			if git, ok := r.Programs["git"]; !ok || git.Subcommands["commit"].Text == nil {
				t.Errorf("the pack's git row is missing: %+v", r.Programs["git"])
			}
			row, ok := r.Programs["deploytool"]
			if ok != tt.user || (ok && (len(row.Text) != 1 || len(row.Use) != 1)) {
				t.Errorf("deploytool row %+v (present %v), want present %v", row, ok, tt.user)
			}
			if wr, ok := r.Wrappers["taskset"]; !ok || wr.Skip != 1 {
				t.Errorf("the pack's taskset wrapper row is missing: %+v", r.Wrappers["taskset"])
			}
			if wr, ok := r.Wrappers["withlock"]; ok != tt.user || (ok && wr.Skip != 1) {
				t.Errorf("withlock wrapper row %+v (present %v), want present %v", wr, ok, tt.user)
			}
			found := false
			for _, e := range r.Examples {
				found = found || e == "~/.deploytool/token"
			}
			if found != tt.user {
				t.Errorf("user's secret example present %v, want %v", found, tt.user)
			}
		})
	}
}

// TestWritesTable: the parser's fallback writers (used with no pack) are
// rows of the pack's file_functions table, the one place that says what
// programs write, and a user's row adds a writer.
func TestWritesTable(t *testing.T) {
	user := Source{Name: "/home/dev/.agentjail/policies/mine.rego", Text: []byte(`package agentjail

file_function contains ["dotmerge", {"writes": {"options": ["--into"]}}]
`)}
	eng, errs := Compile(context.Background(), append(defaultPack(t, false), user), nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := eng.ShellRoles()
	if r == nil {
		t.Fatal("no shell roles")
	}
	for name, want := range shell.BaseWrites {
		got, ok := r.Writes[name]
		if !ok || got.Operands != want.Operands || !reflect.DeepEqual(got.When, want.When) {
			t.Errorf("pack's writes row for %s is %+v (present %v), want %+v", name, got, ok, want)
		}
	}
	if got := r.Writes["dotmerge"]; len(got.Options) != 1 {
		t.Errorf("user's writes row %+v, want --into", got)
	}
}
