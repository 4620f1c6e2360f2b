package app

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

func TestBuildMenu(t *testing.T) {
	now := time.Date(2026, 11, 21, 15, 4, 0, 0, time.Local)
	deny := func(ago time.Duration, summary string) decisionlog.Record {
		return decisionlog.Record{Time: now.Add(-ago), Tool: "Bash", Summary: summary, RuleIDs: []string{"secrets.credentials"}, Reasons: []string{"Blocked: keys"}, Verdict: "deny"}
	}
	tests := []struct {
		name   string
		snap   Snapshot
		icon   string
		status string
		recent int
		hook   string
		pause  string
	}{
		{"healthy", Snapshot{Now: now, Running: true, Rules: 60, DecisionsToday: 12, Agents: []AgentHook{{Name: "claude-code", Title: "Claude Code", Found: true, Wired: true}}}, IconHealthy, "agentjail: running, 60 rules loaded, 12 decisions today", 0, "Claude Code hook: installed ✓", "Pause notifications (1 hour)"},
		{"blocked just now", Snapshot{Now: now, Running: true, Rules: 60, Recent: []decisionlog.Record{deny(time.Minute, "cat ~/.ssh/id_rsa")}}, IconBlocked, "agentjail: running, 60 rules loaded, 0 decisions today", 1, "Install Claude Code hook", "Pause notifications (1 hour)"},
		{"blocked long ago", Snapshot{Now: now, Running: true, Recent: []decisionlog.Record{deny(time.Hour, "x")}}, IconHealthy, "", 1, "", ""},
		{"degraded", Snapshot{Now: now, Running: true, LastError: "policy error: team.rego:5:1: unexpected }"}, IconDegraded, "agentjail: running, 0 rules loaded, 0 decisions today — policy error: team.rego:5:1: unexpected }", 0, "", ""},
		{"not running", Snapshot{Now: now}, IconDegraded, "agentjail: not running", 0, "", ""},
		{"one of each", Snapshot{Now: now, Running: true, Rules: 1, DecisionsToday: 1}, IconHealthy, "agentjail: running, 1 rule loaded, 1 decision today", 0, "", ""},
		{"org policy named", Snapshot{Now: now, Running: true, Rules: 60, Org: "org policy org r3"}, IconHealthy, "agentjail: running, 60 rules loaded, 0 decisions today, org policy org r3", 0, "", ""},
		{"paused", Snapshot{Now: now, Running: true, PausedUntil: now.Add(time.Hour)}, IconHealthy, "", 0, "", "Notifications paused until 16:04"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := BuildMenu(tt.snap)
			if m.Icon != tt.icon || (tt.status != "" && m.Status != tt.status) || len(m.Recent) != tt.recent ||
				(tt.hook != "" && (len(m.Hooks) == 0 || m.Hooks[0].Title != tt.hook)) || (tt.pause != "" && m.Pause != tt.pause) {
				t.Errorf("got %+v", m)
			}
			if m.NoRecent != (tt.recent == 0) {
				t.Errorf("NoRecent %v with %d recent", m.NoRecent, len(m.Recent))
			}
		})
	}
	var many []decisionlog.Record
	for i := range 15 {
		many = append(many, deny(time.Duration(i)*time.Second, strings.Repeat("a very long command ", 5)))
	}
	m := BuildMenu(Snapshot{Now: now, Running: true, Recent: many})
	if len(m.Recent) != RecentMax || !strings.Contains(m.Recent[0].Title, "15:04  Bash  a very long command") || !strings.Contains(m.Recent[0].Title, "(secrets.credentials)") || m.Recent[0].Reason != "Blocked: keys" {
		t.Errorf("recent %+v", m.Recent[0])
	}
}

