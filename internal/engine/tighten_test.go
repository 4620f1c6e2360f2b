package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
)

// TestTightenRefused checks that every file that could loosen, or that
// defines something agentjail would ignore in it, is refused with its
// file and the line of the offending rule, and left out whole.
func TestTightenRefused(t *testing.T) {
	tests := []struct {
		name string
		text string
		line int
		want string // in the message
	}{
		{"allow v1", "package agentjail\n\nallow contains \"ok\" if input.tool_name == \"Read\"\n", 3, "rule allow is refused"},
		{"allow v0", "package agentjail\n\nallow[\"ok\"] {\n  input.tool_name == \"Read\"\n}\n", 3, "rule allow is refused"},
		{"allow complete", "package agentjail\n\nallow := true\n", 3, "rule allow is refused"},
		{"allow ref head", "package agentjail\n\nallow.x := \"ok\"\n", 3, "rule allow is refused"},
		{"disabled_rules", "package agentjail\n\ndisabled_rules contains \"git.force_push\"\n", 3, "disabling rules loosens"},
		{"allowed_paths", "package agentjail\n\nallowed_paths contains \"/\"\n", 3, "config.yaml's allowed_paths"},
		{"protected_paths", "package agentjail\n\nprotected_paths := []\n", 3, "config.yaml's protected_paths"},
		{"production_contexts", "package agentjail\n\nproduction_contexts := []\n", 3, "production_contexts"},
		{"policy_dirs", "package agentjail\n\npolicy_dirs := []\n", 3, "policy_dirs"},
		{"shell_roles", "package agentjail\n\nshell_roles[\"rm\"] := {}\n", 3, "shell_roles table"},
		{"program_groups", "package agentjail\n\nprogram_groups[\"curl\"] := []\n", 3, "program_groups table"},
		{"written_files", "package agentjail\n\nwritten_files := {}\n", 3, "written_files table"},
		{"credential_config_dirs", "package agentjail\n\ncredential_config_dirs contains \".x\"\n", 3, "credential_config_dirs"},
		{"org", "package agentjail\n\norg.deny contains \"x\"\n", 3, "locked rules of org bundles"},
		{"internal", "package agentjail\n\ninternal := 1\n", 3, "agentjail's own document"},
		{"default deny", "package agentjail\n\ndefault deny := set()\n", 3, "rule deny has a default"},
		{"default ask", "package agentjail\n\ndefault ask := set()\n", 3, "rule ask has a default"},
		{"complete deny", "package agentjail\n\ndeny := {\"x\"}\n", 3, "is a complete rule"},
		{"deny function", "package agentjail\n\ndeny(x) := x\n", 3, "is a function"},
		{"deny object", "package agentjail\n\ndeny[m] = \"y\" {\n  m := \"x\"\n}\n", 3, "dotted or bracketed"},
		{"other package", "package mine\n\ndeny contains \"x\"\n", 1, "change the package line to `package agentjail`"},
		{"sub package", "package agentjail.extra\n\ndeny contains \"x\"\n", 1, "package agentjail.extra"},
		{"org package", "package agentjail.org\n\ndeny contains \"x\"\n", 1, "package agentjail.org"},
		{"verdict package", "package agentjail_verdict\n\ndeny contains \"x\"\n", 1, "package agentjail_verdict"},
		{"numbers.range", "package agentjail\n\ndeny contains \"x\" if {\n  count(numbers.range(1, 1000000000)) > 0\n}\n", 4, "numbers.range is refused"},
		{"numbers.range in a helper", "package agentjail\n\nbig := [x | some x in numbers.range_step(1, 1e9, 1)]\n\ndeny contains \"x\" if count(big) > 1\n", 3, "numbers.range_step is refused"},
		{"net.cidr_expand", "package agentjail\n\ndeny contains \"x\" if net.cidr_expand(\"10.0.0.0/8\")\n", 3, "net.cidr_expand is refused"},
		{"opa.runtime", "package agentjail\n\ndeny contains msg if {\n  msg := sprintf(\"%v\", [opa.runtime()])\n}\n", 4, "opa.runtime is refused"},
		{"config package", "package config\n\ndisabled_rules := []\n", 1, "package config"},
		{"second bad rule", "package agentjail\n\ndeny contains \"x\"\n\nhelper := 1\n\nallow contains \"y\"\n", 7, "rule allow is refused"},
	}
	good := Source{Name: "/home/u/.agentjail/policies/good.rego", Text: []byte("package agentjail\n\ndeny contains \"good\" if input.tool_name == \"Bash\"\n")}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := "/home/u/.agentjail/policies/bad.rego"
			tg, errs := CompileTightening(context.Background(), []Source{{Name: file, Text: []byte(tt.text)}, good})
			if len(errs) == 0 {
				t.Fatal("not refused")
			}
			found := false
			for _, e := range errs {
				if e.File != file {
					t.Errorf("error names %q, want %q: %v", e.File, file, e)
				}
				if e.Line == tt.line && strings.Contains(e.Message, tt.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("no error at line %d containing %q: %v", tt.line, tt.want, errs)
			}
			// The good file still loads, the refused one not at all.
			if tg == nil {
				t.Fatal("the good file did not load")
			}
			if len(tg.Sources()) != 1 || tg.Sources()[0].Name != good.Name {
				t.Errorf("sources %v, want only the good file", tg.Sources())
			}
			rules, err := tg.Eval(context.Background(), map[string]any{"tool_name": "Bash"})
			if err != nil || len(rules) != 1 || rules[0].Msg != "good" {
				t.Errorf("eval = %v, %v; want only the good file's deny", rules, err)
			}
		})
	}
}

