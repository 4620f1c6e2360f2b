package daemon_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// askEvent is an event of agent whose policy verdict is ask.
func askEvent(agent, session, command string) []byte {
	ev := map[string]any{"session_id": session, "cwd": "/work/p", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": command}}
	if agent == "codex" {
		ev["turn_id"] = "t1"
	}
	b, _ := json.Marshal(ev)
	return b
}

// heldCall sends a decide request that may be held for hold, as the
// hook does; its decision (or error) arrives on the channel.
type heldCall struct {
	dec *wire.Decision
	err error
}

func sendHeld(d *daemontest.Daemon, agent string, event []byte, hold time.Duration) chan heldCall {
	out := make(chan heldCall, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		req := &wire.Request{Event: event, Agent: agent, HookTimeoutMillis: 2000, HoldMillis: hold.Milliseconds(), HookStartMillis: time.Now().UnixMilli()}
		dec, err := (&wire.Client{Socket: d.Socket}).DecideBrief(ctx, req)
		out <- heldCall{dec, err}
	}()
	return out
}

// waiting waits until one call is pending and returns it with its code.
func waiting(t *testing.T, d *daemontest.Daemon) wire.Pending {
	t.Helper()
	var list []wire.Pending
	eventually(t, "a pending call", func() bool {
		var err error
		list, err = (&wire.Client{Socket: d.Socket}).Pending(context.Background(), true)
		return err == nil && len(list) == 1
	})
	return list[0]
}

func answered(t *testing.T, ch chan heldCall) *wire.Decision {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.dec
	case <-time.After(30 * time.Second):
		t.Fatal("the held call was never answered")
	}
	return nil
}

const askCommand = "git reset --hard HEAD~1"

