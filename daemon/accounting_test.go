package daemon_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// claudeEvent is a Claude Code event of hook (PreToolUse, PostToolUse)
// for a Bash call with id.
func claudeEvent(hook, session, id, command string) []byte {
	b, _ := json.Marshal(map[string]any{"hook_event_name": hook, "session_id": session, "tool_use_id": id, "cwd": "/work/p", "tool_name": "Bash", "tool_input": map[string]any{"command": command}})
	return b
}

func observe(t *testing.T, d *daemontest.Daemon, event []byte) {
	t.Helper()
	if _, err := (&wire.Client{Socket: d.Socket}).Do(context.Background(), &wire.Request{Op: wire.OpObserve, Event: event, Agent: "claude-code"}); err != nil {
		t.Fatal(err)
	}
}

// A post-tool event of a call the daemon judged is accounted for; one it
// never judged is recorded unchecked, once, and status says so.
func TestPostToolEventsAccountForEveryCall(t *testing.T) {
	d := daemontest.Start(t, nil)
	client := &wire.Client{Socket: d.Socket}
	if _, err := client.Decide(context.Background(), &wire.Request{Event: claudeEvent("PreToolUse", "s1", "toolu_1", "ls"), Agent: "claude-code"}); err != nil {
		t.Fatal(err)
	}
	observe(t, d, claudeEvent("PostToolUse", "s1", "toolu_1", "ls"))
	observe(t, d, claudeEvent("PostToolUse", "s1", "toolu_2", "rm -rf build"))
	observe(t, d, claudeEvent("PostToolUse", "s1", "toolu_2", "rm -rf build")) // twice: once in the log
	rec := recordWith(t, d, "the unchecked call", func(r decisionlog.Record) bool { return r.Verdict == decisionlog.VerdictUnchecked })
	if rec.Summary != "rm -rf build" || rec.Unchecked == nil || rec.Unchecked.ToolUseID != "toolu_2" || !strings.Contains(rec.Unchecked.Cause, "post-tool hook but not its pre-tool hook") || rec.SessionID != "s1" {
		t.Errorf("unchecked record %+v %+v", rec, rec.Unchecked)
	}
	recordWith(t, d, "the judged call", func(r decisionlog.Record) bool { return r.Summary == "ls" && r.Verdict == "allow" })
	time.Sleep(200 * time.Millisecond) // the repeat, had it been logged, would be by now
	n := 0
	for _, r := range readRecords(t, d) {
		if r.Verdict == decisionlog.VerdictUnchecked {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d unchecked records, want 1 (the judged ls is not one, and the repeat is logged once)", n)
	}
	st, _ := client.Status(context.Background())
	found := false
	for _, p := range st.Problems {
		found = found || p.Kind == "unchecked" && strings.Contains(p.Message, "1 call ran unchecked")
	}
	if !found {
		t.Errorf("status problems %+v, want the unchecked call", st.Problems)
	}
	if a := st.Accounting; a == nil || a.PostEvents != 3 || a.Judged != 1 || a.RecordCalls != 0 {
		t.Errorf("status accounting %+v, want 3 post-tool events, 1 found judged", a)
	}
}

// A post-tool event sent the moment the hook has its answer (a fast
// tool, an agent that reports at once) finds the call judged: the
// accounting learns of a judgment before its answer is written.
func TestPostToolEventRightAfterTheAnswer(t *testing.T) {
	d := daemontest.Start(t, nil)
	client := &wire.Client{Socket: d.Socket}
	const calls = 40
	for i := range calls {
		id := "toolu_" + strconv.Itoa(i)
		command := "ls step" + strconv.Itoa(i)
		if _, err := client.Decide(context.Background(), &wire.Request{Event: claudeEvent("PreToolUse", "s1", id, command), Agent: "claude-code"}); err != nil {
			t.Fatal(err)
		}
		observe(t, d, claudeEvent("PostToolUse", "s1", id, command))
	}
	st, err := client.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if a := st.Accounting; a == nil || a.PostEvents != calls || a.Judged != calls {
		t.Errorf("status accounting %+v, want %d post-tool events, all found judged", a, calls)
	}
	for _, r := range readRecords(t, d) {
		if r.Verdict == decisionlog.VerdictUnchecked {
			t.Errorf("a judged call was recorded unchecked: %+v %+v", r, r.Unchecked)
		}
	}
}

// readRecords is every record of d's decision log now.
func readRecords(t *testing.T, d *daemontest.Daemon) []decisionlog.Record {
	t.Helper()
	recs, err := decisionlog.Read(filepath.Join(d.Home, "decisions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// A decision is logged with its session whichever field the agent names
// it in (Copilot CLI's sessionId): the audit counts a session's judged
// calls by it.
func TestDecisionsKeepTheSessionOfEveryShape(t *testing.T) {
	d := daemontest.Start(t, nil)
	client := &wire.Client{Socket: d.Socket}
	event := []byte(`{"sessionId":"s-copilot","timestamp":1795679111375,"cwd":"/work/p","toolName":"bash","toolArgs":{"command":"echo copilot-shape","description":"Run it"}}`)
	if _, err := client.Decide(context.Background(), &wire.Request{Event: event, Agent: "copilot"}); err != nil {
		t.Fatal(err)
	}
	rec := recordWith(t, d, "the judged call", func(r decisionlog.Record) bool { return r.Summary == "echo copilot-shape" })
	if rec.SessionID != "s-copilot" || rec.Agent != "copilot" {
		t.Errorf("decision %+v, want session s-copilot", rec)
	}
}

// Agents whose events name the call their own way: the post-tool event
// of a judged call settles it, and one of a call never judged, in the
// same session or another conversation with the same call id (a Cline
// subagent's), is recorded unchecked with the id and session its events
// carry.
func TestPostToolEventsOfEachShape(t *testing.T) {
	piEvent := func(hook, session, id, command string) []byte {
		b, _ := json.Marshal(map[string]any{"hook_event_name": hook, "toolName": "bash", "toolCallId": id, "input": map[string]any{"command": command}, "cwd": "/work/p", "session_id": session})
		return b
	}
	clineEvent := func(hook, session, id, command string) []byte {
		call := map[string]any{"id": id, "name": "run_commands", "input": map[string]any{"commands": []any{command}}}
		ev := map[string]any{"clineVersion": "", "hookName": hook, "taskId": session, "workspaceRoots": []any{"/work/p"}, "agent_id": "agent_1", "parent_agent_id": nil, hook: call}
		if hook == "tool_call" {
			ev["preToolUse"] = map[string]any{"toolName": "run_commands", "parameters": map[string]any{"commands": `["` + command + `"]`}}
		}
		b, _ := json.Marshal(ev)
		return b
	}
	tests := []struct {
		name, agent, pre, post string
		event                  func(hook, session, id, command string) []byte
	}{
		{"pi", "pi", "tool_call", "tool_result", piEvent},
		{"cline", "cline", "tool_call", "tool_result", clineEvent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := daemontest.Start(t, nil)
			client := &wire.Client{Socket: d.Socket}
			if _, err := client.Decide(context.Background(), &wire.Request{Event: tt.event(tt.pre, "s1", "call_1", "ls"), Agent: tt.agent}); err != nil {
				t.Fatal(err)
			}
			// Logged in the session the accounting knows it by.
			recordWith(t, d, "the judged call", func(r decisionlog.Record) bool { return r.Verdict == "allow" && r.SessionID == "s1" })
			for _, ev := range [][]byte{
				tt.event(tt.post, "s1", "call_1", "ls"),
				tt.event(tt.post, "s1", "call_2", "echo second"),
				tt.event(tt.post, "s2", "call_1", "echo other"),
			} {
				if _, err := client.Do(context.Background(), &wire.Request{Op: wire.OpObserve, Event: ev, Agent: tt.agent}); err != nil {
					t.Fatal(err)
				}
			}
			recordWith(t, d, "the other conversation's call", func(r decisionlog.Record) bool {
				return r.Verdict == decisionlog.VerdictUnchecked && r.SessionID == "s2"
			})
			var got []string
			for _, r := range readRecords(t, d) {
				if r.Verdict == decisionlog.VerdictUnchecked {
					got = append(got, r.Agent+" "+r.SessionID+" "+r.Unchecked.ToolUseID+" "+r.Unchecked.Source+" "+r.Cwd+" "+r.Summary)
				}
			}
			want := []string{tt.agent + " s1 call_2 post-tool event /work/p echo second", tt.agent + " s2 call_1 post-tool event /work/p echo other"}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("unchecked:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// pluginEvent is the event our opencode and Kilo CLI plugin sends for a
// bash call: hook is tool.execute.before or, with --post, after.
func pluginEvent(hook, client, session, id, command string) []byte {
	b, _ := json.Marshal(map[string]any{"hook_event_name": hook, "client": client, "tool": "bash", "args": map[string]any{"command": command, "description": "Run it"}, "sessionID": session, "callID": id, "cwd": "/work/p", "worktree": "/work/p"})
	return b
}

// The plugin's tool.execute.after is matched with the tool.execute.before
// the daemon judged by sessionID and callID; one whose call was never
// judged is recorded unchecked, as the agent the hook's --agent names.
func TestPluginPostEventsAccountForEveryCall(t *testing.T) {
	for _, name := range []string{"opencode", "kilo"} {
		t.Run(name, func(t *testing.T) {
			d := daemontest.Start(t, nil)
			client := &wire.Client{Socket: d.Socket}
			if _, err := client.Decide(context.Background(), &wire.Request{Event: pluginEvent("tool.execute.before", name, "ses_1", "call_1", "ls"), Agent: name}); err != nil {
				t.Fatal(err)
			}
			recordWith(t, d, "the judged call", func(r decisionlog.Record) bool { return r.Summary == "ls" && r.Verdict == "allow" })
			for _, ev := range [][]byte{
				pluginEvent("tool.execute.after", name, "ses_1", "call_1", "ls"),
				pluginEvent("tool.execute.after", name, "ses_1", "call_2", "rm -rf build"),
			} {
				if _, err := client.Do(context.Background(), &wire.Request{Op: wire.OpObserve, Event: ev, Agent: name}); err != nil {
					t.Fatal(err)
				}
			}
			rec := recordWith(t, d, "the unchecked call", func(r decisionlog.Record) bool { return r.Verdict == decisionlog.VerdictUnchecked })
			if rec.Agent != name || rec.SessionID != "ses_1" || rec.Tool != "bash" || rec.Summary != "rm -rf build" || rec.Unchecked == nil || rec.Unchecked.ToolUseID != "call_2" || rec.Unchecked.Source != "post-tool event" {
				t.Errorf("unchecked record %+v %+v", rec, rec.Unchecked)
			}
			time.Sleep(200 * time.Millisecond)
			n := 0
			for _, r := range readRecords(t, d) {
				if r.Verdict == decisionlog.VerdictUnchecked {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d unchecked records, want 1: the judged ls is accounted for", n)
			}
		})
	}
}
