package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
)

// miniPack has the shapes the real pack uses: a locked rule reading a
// table, a complete rule, a boolean helper and a function, beside an
// unlocked rule reading the same helper.
const miniPack = `package agentjail

protected_dirs contains "/home/dev/.agentjail"

trusted_programs contains "ls"

is_protected(p) if {
	some d in protected_dirs
	startswith(p, d)
}

safe_program if input.program in trusted_programs

mode := "strict"

deny contains {"id": "self.home_write", "msg": "Blocked: agentjail's home"} if {
	some p in input.paths
	is_protected(p)
	not safe_program
	mode == "strict"
}

deny contains {"id": "fs.rm", "msg": "Blocked: rm"} if {
	input.program == "rm"
	not safe_program
}
`

var homeWrite = map[string]any{"program": "sed", "paths": []any{"/home/dev/.agentjail/config.yaml"}}

func compileWithPack(user string, disabled ...string) (*Engine, []wire.LoadErr) {
	return Compile(context.Background(), []Source{
		{Name: "default/mini.rego", Text: []byte(miniPack), Pack: true},
		{Name: "/home/dev/.agentjail/policies/user.rego", Text: []byte(user)},
	}, nil, disabled)
}

// Every way a user file could try to quiet the locked rule ends either as
// a load error naming the file and line, or in a deny by that rule.
func TestPlantedPoliciesCannotUnlock(t *testing.T) {
	tests := []struct {
		name, text string
		loadErr    string // "" when the file may load (and must still not unlock)
	}{
		{"complete deny := set()", "package agentjail\ndeny := set()\n", "defined by the default pack"},
		{"default deny := set()", "package agentjail\ndefault deny := set()\n", "defined by the default pack"},
		{"second definition of a boolean helper", "package agentjail\nsafe_program if true\n", "defined by the default pack"},
		{"default for a helper", "package agentjail\ndefault safe_program := true\n", "defined by the default pack"},
		{"v0 helper redefinition", "package agentjail\nsafe_program = true { true }\n", "defined by the default pack"},
		{"function override", "package agentjail\nis_protected(_) := false\n", "defined by the default pack"},
		{"complete rule override", "package agentjail\nmode := \"lenient\"\n", "defined by the default pack"},
		{"built-in shadowed", "package agentjail\nstartswith(_, _) := false\n", "shadows the built-in startswith"},
		{"built-in namespace shadowed", "package agentjail\nobject.get(_, _, d) := d\n", "shadows the built-in object"},
		{"package config defines disabled_rules", "package config\ndisabled_rules := [\"self.home_write\"]\n", "reserved"},
		{"package data is data.data, not the root", "package data\nconfig := {\"disabled_rules\": [\"self.home_write\"]}\n", ""},
		{"package data.config is data.data.config", "package data.config\ndisabled_rules := [\"self.home_write\"]\n", ""},
		{"verdict package", "package agentjail_verdict\ndeny := set()\n", "reserved"},
		{"any agentjail_ package", "package agentjail_next\nx := 1\n", "reserved"},
		{"agentjail_test is not a prefix", "package agentjail_testing\nx := 1\n", "reserved"},
		{"the tests' package, OPA's convention", "package agentjail_test\nimport data.agentjail\ntest_x if { count(agentjail.deny) > 0 with input as {} }\n", ""},
		{"below the tests' package", "package agentjail_test.fixtures\nnpm := {\"tool_name\": \"Bash\"}\n", ""},
		{"org bundle root", "package agentjail.org\nallow contains \"x\" if true\n", "reserved"},
		{"below the org root", "package agentjail.org.acme\nx := 1\n", "reserved"},
		{"internal root", "package agentjail.internal\nx := 1\n", "reserved"},
		{"the agents' facts", "package agentjail.agents\nfolders := []\n", "reserved"},
		{"a ref head into the agents' facts", "package agentjail\nagents.folders := []\n", "reserved"},
		{"an agent's fact, through data", "package agentjail\nallow contains \"x\" if \".claude\" in data.agentjail.agents.folders\n", ""},
		{"ref head into the org root", "package agentjail\norg.deny contains \"x\" if true\n", "reserved"},
		{"OPA's system namespace", "package system\nmain := {\"allow\": true}\n", "reserved"},
		{"package below a rule of the pack", "package agentjail.deny\nx := 1\n", "conflicts"},
		{"import data.config then shadow it", "package agentjail\nimport data.config\nconfig := {\"disabled_rules\": [\"self.home_write\"]}\n", ""},
		{"with replaces the input for one expression only", "package agentjail\nallow contains \"fine\" if {\n\tcount(deny) == 0 with input.paths as []\n}\n", ""},
		{"with replaces a helper for one expression only", "package agentjail\nallow contains \"fine\" if {\n\tcount(deny) == 0 with safe_program as true\n}\n", ""},
		{"table extension the locked rule reads", "package agentjail\ntrusted_programs contains \"sed\"\n", ""},
		{"user deny with a locked-looking id", "package agentjail\nallow contains {\"id\": \"self.home_write\", \"msg\": \"fine\"} if true\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, errs := compileWithPack(tt.text, "self.home_write")
			if tt.loadErr != "" {
				if eng != nil {
					t.Fatalf("compiled; want a load error containing %q", tt.loadErr)
				}
				found := false
				for _, e := range errs {
					if strings.Contains(e.Message, tt.loadErr) && e.Line > 0 && e.File != "" {
						found = true
					}
				}
				if !found {
					t.Fatalf("load errors %v; want one with file, line and %q", errs, tt.loadErr)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("load errors %v, want the file loaded", errs)
			}
			d, err := eng.Eval(context.Background(), homeWrite)
			if err != nil {
				t.Fatalf("eval error %v (a deny, but this case should evaluate)", err)
			}
			if d.Verdict != wire.Deny || !hasRule(d, "self.home_write") {
				t.Errorf("got %s %v, want a deny by self.home_write", d.Verdict, d.Rules)
			}
		})
	}
}