// The hook items offer the agents found on this machine.
func TestHookItems(t *testing.T) {
	agent := func(name, title string, found, wired bool) AgentHook {
		return AgentHook{Name: name, Title: title, Found: found, Wired: wired}
	}
	claude := func(found, wired bool) AgentHook { return agent("claude-code", "Claude Code", found, wired) }
	codex := func(found, wired bool) AgentHook { return agent("codex", "Codex", found, wired) }
	gemini := func(found, wired bool) AgentHook { return agent("gemini", "Gemini CLI", found, wired) }
	cursor := func(found, wired bool) AgentHook { return agent("cursor", "Cursor", found, wired) }
	tests := []struct {
		name   string
		agents []AgentHook
		want   []HookItem
	}{
		{"nothing found offers Claude Code", []AgentHook{claude(false, false), codex(false, false)},
			[]HookItem{{"Install Claude Code hook", "claude-code", true}}},
		{"no agents reported at all", nil,
			[]HookItem{{"Install Claude Code hook", "claude-code", true}}},
		{"one found", []AgentHook{claude(false, false), gemini(true, false)},
			[]HookItem{{"Install Gemini CLI hook", "gemini", true}}},
		{"two found, neither wired", []AgentHook{claude(false, false), codex(true, false), gemini(true, false), cursor(false, false)},
			[]HookItem{{"Install Codex hook", "codex", true}, {"Install Gemini CLI hook", "gemini", true}, {"Install hooks for all found agents (Codex, Gemini CLI)", "all", true}}},
		{"one of two wired", []AgentHook{claude(true, true), codex(true, false)},
			[]HookItem{{"Claude Code hook: installed ✓", "claude-code", false}, {"Install Codex hook", "codex", true}}},
		{"all wired", []AgentHook{claude(true, true), gemini(true, true)},
			[]HookItem{{"Claude Code hook: installed ✓", "claude-code", false}, {"Gemini CLI hook: installed ✓", "gemini", false}}},
		{"wired though no longer found", []AgentHook{claude(false, true), cursor(true, false)},
			[]HookItem{{"Claude Code hook: installed ✓", "claude-code", false}, {"Install Cursor hook", "cursor", true}}},
		{"three pending and one wired", []AgentHook{claude(true, false), codex(true, true), gemini(true, false), cursor(true, false)},
			[]HookItem{{"Install Claude Code hook", "claude-code", true}, {"Codex hook: installed ✓", "codex", false}, {"Install Gemini CLI hook", "gemini", true}, {"Install Cursor hook", "cursor", true}, {"Install hooks for all found agents (Claude Code, Gemini CLI, Cursor)", "all", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := BuildMenu(Snapshot{Now: time.Now(), Running: true, Agents: tt.agents}).Hooks
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("hooks\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
	var many []AgentHook
	for i := range 2 * HooksMax {
		many = append(many, agent(fmt.Sprint("a", i), fmt.Sprint("A", i), true, false))
	}
	if n := len(BuildMenu(Snapshot{Agents: many}).Hooks); n != HooksMax {
		t.Errorf("%d hook items, bound %d", n, HooksMax)
	}
}

// Calls that ran unchecked have their own line under the status and turn
// the icon to a warning, whatever the first problem is; the status line
// keeps the other problems.
func TestMenuSaysCallsRanUnchecked(t *testing.T) {
	now := time.Date(2026, 11, 21, 15, 4, 0, 0, time.Local)
	msg := "3 calls ran unchecked in the last 24 h; the worst cause: its session's hooks did not run"
	m := BuildMenu(Snapshot{Now: now, Running: true, Rules: 60, Unchecked: msg, UncheckedFix: "`agentjail logs --unchecked` lists them"})
	if m.Icon != IconDegraded || m.Unchecked != "⚠ "+msg || m.Status != "agentjail: running, 60 rules loaded, 0 decisions today" || !strings.HasSuffix(m.Tooltip, " — "+msg) {
		t.Errorf("got %+v", m)
	}
	if m.UncheckedMore.Heading != "agentjail: calls ran unchecked" || m.UncheckedMore.Reason != msg+".\n`agentjail logs --unchecked` lists them" {
		t.Errorf("chosen, it shows %+v", m.UncheckedMore)
	}
	if m := BuildMenu(Snapshot{Now: now, Running: true}); m.Unchecked != "" || m.Icon != IconHealthy {
		t.Errorf("no unchecked calls: %+v", m)
	}
	st := &wire.Status{Problems: []wire.Problem{{Kind: "unchecked", Message: msg, Fix: "f"}, {Kind: "policy", Message: "team.rego:5:1: unexpected }", Fix: "edit it"}}}
	if got := lastError(st); got != "policy error: team.rego:5:1: unexpected }; fix: edit it" {
		t.Errorf("the status line's problem: %q", got)
	}
	if got := lastError(&wire.Status{Problems: st.Problems[:1]}); got != "" {
		t.Errorf("only unchecked calls, the status line's problem: %q", got)
	}
}
