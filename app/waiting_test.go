package app

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/approval"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// openCall makes call wait in store and returns its id.
func openCall(t *testing.T, store *approval.Store, call approval.Call) string {
	t.Helper()
	ticket, ok := store.Open(call, time.Now().Add(time.Minute))
	if !ok {
		t.Fatal("not opened")
	}
	return ticket.ID
}

func gitReset(session string, locked bool) approval.Call {
	c := approval.Call{
		Agent: "codex", Session: session, Cwd: "/work/p", Project: "/work/p", Tool: "Bash",
		Summary: "git reset --hard HEAD~1", Reasons: []string{"throws away uncommitted work"},
		Rules: []string{"git.discard_work"}, Family: "git reset", Input: json.RawMessage(`{"command":"git reset --hard HEAD~1"}`), UID: 1000,
	}
	if locked {
		c.Rules, c.Locked = []string{"self.approve"}, true
	}
	return c
}

// The waiting calls of a real store, as the menu shows them: at the top,
// with the code, and the answers each may be given.
func TestWaitingItems(t *testing.T) {
	tests := []struct {
		name       string
		call       approval.Call
		answerHere bool
		actions    []string // titles, "-" before a disabled one
	}{
		{"grantable, with a session", gitReset("s1", false), true, []string{"Allow once", "Allow for this session", "Always in this project", "Deny"}},
		{"no session id", gitReset("", false), true, []string{"Allow once", "-Allow for this session", "Always in this project", "Deny"}},
		{"a locked rule asked", gitReset("s1", true), true, []string{"Allow once", "-Allow for this session", "-Always in this project", "Deny"}},
		{"a tray of its own", gitReset("s1", false), false, []string{"-approve in a terminal: agentjail approve "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := approval.New(approval.Options{})
			id := openCall(t, store, tt.call)
			waiting := store.Pending(1000, tt.answerHere)
			m := BuildMenu(Snapshot{Now: time.Now(), Running: true, Waiting: waiting, AnswerHere: tt.answerHere})
			if m.Icon != IconWaiting || m.WaitingHeader != "Waiting for you" || len(m.Waiting) != 1 || !strings.Contains(m.Tooltip, "1 call waiting for you: git reset") {
				t.Fatalf("menu %+v", m)
			}
			w := m.Waiting[0]
			title := "codex: git reset --hard HEAD~1"
			if tt.answerHere {
				title += " — code " + waiting[0].Code
			}
			if w.ID != id || w.Title != title || w.Tooltip != "in /work/p — throws away uncommitted work" {
				t.Errorf("item %+v, want title %q", w, title)
			}
			var got []string
			for _, a := range w.Actions {
				s := a.Title
				if !a.Enabled {
					s = "-" + s
				}
				got = append(got, s)
			}
			if len(got) != len(tt.actions) {
				t.Fatalf("actions %q, want %q", got, tt.actions)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.actions[i]) {
					t.Errorf("action %d is %q, want %q", i, got[i], tt.actions[i])
				}
			}
		})
	}
}

// Every enabled action, given by the tray's own click, is an answer the
// store takes, with the outcome it names.
func TestActionsAnswerTheStore(t *testing.T) {
	for _, a := range Actions(wire.Pending{ID: "x", Session: "s1", Grantable: true}) {
		t.Run(a.Key, func(t *testing.T) {
			store := approval.New(approval.Options{})
			id := openCall(t, store, gitReset("s1", false))
			act := Actions(store.Pending(1000, false)[0])
			var chosen Action
			for _, c := range act {
				if c.Key == a.Key {
					chosen = c
				}
			}
			outcome := make(chan approval.Outcome, 1)
			store.Watch(func(c approval.Change) {
				if !c.Opened && c.Pending.ID == id {
					outcome <- c.Outcome
				}
			})
			if _, err := store.Answer(chosen.Answer, approval.Answerer{Via: wire.ViaTray, Trusted: true}); err != nil {
				t.Fatal(err)
			}
			o := <-outcome
			wantScope := map[string]string{"allow": wire.ScopeOnce, "session": wire.ScopeSession, "project": wire.ScopeProject, "deny": ""}[a.Key]
			if o.By != "person" || o.Via != wire.ViaTray || o.Allow != (a.Key != "deny") || o.Scope != wantScope {
				t.Errorf("outcome %+v", o)
			}
			if len(store.Pending(1000, false)) != 0 {
				t.Error("still waiting after the answer")
			}
		})
	}
}

