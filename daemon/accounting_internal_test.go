package daemon

import "testing"

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
