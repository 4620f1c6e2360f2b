package daemon_test

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/wire"
)

// appendFail writes a line to the hook's failure log, as the hook does.
func appendFail(t *testing.T, home string, rec wire.FailRecord) {
	t.Helper()
	b, _ := json.Marshal(rec)
	f, err := os.OpenFile(filepath.Join(home, paths.FailLogName), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(b, '\n'))
	f.Close()
}

// A call the hook failed open on is one unchecked record, "failed open",
// with the agent of the hook's flag, whether the agent's post-tool event
// for it comes too or not; a bad event, which names no call, is one too;
// a fail-closed record is not (nothing ran).
func TestFailOpensAreUncheckedOnce(t *testing.T) {
	d := daemontest.Start(t, nil)
	now := func() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00") }
	input, _ := json.Marshal(map[string]any{"command": "cat ~/.aws/credentials"})
	appendFail(t, d.Home, wire.FailRecord{Time: now(), Mode: "open", Cause: wire.CauseNoDaemon, Error: "no daemon", Agent: "codex", Session: "s-codex", Tool: "Bash", ToolUseID: "call_1", Input: input})
	appendFail(t, d.Home, wire.FailRecord{Time: now(), Mode: "open", Cause: wire.CauseBadEvent, Error: "stdin not closed", Agent: "gemini"})
	appendFail(t, d.Home, wire.FailRecord{Time: now(), Mode: "closed", Cause: wire.CauseNoDaemon, Error: "no daemon", Agent: "qwen", Session: "s-qwen", Tool: "Bash", ToolUseID: "x"})
	rec := recordWith(t, d, "the failed-open call", func(r decisionlog.Record) bool {
		return r.Verdict == decisionlog.VerdictUnchecked && r.SessionID == "s-codex"
	})
	if rec.Agent != "codex" || rec.Summary != "cat ~/.aws/credentials" || rec.Unchecked == nil || !strings.Contains(rec.Unchecked.Cause, "failed open") || !strings.Contains(rec.Unchecked.Cause, "no daemon was running") {
		t.Errorf("record %+v %+v", rec, rec.Unchecked)
	}
	// Codex's post-tool event of the same call, as the hook sends it.
	post, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "session_id": "s-codex", "tool_use_id": "call_1", "cwd": "/work/p", "tool_name": "Bash", "tool_input": map[string]any{"command": "cat ~/.aws/credentials"}})
	if _, err := (&wire.Client{Socket: d.Socket}).Do(t.Context(), &wire.Request{Op: wire.OpObserve, Event: post, Agent: "codex"}); err != nil {
		t.Fatal(err)
	}
	recordWith(t, d, "the bad event", func(r decisionlog.Record) bool {
		return r.Verdict == decisionlog.VerdictUnchecked && r.Agent == "gemini" && r.Unchecked != nil && strings.Contains(r.Unchecked.Cause, "not one JSON object")
	})
	time.Sleep(3 * time.Second) // another poll of the log, and the post-tool event settled
	var got []string
	for _, r := range readRecords(t, d) {
		got = append(got, r.Agent+" "+string(r.Verdict)+" "+r.SessionID)
	}
	if strings.Join(got, "\n") != "codex unchecked s-codex\ngemini unchecked " {
		t.Errorf("decision log:\n%s\nwant the codex call and the bad event, once each", strings.Join(got, "\n"))
	}
}

// A daemon with no desktop says where a held call is answered: only a
// terminal, as nothing else shows it.
func TestHeadlessStatusSaysOnlyATerminalAnswers(t *testing.T) {
	d := daemontest.Start(t, nil)
	st, err := (&wire.Client{Socket: d.Socket}).Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Answers, "runs headless") || !strings.Contains(st.Answers, "agentjail pending") {
		t.Errorf("answers %q", st.Answers)
	}
}

// A held call is listed from the moment it is held: the hook hears
// "held" only once the approval is open, so pending asked right then
// lists it.
func TestAHeldCallIsListedAtOnce(t *testing.T) {
	d := daemontest.Start(t, nil)
	conn, err := net.Dial("unix", d.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := &wire.Request{Op: wire.OpDecide, Event: askEvent("codex", "s-held", "git reset --hard HEAD~3"), Agent: "codex", HookTimeoutMillis: 2000, HoldMillis: 30000, HookStartMillis: time.Now().UnixMilli()}
	if err := wire.WriteFrame(conn, req); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	body, err := wire.ReadFrame(bufio.NewReader(conn))
	if err != nil || !strings.Contains(string(body), `"held"`) {
		t.Fatalf("the call was not held: %s %v", body, err)
	}
	list, err := (&wire.Client{Socket: d.Socket}).Pending(t.Context(), true)
	if err != nil || len(list) != 1 {
		t.Errorf("pending right after the hold: %+v %v", list, err)
	}
}