func TestAHeldCallWaitsForAPerson(t *testing.T) {
	d := startWith(t, "approval_timeout: 20s\n", nil)
	client := &wire.Client{Socket: d.Socket}

	t.Run("allowed once with its code", func(t *testing.T) {
		ch := sendHeld(d, "codex", askEvent("codex", "s1", askCommand), 20*time.Second)
		p := waiting(t, d)
		if p.Agent != "codex" || p.Summary != askCommand || len(p.Code) != 6 || p.Rules[0] != "git.discard_work" || !p.Grantable {
			t.Fatalf("pending %+v", p)
		}
		if _, err := client.Answer(context.Background(), wire.ApprovalAnswer{ID: p.ID, Allow: true}); err == nil {
			t.Fatal("an answer without the code was taken")
		}
		if _, err := client.Answer(context.Background(), wire.ApprovalAnswer{ID: p.ID, Code: p.Code, Allow: true}); err != nil {
			t.Fatal(err)
		}
		dec := answered(t, ch)
		if dec.Verdict != wire.Allow || !strings.Contains(dec.Reason, "A person approved") {
			t.Errorf("decision %+v", dec)
		}
		rec := recordWith(t, d, "the approval's record", func(r decisionlog.Record) bool { return r.Approval != nil && r.Approval.ID == p.ID })
		if rec.Verdict != "allow" || rec.Approval.By != "person" || rec.Approval.Via != wire.ViaTerminal || rec.Approval.Digest != p.Digest || len(rec.RuleIDs) == 0 {
			t.Errorf("logged %+v %+v", rec, rec.Approval)
		}
	})

	t.Run("denied by a person", func(t *testing.T) {
		ch := sendHeld(d, "codex", askEvent("codex", "s1", askCommand), 20*time.Second)
		p := waiting(t, d)
		client.Answer(context.Background(), wire.ApprovalAnswer{ID: p.ID, Code: p.Code})
		dec := answered(t, ch)
		if dec.Verdict != wire.Deny || !strings.Contains(dec.Reason, "A person denied this call") || strings.Contains(dec.Reason, p.Code) {
			t.Errorf("decision %+v", dec)
		}
	})

	t.Run("nobody answers", func(t *testing.T) {
		ch := sendHeld(d, "codex", askEvent("codex", "s1", askCommand), time.Second)
		p := waiting(t, d)
		dec := answered(t, ch)
		if dec.Verdict != wire.Deny || !strings.Contains(dec.Reason, "nobody answered") || !strings.Contains(dec.Reason, "agentjail approve") || strings.Contains(dec.Reason, p.Code) {
			t.Errorf("decision %+v", dec)
		}
		if rec := recordWith(t, d, "the timeout's record", func(r decisionlog.Record) bool { return r.Approval != nil && r.Approval.ID == p.ID }); rec.Approval.By != "timeout" || rec.Verdict != "deny" {
			t.Errorf("logged %+v", rec.Approval)
		}
	})

	t.Run("a project grant covers its family in its project only", func(t *testing.T) {
		ch := sendHeld(d, "codex", askEvent("codex", "s1", askCommand), 20*time.Second)
		p := waiting(t, d)
		if _, err := client.Answer(context.Background(), wire.ApprovalAnswer{ID: p.ID, Code: p.Code, Allow: true, Scope: wire.ScopeProject}); err != nil {
			t.Fatal(err)
		}
		answered(t, ch)
		// The same family in the same project, another session: at once.
		if dec := answered(t, sendHeld(d, "codex", askEvent("codex", "s2", "git reset --hard HEAD~3"), 20*time.Second)); dec.Verdict != wire.Allow || !strings.Contains(dec.Reason, "grant") {
			t.Errorf("covered call: %+v", dec)
		}
		recordWith(t, d, "the grant's record", func(r decisionlog.Record) bool {
			return r.Approval != nil && r.Approval.By == "grant" && r.Verdict == "allow" && r.Summary == "git reset --hard HEAD~3"
		})
		// Another family still waits.
		ch = sendHeld(d, "codex", askEvent("codex", "s1", "git clean -fdx"), time.Second)
		waiting(t, d)
		if dec := answered(t, ch); dec.Verdict != wire.Deny {
			t.Errorf("another family: %+v", dec)
		}
		// A deny is never granted away.
		if dec := answered(t, sendHeld(d, "codex", askEvent("codex", "s1", "git reset --hard && cat ~/.ssh/id_rsa"), time.Second)); dec.Verdict != wire.Deny {
			t.Errorf("a deny with a granted family: %+v", dec)
		}
		grants, _ := client.Grants(context.Background())
		if len(grants) != 1 || grants[0].Uses != 1 {
			t.Errorf("grants %+v", grants)
		}
		if _, err := client.RevokeGrants(context.Background(), wire.Revoke{All: true}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestWhatIsHeldAndWhatIsNot(t *testing.T) {
	for _, tc := range []struct {
		name, config, agent string
		hold                time.Duration
		held                bool
	}{
		{"an agent that cannot ask", "", "codex", 5 * time.Second, true},
		{"an agent that asks itself", "", "claude-code", 5 * time.Second, false},
		{"approvals: agentjail for every agent", "approvals: agentjail\n", "claude-code", 5 * time.Second, true},
		{"a hook that may not hold", "", "codex", 0, false},
		{"approval_timeout: 0", "approval_timeout: 0\n", "codex", 5 * time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := startWith(t, tc.config, nil)
			start := time.Now()
			ch := sendHeld(d, tc.agent, askEvent(tc.agent, "s1", askCommand), tc.hold)
			if !tc.held {
				if dec := answered(t, ch); dec.Verdict != wire.Ask {
					t.Errorf("decision %+v, want the ask at once", dec)
				}
				return
			}
			p := waiting(t, d)
			(&wire.Client{Socket: d.Socket}).Answer(context.Background(), wire.ApprovalAnswer{ID: p.ID, Code: p.Code, Allow: true})
			if dec := answered(t, ch); dec.Verdict != wire.Allow {
				t.Errorf("decision %+v after %v", dec, time.Since(start))
			}
		})
	}
}

func TestBothAsksTheAgentAfterAPerson(t *testing.T) {
	d := startWith(t, "approvals: both\n", nil)
	ch := sendHeld(d, "claude-code", askEvent("claude-code", "s1", askCommand), 5*time.Second)
	p := waiting(t, d)
	(&wire.Client{Socket: d.Socket}).Answer(context.Background(), wire.ApprovalAnswer{ID: p.ID, Code: p.Code, Allow: true})
	if dec := answered(t, ch); dec.Verdict != wire.Ask {
		t.Errorf("decision %+v, want the agent's own prompt next", dec)
	}
}

func TestAHookThatGoesAwayEndsItsWait(t *testing.T) {
	d := startWith(t, "", nil)
	// The hook hangs up while held, as an agent killing it would.
	ch := make(chan error, 1)
	go func() {
		req := &wire.Request{Op: wire.OpDecide, Event: askEvent("codex", "s1", askCommand), Agent: "codex", HookTimeoutMillis: 2000, HoldMillis: 30000}
		_, err := (&wire.Client{Socket: d.Socket, Dial: shortLived(300 * time.Millisecond)}).DecideBrief(context.Background(), req)
		ch <- err
	}()
	waiting(t, d)
	if err := <-ch; err == nil {
		t.Fatal("the hook that gave up got an answer")
	}
	eventually(t, "the call to stop waiting", func() bool {
		list, _ := (&wire.Client{Socket: d.Socket}).Pending(context.Background(), false)
		return len(list) == 0
	})
	recordWith(t, d, "an undelivered record of a hook gone", func(r decisionlog.Record) bool {
		return r.Approval != nil && r.Approval.By == "gone" && r.Undelivered
	})
}

// shortLived dials the socket and hangs up after d.
func shortLived(d time.Duration) func(context.Context, string) (wire.Conn, error) {
	return func(ctx context.Context, socket string) (wire.Conn, error) {
		conn, err := (&net.Dialer{}).DialContext(ctx, "unix", socket)
		if err != nil {
			return nil, err
		}
		time.AfterFunc(d, func() { conn.Close() })
		return conn, nil
	}
}

// recordWith waits for a record of the decision log that cond accepts.
func recordWith(t *testing.T, d *daemontest.Daemon, what string, cond func(decisionlog.Record) bool) decisionlog.Record {
	t.Helper()
	var found decisionlog.Record
	eventually(t, what, func() bool {
		b, _ := os.ReadFile(filepath.Join(d.Home, "decisions.jsonl"))
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var rec decisionlog.Record
			if json.Unmarshal([]byte(line), &rec) == nil && cond(rec) {
				found = rec
				return true
			}
		}
		return false
	})
	return found
}
