package daemon

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentjail/agentjail/internal/jail"
)

// A call's digest does not depend on how its input was written: a record
// keeps the model's key order and spacing, the judged event is
// re-encoded with its keys sorted. Calls that differ still differ.
func TestCallDigestIgnoresHowTheInputIsWritten(t *testing.T) {
	judged := callDigest("s1", "Execute", []byte(`{"command":"ls","riskLevel":"low","summary":"List"}`))
	for _, tc := range []struct {
		name, input string
		same        bool
	}{
		{"the same bytes", `{"command":"ls","riskLevel":"low","summary":"List"}`, true},
		{"the model's key order", `{"summary":"List","command":"ls","riskLevel":"low"}`, true},
		{"spaces", `{ "command": "ls", "riskLevel": "low", "summary": "List" }`, true},
		{"another command", `{"command":"rm -rf build","riskLevel":"low","summary":"List"}`, false},
		{"another field", `{"command":"ls","riskLevel":"high","summary":"List"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := callDigest("s1", "Execute", []byte(tc.input)); (got == judged) != tc.same {
				t.Errorf("digest %s, judged %s: want same %v", got, judged, tc.same)
			}
		})
	}
	if n := callDigest("s1", "Execute", []byte(`{"timeout":1.0}`)); n != callDigest("s1", "Execute", []byte(`{"timeout":1}`)) {
		t.Errorf("1.0 and 1 digest differently")
	}
}

// A post-tool event that carries a confined call's rewritten command
// (one, or a list of them) names the call the judge saw; anything else
// comes back as it was.
func TestUnjailedNamesTheJudgedCall(t *testing.T) {
	launch := func(c string) string { return jail.Command("/h/agentjail-hook", "/p.json", c) }
	enc := func(v any) []byte { b, _ := json.Marshal(v); return b }
	for _, tc := range []struct {
		name     string
		in, want any
	}{
		{"a command", map[string]any{"command": launch("ls -l"), "description": "d"}, map[string]any{"command": "ls -l", "description": "d"}},
		{"a list", map[string]any{"commands": []any{launch("a"), launch("b 'c'")}}, map[string]any{"commands": []any{"a", "b 'c'"}}},
		{"not a launch", map[string]any{"command": "echo jail"}, map[string]any{"command": "echo jail"}},
		{"a launch not ours", map[string]any{"command": "'/bin/x' jail '/p' 'ls'"}, map[string]any{"command": "'/bin/x' jail '/p' 'ls'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got, want any
			json.Unmarshal(unjailed(enc(tc.in)), &got)
			json.Unmarshal(enc(tc.want), &want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("unjailed(%s) = %v, want %v", enc(tc.in), got, want)
			}
		})
	}
}
