package engine

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/agentjail/agentjail/internal/input"
)

// keyRecorder is an input.Builder that only notes the keys written.
type keyRecorder struct{ keys map[string]bool }

func (keyRecorder) String(string) struct{}       { return struct{}{} }
func (keyRecorder) Int(int) struct{}             { return struct{}{} }
func (keyRecorder) Bool(bool) struct{}           { return struct{}{} }
func (keyRecorder) Strings([]string) struct{}    { return struct{}{} }
func (keyRecorder) Array([]struct{}) struct{}    { return struct{}{} }
func (keyRecorder) JSON(any) struct{}            { return struct{}{} }
func (keyRecorder) Mark() int                    { return 0 }
func (r keyRecorder) Field(k string, _ struct{}) { r.keys[k] = true }
func (keyRecorder) Object(int) struct{}          { return struct{}{} }

// TestInputKeysInterned checks that every key of input.agentjail's
// shape is interned, so that no decision makes its own copy of one.
func TestInputKeysInterned(t *testing.T) {
	r := keyRecorder{keys: map[string]bool{}}
	for _, ev := range []string{
		`{"tool_name":"Bash","tool_input":{"command":"ls -l src > out.txt; bash -c 'x' 2>&1 | tee log; $(true); cat <(date)"}}`,
		`{"tool_name":"Grep","tool_input":{"pattern":"x","path":"/a"}}`,
		`{"tool_name":"Bash","tool_input":{"command":"(("}}`,
		`{"tool_name":"Write","tool_input":{"file_path":"~/.claude/settings.json","content":"{}"}}`,
	} {
		_, d, err := input.Build([]byte(ev), input.Env{Home: "/home/dev", ClientCwd: "/w/p"})
		if err != nil {
			t.Fatal(err)
		}
		input.Encode(d, r)
	}
	if len(r.keys) < 40 {
		t.Fatalf("only %d keys recorded", len(r.keys))
	}
	for k := range r.keys {
		if !ast.HasInternedValue(k) {
			t.Errorf("key %q is not in internedStrings", k)
		}
	}
}
