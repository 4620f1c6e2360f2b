package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// fakeDerive stands in for the daemon's derivation: it marks the input
// and copies the command, so a test sees whether and from what the
// input was derived.
func fakeDerive(event []byte) ([]byte, error) {
	var in map[string]any
	if err := json.Unmarshal(event, &in); err != nil {
		return nil, err
	}
	ti, _ := in["tool_input"].(map[string]any)
	in["agentjail"] = map[string]any{"derived": true, "command": ti["command"]}
	return json.Marshal(in)
}

const derivedPolicy = `package agentjail

ask contains "derived" if input.agentjail.derived

# object.get keeps OPA's rule index from skipping the rule: the trace
# then shows the expression that failed.
ask contains "given" if {
	input.agentjail.derived
	object.get(input.agentjail, "given", false) == true
}
`

func TestRunTestsDerivesRawEvents(t *testing.T) {
	tests := []struct {
		name, test string
		pass       bool
	}{
		{"raw event in package agentjail_test", `package agentjail_test
import data.agentjail
test_x if { "derived" in agentjail.ask with input as {"tool_name": "Bash", "tool_input": {"command": "ls"}} }`, true},
		{"raw event in package agentjail", `package agentjail
test_x if { "derived" in ask with input as {"tool_name": "Bash"} }`, true},
		{"raw event in a variable", `package agentjail_test
import data.agentjail
test_x if { ev := {"tool_name": "Bash"}; "derived" in agentjail.ask with input as ev }`, true},
		{"a fixture with agentjail is used as given", `package agentjail_test
import data.agentjail
test_x if { "given" in agentjail.ask with input as {"tool_name": "Bash", "agentjail": {"given": true, "derived": true}} }`, true},
		{"one field replaced is not re-derived", `package agentjail_test
import data.agentjail
test_x if { count(agentjail.ask) == 0 with input.tool_name as "Bash" }`, true},
		{"a wrong expectation fails", `package agentjail_test
import data.agentjail
test_x if { count(agentjail.ask) == 0 with input as {"tool_name": "Bash"} }`, false},
		{"not an object is left alone", `package agentjail_test
import data.agentjail
test_x if { count(agentjail.ask) == 0 with input as "Bash" }`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sources := []Source{{Name: "/u/p.rego", Text: []byte(derivedPolicy)}, {Name: "/u/p_test.rego", Text: []byte(tt.test)}}
			results, errs := RunTestsWith(context.Background(), sources, TestOptions{Derive: fakeDerive})
			if len(errs) > 0 || len(results) != 1 {
				t.Fatalf("results %v, errors %v", results, errs)
			}
			if results[0].Passed() != tt.pass {
				t.Errorf("got %s, want passed=%v", results[0], tt.pass)
			}
		})
	}
}

// Without Derive, a raw event stays raw, as under plain opa test; the
// pack's own tests are never rewritten.
func TestRunTestsWithoutDerive(t *testing.T) {
	test := `package agentjail_test
import data.agentjail
test_x if { "derived" in agentjail.ask with input as {"tool_name": "Bash"} }`
	for _, pack := range []bool{false, true} {
		sources := []Source{{Name: "/u/p.rego", Text: []byte(derivedPolicy), Pack: pack}, {Name: "/u/p_test.rego", Text: []byte(test), Pack: pack}}
		opts := TestOptions{}
		if pack {
			opts.Derive = fakeDerive
		}
		results, errs := RunTestsWith(context.Background(), sources, opts)
		if len(errs) > 0 || len(results) != 1 || results[0].Outcome != "FAIL" {
			t.Errorf("pack=%v: results %v, errors %v; want the raw event not derived", pack, results, errs)
		}
	}
}

func TestRunTestsFilterAndTrace(t *testing.T) {
	var b strings.Builder
	b.WriteString("package agentjail_test\nimport data.agentjail\n")
	b.WriteString("test_pass if { \"derived\" in agentjail.ask with input as {} }\n")
	b.WriteString("test_fail if { \"given\" in agentjail.ask with input as {} }\n")
	// A failure that goes through many rules of a user file: its trace is
	// capped.
	b.WriteString("test_long if { \"many\" in agentjail.ask with input as {} }\n")
	var many strings.Builder
	many.WriteString("package agentjail\n")
	for i := range 100 {
		fmt.Fprintf(&many, "ask contains \"many\" if {\n\tinput.agentjail.derived\n\tobject.get(input, \"n\", -1) == %d\n}\n", i)
	}
	sources := []Source{{Name: "/u/p.rego", Text: []byte(derivedPolicy)}, {Name: "/u/p_test.rego", Text: []byte(b.String())}}

	results, errs := RunTestsWith(context.Background(), sources, TestOptions{Derive: fakeDerive, Trace: true, Run: "test_(pass|fail)$"})
	if len(errs) > 0 || len(results) != 2 {
		t.Fatalf("--run: results %v, errors %v; want test_pass and test_fail", results, errs)
	}
	fail := results[1]
	if fail.Name != "data.agentjail_test.test_fail" || fail.Outcome != "FAIL" {
		t.Fatalf("got %v", results)
	}
	out := fail.String()
	for _, want := range []string{"/u/p.rego:9", "| Fail ", "Enter data.agentjail.ask", "/u/p_test.rego:4"} {
		if !strings.Contains(out, want) {
			t.Errorf("the failure's trace lacks %q:\n%s", want, out)
		}
	}
	if results[0].Trace != "" {
		t.Errorf("a passing test has a trace: %q", results[0].Trace)
	}
	if untraced, _ := RunTestsWith(context.Background(), sources, TestOptions{Derive: fakeDerive, Run: "test_fail"}); len(untraced) != 1 || untraced[0].Trace != "" {
		t.Errorf("Trace unset, got %v", untraced)
	}

	long, _ := RunTestsWith(context.Background(), append(sources, Source{Name: "/u/many.rego", Text: []byte(many.String())}), TestOptions{Derive: fakeDerive, Trace: true, Run: "test_long"})
	if len(long) != 1 || long[0].Outcome != "FAIL" {
		t.Fatalf("got %v", long)
	}
	if n := strings.Count(long[0].Trace, "\n") + 1; n > MaxTraceLines+2 || !strings.Contains(long[0].Trace, "more lines") {
		t.Errorf("trace of %d lines, want it capped at %d with a note:\n%s", n, MaxTraceLines, long[0].Trace)
	}

	if _, errs := RunTestsWith(context.Background(), sources, TestOptions{Run: "test_("}); len(errs) != 1 || !strings.Contains(errs[0].Message, "not a regular expression") {
		t.Errorf("a bad --run: %v", errs)
	}
}

