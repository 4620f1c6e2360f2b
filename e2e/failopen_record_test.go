package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// One truth for a call the hook let run unchecked: with the daemon
// killed, the real hook fails open on a Codex call and on an event it
// cannot read (a bad_event of Gemini's); once a daemon runs again, the
// decision log holds one "failed open" unchecked record for each, with
// the agent of the hook's flag; Codex's post-tool event for the same call
// adds no second row; logs, logs --unchecked and audit agree, and none
// of them counts a deny.
func TestAFailOpenIsOneUncheckedRecord(t *testing.T) {
	e := newEnv(t)
	if r := e.cli("install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	t.Cleanup(func() { e.cli("uninstall") })
	failOpen(t, e) // the daemon stopped and no agentjail to start

	event := func(hook string) string {
		b, _ := json.Marshal(map[string]any{"hook_event_name": hook, "session_id": "s-fo", "tool_use_id": "call_fo", "cwd": e.home, "tool_name": "Bash", "tool_input": map[string]any{"command": "cat ~/.aws/credentials"}})
		return string(b)
	}
	if r := e.hook(event("PreToolUse"), "--agent", "codex"); r.code != 0 || !strings.Contains(r.stdout+r.stderr, "allowed unchecked") {
		t.Fatalf("the hook did not fail open: %+v", r)
	}
	if r := e.hook("not json", "--agent", "gemini"); r.code != 0 || !strings.Contains(r.stdout+r.stderr, "allowed unchecked") {
		t.Fatalf("the bad event did not fail open: %+v", r)
	}
	var fails []map[string]any
	b, _ := os.ReadFile(filepath.Join(e.ajHome, "hook-failures.jsonl"))
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		json.Unmarshal([]byte(line), &m)
		fails = append(fails, m)
	}
	if len(fails) != 2 || fails[0]["agent"] != "codex" || fails[0]["session"] != "s-fo" || fails[0]["tool"] != "Bash" || !strings.Contains(string(b), `"command":"cat ~/.aws/credentials"`) || fails[1]["agent"] != "gemini" || fails[1]["cause"] != "bad_event" {
		t.Fatalf("the failure log does not name the calls:\n%s", b)
	}

	// The daemon back, then Codex's post-tool event of the call that ran.
	os.Rename(filepath.Join(e.ajHome, "bin", "agentjail.away"), filepath.Join(e.ajHome, "bin", "agentjail"))
	if r := e.cli("install"); r.code != 0 {
		t.Fatalf("install again: %+v", r)
	}
	harmless, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s-ok", "tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}, "cwd": e.home})
	if r := e.hook(string(harmless)); r.code != 0 || strings.Contains(r.stdout+r.stderr, "unchecked") {
		t.Fatalf("the daemon did not start: %+v", r)
	}
	e.hook(event("PostToolUse"), "--agent", "codex", "--post")

	var rows []map[string]any
	waitForLong(t, "audit to count both fail-opens", 30*time.Second, func() bool {
		rows = nil
		json.Unmarshal([]byte(e.cli("audit", "--json").stdout), &rows)
		n := 0
		for _, r := range rows {
			if r["failed_open"] == float64(1) {
				n++
			}
		}
		return n == 2
	})
	time.Sleep(3 * time.Second) // the post-tool event settled, another read of the failure log
	rows = nil
	json.Unmarshal([]byte(e.cli("audit", "--json").stdout), &rows)
	got := map[string]string{}
	for _, r := range rows {
		got[r["agent"].(string)+" "+r["session"].(string)] = strings.Join([]string{jsonNum(r["seen"]), jsonNum(r["denied"]), jsonNum(r["unchecked"]), jsonNum(r["failed_open"])}, "/")
	}
	// seen/denied/unchecked/failed open
	if got["codex s-fo"] != "1/0/1/1" || got["gemini "] != "1/0/1/1" {
		t.Errorf("audit rows %v, want codex s-fo and gemini each 1 seen, 0 denied, 1 unchecked, 1 failed open", got)
	}
	unchecked := e.cli("logs", "--unchecked")
	if strings.Count(unchecked.stdout, "failed open") != 2 || !strings.Contains(unchecked.stdout, "codex") || !strings.Contains(unchecked.stdout, "gemini") || strings.Contains(unchecked.stdout, "post-tool hook but not its pre-tool hook") {
		t.Errorf("logs --unchecked:\n%s", unchecked.stdout)
	}
	if logs := e.cli("logs", "-n", "0"); strings.Contains(logs.stdout, "deny") || strings.Contains(logs.stdout, "undelivered") {
		t.Errorf("logs counts a deny:\n%s", logs.stdout)
	}
}

func jsonNum(v any) string {
	f, _ := v.(float64)
	return strconv.Itoa(int(f))
}