func hasRule(d *wire.Decision, id string) bool {
	for _, r := range d.Rules {
		if r.ID == id && r.Kind == wire.Deny {
			return true
		}
	}
	return false
}

// The look-alikes: names near the reserved ones, built-in names outside
// the pack's package, table extensions and the user's own rules load and
// work as written.
func TestHarmlessPoliciesLoad(t *testing.T) {
	tests := []struct {
		name, text string
		input      map[string]any
		verdict    wire.Verdict
	}{
		{"user deny", "package agentjail\ndeny contains \"no curl\" if input.program == \"curl\"\n", map[string]any{"program": "curl"}, wire.Deny},
		{"extends a table", "package agentjail\nprotected_dirs contains \"/srv/vault\"\n", map[string]any{"program": "cp", "paths": []any{"/srv/vault/k"}}, wire.Deny},
		{"unlocked rule quieted by extending its table", "package agentjail\ntrusted_programs contains \"rm\"\n", map[string]any{"program": "rm"}, wire.Allow},
		{"name starting with org", "package agentjail\norganization := \"acme\"\ndeny contains organization if input.program == \"x\"\n", map[string]any{"program": "x"}, wire.Deny},
		{"name starting with config", "package agentjail\nconfigured := true\n", map[string]any{"program": "ls"}, wire.Allow},
		{"package named like ours without the underscore", "package agentjailtools\nx := 1\n", map[string]any{"program": "ls"}, wire.Allow},
		{"own package, config-like name", "package acme.config\nx := 1\n", map[string]any{"program": "ls"}, wire.Allow},
		{"built-in name in the user's own package", "package acme\nlower(x) := x\n", map[string]any{"program": "ls"}, wire.Allow},
		{"helper wrapping a built-in", "package agentjail\nstarts(a, b) if startswith(a, b)\nask contains \"tmp\" if starts(input.program, \"tm\")\n", map[string]any{"program": "tmux"}, wire.Ask},
		{"user reads data.config", "package agentjail\nask contains \"listed\" if \"x\" in data.config.list\n", map[string]any{"program": "ls"}, wire.Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, errs := compileWithPack(tt.text)
			if len(errs) > 0 {
				t.Fatalf("load errors %v, want none", errs)
			}
			d, err := eng.Eval(context.Background(), tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if d.Verdict != tt.verdict {
				t.Errorf("got %s %v, want %s", d.Verdict, d.Rules, tt.verdict)
			}
		})
	}
}