// The pack's own rules stay out of a failure's trace: a test of the
// verdict evaluates all of them.
func TestRunTestsTraceLeavesOutThePack(t *testing.T) {
	test := `package agentjail_test
import data.agentjail
test_fail if { "nothing.asks_this" in {m.id | some m in agentjail.ask} with input as {"tool_name": "Bash", "tool_input": {"command": "ls"}} }`
	sources := append(defaultPack(t, false), Source{Name: "/u/p_test.rego", Text: []byte(test)})
	results, errs := RunTestsWith(context.Background(), sources, TestOptions{Trace: true})
	if len(errs) > 0 || len(results) != 1 || results[0].Outcome != "FAIL" {
		t.Fatalf("results %v, errors %v", results, errs)
	}
	if strings.Contains(results[0].Trace, "default/") || !strings.Contains(results[0].Trace, "/u/p_test.rego:3") {
		t.Errorf("trace:\n%s", results[0].Trace)
	}
}

func TestTestDataLikeOPA(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("testdata/publish/data.json", `{"tool_name": "Bash"}`)
	write("testdata/other/x.yaml", "tool_name: Read\n")
	write("p.rego", "package agentjail\nthis is not read as data\n")
	write("notes.txt", "not data")
	docs, err := TestData(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(docs)
	if want := "map[testdata:map[other:map[tool_name:Read] publish:map[tool_name:Bash]]]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if docs, err := TestData(filepath.Join(dir, "missing")); docs != nil || err != nil {
		t.Errorf("a missing folder: %v, %v; want no data and no error, as for its policies", docs, err)
	}
	write("testdata/bad/data.json", `{`)
	if _, err := TestData(dir); err == nil || !strings.Contains(err.Error(), "testdata/bad/data.json") {
		t.Errorf("a broken data file: %v", err)
	}
}

func TestWithRegoV1Import(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"v1 gets the import", "# about\npackage agentjail\n\nask contains 1 if input.x\n", "# about\npackage agentjail\n\nimport rego.v1\n\nask contains 1 if input.x\n"},
		{"v1 without a final newline", "package agentjail\nask contains 1 if input.x", "package agentjail\n\nimport rego.v1\nask contains 1 if input.x"},
		{"v1 that has it", "package agentjail\n\nimport rego.v1\n\nask contains 1 if input.x\n", "package agentjail\n\nimport rego.v1\n\nask contains 1 if input.x\n"},
		{"v0 stays v0", "package agentjail\n\ndeny[1] { input.x }\n", "package agentjail\n\ndeny[1] { input.x }\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := WithRegoV1Import("f.rego", []byte(tt.in))
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := WithRegoV1Import("f.rego", []byte("package agentjail\ndeny[1] {")); err == nil {
		t.Error("a file that does not parse was exported")
	}
	// The whole pack, so exported, parses as v0 with the import, which is
	// what opa test --v0-compatible does with it.
	for _, src := range defaultPack(t, false) {
		text, err := WithRegoV1Import(src.Name, src.Text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ast.ParseModuleWithOpts(src.Name, string(text), ast.ParserOptions{RegoVersion: ast.RegoV0}); err != nil {
			t.Errorf("%s does not parse as v0 with import rego.v1: %v", src.Name, err)
		}
	}
}

func TestOPATestNeeds(t *testing.T) {
	v0 := Source{Name: "/u/ssh.rego", Text: []byte("package agentjail\n\ndeny[1] { input.x }\n")}
	v1 := Source{Name: "/u/team.rego", Text: []byte("package agentjail\n\nask contains 1 if input.x\n")}
	v1Import := Source{Name: "/u/pub.rego", Text: []byte("package agentjail\n\nimport rego.v1\n\nask contains 2 if input.x\n")}
	broken := Source{Name: "/u/broken.rego", Text: []byte("package agentjail\ndeny[1] {")}
	tests := []struct {
		name         string
		sources      []Source
		v0, noImport string
	}{
		{"v1 only: plain opa test reads it", []Source{v1, v1Import}, "", ""},
		{"v0 only", []Source{v0}, "/u/ssh.rego", ""},
		{"v0 and v1 with the import", []Source{v0, v1Import, broken}, "/u/ssh.rego", ""},
		{"v0 and v1 without it", []Source{v0, v1, v1Import}, "/u/ssh.rego", "/u/team.rego"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v0, noImport := OPATestNeeds(tt.sources)
			if strings.Join(v0, ",") != tt.v0 || strings.Join(noImport, ",") != tt.noImport {
				t.Errorf("got %v, %v; want %q, %q", v0, noImport, tt.v0, tt.noImport)
			}
		})
	}
}
