package daemon_test

import (
	"context"
	"encoding/json"
	"path/filepath"
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