// TestTightenFires checks deny and ask rules of both syntaxes, with a
// helper rule and a function, firing on an input, marked as the user's.
func TestTightenFires(t *testing.T) {
	v0 := `package agentjail

deny[msg] {
	input.tool_name == "Bash"
	is_publish(input.tool_input.command)
	msg := "Blocked by my own policy: publishing"
}

is_publish(cmd) {
	startswith(cmd, "npm publish")
}
`
	v1 := `package agentjail

import rego.v1

risky contains "terraform"

ask contains {"id": "mine.infra", "msg": "Infra change"} if {
	input.tool_name == "Bash"
	some word in risky
	contains(input.tool_input.command, word)
}
`
	tg, errs := CompileTightening(context.Background(), []Source{{Name: "a.rego", Text: []byte(v0)}, {Name: "b.rego", Text: []byte(v1)}})
	if len(errs) > 0 || tg == nil {
		t.Fatalf("errors: %v", errs)
	}
	if got := tg.Sources(); len(got) != 2 || got[0].RegoVersion != "v0" || got[1].RegoVersion != "v1" {
		t.Errorf("sources %v, want a.rego v0 and b.rego v1", got)
	}
	if tg.Rules() != 2 || tg.Revision() == "" {
		t.Errorf("rules %d revision %q", tg.Rules(), tg.Revision())
	}
	tests := []struct {
		name    string
		command string
		want    []wire.Rule
	}{
		{"deny", "npm publish --tag x terraform", []wire.Rule{
			{Kind: wire.Deny, Msg: "Blocked by my own policy: publishing", User: true},
			{Kind: wire.Ask, ID: "mine.infra", Msg: "Infra change", User: true},
		}},
		{"ask", "terraform apply", []wire.Rule{{Kind: wire.Ask, ID: "mine.infra", Msg: "Infra change", User: true}}},
		{"nothing", "ls", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tg.Eval(context.Background(), map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": tt.command}})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("rule %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestTightenPackTableInert checks that a user file extending one of the
// pack's tables (or defining a helper the pack reads) compiles, but
// changes nothing the pack decides: the set compiles alone, so the row
// only exists for the user's own rules.
func TestTightenPackTableInert(t *testing.T) {
	user := `package agentjail

trusted_programs contains "rm"

safe_program := true

mode := "lax"
`
	tg, errs := CompileTightening(context.Background(), []Source{{Name: "ext.rego", Text: []byte(user)}})
	if len(errs) > 0 || tg == nil {
		t.Fatalf("errors: %v", errs)
	}
	input := map[string]any{"program": "rm", "paths": []any{"/home/dev/.agentjail/x"}}
	if rules, err := tg.Eval(context.Background(), input); err != nil || len(rules) != 0 {
		t.Errorf("the user's set fired %v, %v", rules, err)
	}
	// The system set, compiled without the user's file, still denies.
	eng, errs := Compile(context.Background(), []Source{{Name: "default/mini.rego", Text: []byte(miniPack), Pack: true}}, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	dec, err := eng.Eval(context.Background(), input)
	if err != nil || dec.Verdict != wire.Deny || len(dec.Rules) != 2 {
		t.Errorf("pack decision %+v, %v; want both denies", dec, err)
	}
}

// TestTightenEvalError checks that a user's rule that fails at
// evaluation blocks the call (a deny naming it), never lets it through.
func TestTightenEvalError(t *testing.T) {
	text := "package agentjail\n\nn := to_number(input.tool_input.command)\n\ndeny contains \"big\" if n > 3\n"
	tg, errs := CompileTightening(context.Background(), []Source{{Name: "e.rego", Text: []byte(text)}})
	if len(errs) > 0 || tg == nil {
		t.Fatalf("errors: %v", errs)
	}
	rules, err := tg.Eval(context.Background(), map[string]any{"tool_input": map[string]any{"command": "not a number"}})
	if err == nil || len(rules) != 1 || rules[0].Kind != wire.Deny || !rules[0].User {
		t.Errorf("got %v, %v; want one user deny and an error", rules, err)
	}
}

// TestTightenCompileErrorLeavesFileOut checks that a file OPA refuses (a
// type error, an unsafe built-in) is left out with its line while the
// others load, and that a syntax error is reported the same way.
func TestTightenCompileErrorLeavesFileOut(t *testing.T) {
	good := Source{Name: "good.rego", Text: []byte("package agentjail\n\nask contains \"g\"\n")}
	for _, bad := range []string{
		"package agentjail\n\ndeny contains x if {\n  x := http.send({\"method\": \"get\", \"url\": \"http://x\"})\n}\n",
		"package agentjail\n\ndeny contains x if {\n  x := undefined_fn(1)\n}\n",
		"package agentjail\n\ndeny contains x if {{\n",
	} {
		tg, errs := CompileTightening(context.Background(), []Source{{Name: "bad.rego", Text: []byte(bad)}, good})
		if len(errs) == 0 || errs[0].File != "bad.rego" || errs[0].Line == 0 {
			t.Errorf("%q: errors %v, want bad.rego with a line", bad, errs)
		}
		if tg == nil || len(tg.Sources()) != 1 {
			t.Errorf("%q: the good file did not load alone", bad)
		}
	}
	if tg, errs := CompileTightening(context.Background(), nil); tg != nil || len(errs) != 0 {
		t.Errorf("no files: %v, %v; want nil, none", tg, errs)
	}
}

// TestTightenRefusedNamesListed keeps the documented list in step.
func TestTightenRefusedNamesListed(t *testing.T) {
	names := RefusedTighteningNames()
	for _, want := range append([]string{"allow", "org", "internal", "shell_roles", "program_groups", "written_files", "credential_config_dirs"}, ConfigNames...) {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("%s is not refused", want)
		}
	}
}
