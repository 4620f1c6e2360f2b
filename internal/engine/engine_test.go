package engine

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

// defaultPack reads the embedded pack, tests included when withTests.
func defaultPack(t testing.TB, withTests bool) []Source {
	t.Helper()
	var out []Source
	err := fs.WalkDir(policies.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rego") {
			return err
		}
		if !withTests && strings.HasSuffix(path, "_test.rego") {
			return nil
		}
		b, err := fs.ReadFile(policies.FS, path)
		out = append(out, Source{Name: "default/" + path, Text: b, Pack: true})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDefaultPackTestsPass(t *testing.T) {
	results, errs := RunTests(context.Background(), defaultPack(t, true))
	if len(errs) > 0 {
		t.Fatalf("load errors: %v", errs)
	}
	if len(results) < 20 {
		t.Fatalf("ran %d tests, want the whole pack's (at least 20)", len(results))
	}
	for _, r := range results {
		if !r.Passed() {
			t.Errorf("%s:%d %s", r.File, r.Line, r)
		}
	}
}

const seedV0 = `package agentjail

deny[msg] {
  input.tool_name == "Bash"
  contains(input.tool_input.command, "/.ssh/")
  msg := "Blocked: command targets sensitive path ~/.ssh/"
}
`

const askV1 = `package agentjail

ask contains msg if {
  input.tool_name == "Bash"
  startswith(input.tool_input.command, "npm publish")
  msg := "Publishing a package cannot be undone"
}

allow contains {"id": "user.allow_ls", "msg": "ls is harmless"} if {
  input.tool_name == "Bash"
  startswith(input.tool_input.command, "ls ")
}
`

func bash(cmd string) map[string]any {
	return map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}
}

func TestVerdicts(t *testing.T) {
	eng, errs := Compile(context.Background(), []Source{
		{Name: "seed.rego", Text: []byte(seedV0)},
		{Name: "user.rego", Text: []byte(askV1)},
		{Name: "second_deny.rego", Text: []byte(`package agentjail
deny contains {"id": "a.first", "msg": "A first reason"} if contains(input.tool_input.command, "id_rsa")
deny contains {"id": "z.same_text", "msg": "Blocked: command targets sensitive path ~/.ssh/"} if contains(input.tool_input.command, "rm ")`)},
	}, nil, nil)
	if len(errs) > 0 {
		t.Fatalf("compile: %v", errs)
	}
	versions := map[string]string{}
	for _, s := range eng.Sources() {
		versions[s.Name] = s.RegoVersion
	}
	if versions["seed.rego"] != "v0" || versions["user.rego"] != "v1" {
		t.Errorf("detected versions %v, want seed v0 and user v1", versions)
	}
	tests := []struct {
		name     string
		input    map[string]any
		verdict  wire.Verdict
		explicit bool
		reason   string
		ids      []string
	}{
		{"deny from v0, same text shown once", bash("rm -rf ~/.ssh/"), wire.Deny, false, "Blocked: command targets sensitive path ~/.ssh/", []string{"", "z.same_text"}},
		{"two denies joined in order", bash("cat ~/.ssh/id_rsa"), wire.Deny, false, "A first reason; Blocked: command targets sensitive path ~/.ssh/", []string{"a.first", ""}},
		{"ask", bash("npm publish --access public"), wire.Ask, false, "Publishing a package cannot be undone", []string{""}},
		{"explicit allow", bash("ls ./src"), wire.Allow, true, "ls is harmless", []string{"user.allow_ls"}},
		{"nothing fired", bash("go test ./..."), wire.Allow, false, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := eng.Eval(context.Background(), tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if d.Verdict != tt.verdict || d.Explicit != tt.explicit || d.Reason != tt.reason {
				t.Errorf("got %s explicit=%v reason %q, want %s explicit=%v reason %q", d.Verdict, d.Explicit, d.Reason, tt.verdict, tt.explicit, tt.reason)
			}
			var ids []string
			for _, r := range d.Rules {
				ids = append(ids, r.ID)
			}
			if strings.Join(ids, ",") != strings.Join(tt.ids, ",") {
				t.Errorf("rule ids %q, want %q", ids, tt.ids)
			}
		})
	}
}

func TestCompileErrorsNameFileAndLine(t *testing.T) {
	tests := []struct {
		name, text string
		line       int
		want       string
	}{
		{"v1 syntax error", "package agentjail\n\ndeny contains msg if {\n  msg := \n}\n", 5, "unexpected }"},
		{"v0 syntax error reported as v0", "package agentjail\n\ndeny[msg] {\n  input.x ==\n}\n", 5, "unexpected }"},
		{"unsafe variable", "package agentjail\n\ndeny contains msg if {\n  input.x == y\n}\n", 3, "unsafe"},
		{"network built-in refused", "package agentjail\n\ndeny contains msg if {\n  r := http.send({\"method\": \"GET\", \"url\": \"http://127.0.0.1/\"})\n  msg := r.body\n}\n", 4, "policies run offline: http.send"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, errs := Compile(context.Background(), []Source{{Name: "/p/bad.rego", Text: []byte(tt.text)}}, nil, nil)
			if eng != nil || len(errs) == 0 {
				t.Fatalf("compiled, want an error")
			}
			e := errs[0]
			if e.File != "/p/bad.rego" || e.Line != tt.line || !strings.Contains(e.Message, tt.want) {
				t.Errorf("got %s, want /p/bad.rego line %d containing %q", e, tt.line, tt.want)
			}
		})
	}
}

func TestEvalErrorsDeny(t *testing.T) {
	tests := []struct{ name, text string }{
		{"conflicting complete rule", `package agentjail
mode := "a" if input.tool_name == "Bash"
mode := "b" if input.tool_input.command != ""
deny contains "x" if mode == "never"`},
		{"regex that does not compile", `package agentjail
deny contains "x" if regex.match(input.tool_input.command, "x")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, errs := Compile(context.Background(), []Source{{Name: "err.rego", Text: []byte(tt.text)}}, nil, nil)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			d, err := eng.Eval(context.Background(), bash("(["))
			if err == nil {
				t.Fatalf("no error, verdict %s", d.Verdict)
			}
			if d.Verdict != wire.Deny || !strings.Contains(d.Reason, "failed to evaluate") {
				t.Errorf("got %s %q, want a deny naming the evaluation error", d.Verdict, d.Reason)
			}
		})
	}
}