// disabled_rules is applied in Go: unlocked ids go, locked ids stay, and
// a rule that is not disabled is untouched.
func TestDisabledRulesInGo(t *testing.T) {
	tests := []struct {
		name     string
		disabled []string
		input    map[string]any
		want     []string
	}{
		{"nothing disabled", nil, map[string]any{"program": "rm", "paths": []any{"/home/dev/.agentjail/x"}}, []string{"self.home_write", "fs.rm"}},
		{"unlocked rule disabled", []string{"fs.rm"}, map[string]any{"program": "rm", "paths": []any{"/home/dev/.agentjail/x"}}, []string{"self.home_write"}},
		{"locked rule cannot be", []string{"self.home_write", "fs.rm"}, map[string]any{"program": "rm", "paths": []any{"/home/dev/.agentjail/x"}}, []string{"self.home_write"}},
		{"other ids untouched", []string{"fs.other"}, map[string]any{"program": "rm"}, []string{"fs.rm"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, user := range []string{"", "package agentjail\nask contains \"x\" if false\n"} {
				var eng *Engine
				var errs []wire.LoadErr
				if user == "" {
					eng, errs = Compile(context.Background(), []Source{{Name: "default/mini.rego", Text: []byte(miniPack), Pack: true}}, nil, tt.disabled)
				} else {
					eng, errs = compileWithPack(user, tt.disabled...)
				}
				if len(errs) > 0 {
					t.Fatal(errs)
				}
				d, err := eng.Eval(context.Background(), tt.input)
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for _, r := range d.Rules {
					ids = append(ids, r.ID)
				}
				if strings.Join(ids, ",") != strings.Join(tt.want, ",") {
					t.Errorf("with user file %v: fired %v, want %v", user != "", ids, tt.want)
				}
			}
		})
	}
}

// The real pack: a user file cannot redefine what its rules read.
func TestRealPackHelpersCannotBeRedefined(t *testing.T) {
	pack := defaultPack(t, false)
	tests := []struct{ name, text string }{
		{"agentjail_home", "package agentjail\nagentjail_home := \"/nowhere\"\n"},
		{"default allowed_paths", "package agentjail\ndefault allowed_paths := [\"/\"]\n"},
		{"pretty", "package agentjail\npretty(p) := p\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, errs := Compile(context.Background(), append(pack, Source{Name: "/u/p.rego", Text: []byte(tt.text)}), nil, nil)
			if eng != nil || len(errs) == 0 || errs[0].File != "/u/p.rego" || errs[0].Line != 2 {
				t.Fatalf("got %v, want a load error at /u/p.rego:2", errs)
			}
		})
	}
}

// The pack's locked rules are evaluated a second time, over the pack
// alone, only when a user file extends something they read.
func TestLockedPassOnlyWhenNeeded(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"own rules only", "package agentjail\nmine contains \"x\"\ndeny contains \"no\" if input.program in mine\n", false},
		{"own package", "package acme\nx := 1\n", false},
		{"extends a table a locked rule reads", "package agentjail\nprotected_dirs contains \"/srv\"\n", true},
		{"extends a table through a helper", "package agentjail\ntrusted_programs contains \"sed\"\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, errs := compileWithPack(tt.text)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if got := eng.locked != nil; got != tt.want {
				t.Errorf("separate locked pass: %v, want %v", got, tt.want)
			}
		})
	}
}
