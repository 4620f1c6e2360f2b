package installer

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// With fail_mode: closed, the entry also asks Claude Code to block a call
// when the hook cannot even start; failing open, it does not.
func TestEntryFailMode(t *testing.T) {
	tests := []struct {
		name       string
		failClosed bool
		onFailure  string
		flag       bool
	}{
		{"closed", true, "block", true},
		{"open", false, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Home: "/home/u/.agentjail", FailClosed: tt.failClosed, HookTimeout: 2 * time.Second}
			e := o.entry()
			if got := e.Hooks[0].OnFailure; got != tt.onFailure {
				t.Errorf("onFailure %q, want %q", got, tt.onFailure)
			}
			if got := strings.Contains(e.Hooks[0].Command, "--fail-closed"); got != tt.flag {
				t.Errorf("command %q: --fail-closed %v, want %v", e.Hooks[0].Command, got, tt.flag)
			}
			b, _ := json.Marshal(e)
			if got := strings.Contains(string(b), `"onFailure":"block"`); got != tt.failClosed {
				t.Errorf("written entry %s", b)
			}
		})
	}
}

// Switching an installed file to fail closed updates our entry in place,
// and uninstalling still gives back the user's file byte for byte.
func TestFailClosedInstallAndRestore(t *testing.T) {
	user := "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/audit.sh\"}]}\n    ]\n  }\n}\n"
	open := Options{Home: "/home/u/.agentjail"}.entry()
	closed := Options{Home: "/home/u/.agentjail", FailClosed: true}.entry()
	withOpen, err := AddHook("settings.json", []byte(user), open)
	if err != nil {
		t.Fatal(err)
	}
	withClosed, err := AddHook("settings.json", withOpen, closed)
	if err != nil {
		t.Fatal(err)
	}
	sameAsGolden(t, "fail_closed.golden.json", withClosed)
	if strings.Count(string(withClosed), "agentjail-hook") != 1 || !strings.Contains(string(withClosed), `"onFailure": "block"`) {
		t.Errorf("not one fail-closed entry:\n%s", withClosed)
	}
	restored, removed, err := RemoveHooks("settings.json", withClosed)
	if err != nil || !removed || string(restored) != user {
		t.Errorf("removed=%v err=%v, restored\n%s\nwant\n%s", removed, err, restored, user)
	}
}
