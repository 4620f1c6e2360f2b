package app

import (
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// hostile is agent-chosen text that would drive a terminal or reverse
// what follows it if shown raw.
const hostile = "rm -rf ~\x1b[2K\r\x1b]0;ok\x07 \u009b2J \u202Efdp.exe"

func rawControl(s string, keepNewline bool) rune {
	for _, r := range s {
		if (r < 0x20 && !(keepNewline && r == '\n')) || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return r
		}
	}
	return -1
}

func TestMenuShowsAgentTextSafely(t *testing.T) {
	now := time.Now()
	rec := decisionlog.Record{Time: now, Tool: "mcp__" + hostile, Summary: hostile, RuleIDs: []string{hostile}, Reasons: []string{"Blocked: " + hostile, "second"}, Verdict: "deny"}
	m := BuildMenu(Snapshot{Now: now, Running: true, LastError: "evaluation error: " + hostile, Recent: []decisionlog.Record{rec}})
	labels := map[string]string{"status": m.Status, "tooltip": m.Tooltip, "title": m.Recent[0].Title}
	for name, label := range labels {
		if r := rawControl(label, false); r != -1 {
			t.Errorf("%s label holds a raw %U: %q", name, r, label)
		}
	}
	reason := m.Recent[0].Reason
	if r := rawControl(reason, true); r != -1 {
		t.Errorf("reason holds a raw %U: %q", r, reason)
	}
	if !strings.Contains(reason, "\n") || !strings.Contains(reason, `\x1b[2K`) {
		t.Errorf("the reason keeps its lines and shows its escapes: %q", reason)
	}
	// Plain text is untouched.
	plain := BuildMenu(Snapshot{Now: now, Running: true, Recent: []decisionlog.Record{{Time: now, Tool: "Bash", Summary: "cat ~/.ssh/id_rsa", RuleIDs: []string{"secrets.credentials"}, Reasons: []string{"Blocked: keys ✓"}}}})
	if !strings.Contains(plain.Recent[0].Title, "Bash  cat ~/.ssh/id_rsa  (secrets.credentials)") || plain.Recent[0].Reason != "Blocked: keys ✓" {
		t.Errorf("plain text changed: %+v", plain.Recent[0])
	}
}

func TestNotificationsShowAgentTextSafely(t *testing.T) {
	var s sent
	n := NewNotifier(s.send, nil)
	n.Deny(decisionlog.Record{Tool: "mcp__" + hostile, Summary: hostile, RuleIDs: []string{hostile}, Reasons: []string{hostile}, Verdict: "deny"})
	deadline := time.Now().Add(5 * time.Second)
	for len(s.all()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	got := s.all()
	if len(got) != 1 {
		t.Fatalf("sent %q", got)
	}
	title, body, _ := strings.Cut(got[0], " | ")
	if r := rawControl(title, false); r != -1 {
		t.Errorf("title holds a raw %U: %q", r, title)
	}
	if r := rawControl(body, true); r != -1 {
		t.Errorf("body holds a raw %U: %q", r, body)
	}
	if !strings.Contains(body, `\u202E`) {
		t.Errorf("the override must show as an escape: %q", body)
	}
}

func TestDegradedWhenTheDecisionLogFails(t *testing.T) {
	tests := []struct {
		name string
		st   wire.Status
		want string // substring; "" means healthy
	}{
		{"healthy", wire.Status{}, ""},
		{"decision log failing", wire.Status{LogErrors: 3, Problems: []wire.Problem{{Kind: "decision_log", Message: "3 decisions not recorded: no space left on device", Fix: "check the disk"}}}, "decision log: 3 decisions not recorded: no space left"},
		{"the first problem first", wire.Status{Problems: []wire.Problem{{Kind: "policy", Message: "a.rego: bad", Fix: "fix it"}, {Kind: "decision_log", Message: "x", Fix: "y"}}}, "policy error: a.rego"},
		{"what to run is shown", wire.Status{Problems: []wire.Problem{{Kind: "hook_timeout", Message: "config.yaml sets hook_timeout 5s", Fix: "run `agentjail install`"}}}, "fix: run `agentjail install`"},
		// Health describes now: errors that are over only count.
		{"old errors only", wire.Status{LogErrors: 3, EvalErrors: 1}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lastError(&tt.st)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("lastError = %q, want %q", got, tt.want)
			}
			m := BuildMenu(Snapshot{Now: time.Now(), Running: true, LastError: got})
			if (m.Icon == IconDegraded) != (tt.want != "") {
				t.Errorf("icon %s for %q", m.Icon, got)
			}
		})
	}
}