// More calls than the menu lists: the header says how many, and where
// all of them are.
func TestWaitingBounded(t *testing.T) {
	store := approval.New(approval.Options{})
	for range WaitingMax + 3 {
		openCall(t, store, gitReset("s1", false))
	}
	m := BuildMenu(Snapshot{Now: time.Now(), Running: true, Waiting: store.Pending(1000, true), AnswerHere: true})
	if len(m.Waiting) != WaitingMax || m.WaitingHeader != "Waiting for you (11, the first 8 here; all in `agentjail pending`)" {
		t.Errorf("%d items under %q", len(m.Waiting), m.WaitingHeader)
	}
	if m := BuildMenu(Snapshot{Now: time.Now(), Running: true}); m.WaitingHeader != "" || len(m.Waiting) != 0 || m.Icon == IconWaiting {
		t.Errorf("nothing waits: %+v", m)
	}
}

// The recent list merges the blocks and the calls a person approved,
// newest first, marking the approvals.
func TestRecentMarksApprovals(t *testing.T) {
	now := time.Date(2026, 11, 21, 15, 4, 0, 0, time.Local)
	deny := decisionlog.Record{Time: now.Add(-3 * time.Minute), Tool: "Bash", Summary: "rm -rf ~", Verdict: "deny", RuleIDs: []string{"fs.rm_home"}, Reasons: []string{"would delete"}}
	approved := decisionlog.Record{Time: now.Add(-time.Minute), Tool: "Bash", Summary: "git reset --hard HEAD~1", Verdict: "allow", RuleIDs: []string{"git.discard_work"},
		Reasons: []string{"throws away work"}, Approval: &decisionlog.Approval{By: "person", Via: wire.ViaNotification, Scope: wire.ScopeProject, Grant: "g1"}}
	m := BuildMenu(Snapshot{Now: now, Running: true, Recent: []decisionlog.Record{deny}, Approved: []decisionlog.Record{approved}})
	if len(m.Recent) != 2 {
		t.Fatalf("recent %+v", m.Recent)
	}
	if r := m.Recent[0]; !strings.HasPrefix(r.Title, "✓ approved by you: 15:03  Bash  git reset --hard HEAD~1") || r.Heading != "agentjail: what you approved" ||
		r.Reason != "throws away work\nYou approved it on a notification, with a grant for the project (g1)." {
		t.Errorf("the approval: %+v", r)
	}
	if r := m.Recent[1]; r.Title != "15:01  Bash  rm -rf ~  (fs.rm_home)" || r.Heading != "agentjail: why it was blocked" {
		t.Errorf("the block: %+v", r)
	}
	// The icon says blocked for the recent deny, not for the approval.
	if m.Icon != IconBlocked {
		t.Errorf("icon %s", m.Icon)
	}
}

// The tray keeps the calls a person approved (not a grant's, not a
// try's) for the recent list, newest first, at most RecentMax.
func TestTrayKeepsApprovals(t *testing.T) {
	tr := NewTray(Options{})
	rec := func(i int, by, source string) decisionlog.Record {
		return decisionlog.Record{Time: time.Now(), Summary: string(rune('a' + i)), Verdict: "allow", Source: source, Approval: &decisionlog.Approval{By: by}}
	}
	tr.Decided(rec(0, "grant", ""))
	tr.Decided(rec(1, "person", "try"))
	tr.Decided(decisionlog.Record{Time: time.Now(), Verdict: "allow"})
	for i := range RecentMax + 2 {
		tr.Decided(rec(i, "person", ""))
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if len(tr.approved) != RecentMax || tr.approved[0].Summary != string(rune('a'+RecentMax+1)) {
		t.Errorf("kept %d, newest %q", len(tr.approved), tr.approved[0].Summary)
	}
}
