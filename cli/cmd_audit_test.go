package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/decisionlog"
)

func writeLog(t *testing.T, home string, recs ...decisionlog.Record) {
	t.Helper()
	dir := filepath.Join(home, ".agentjail")
	os.MkdirAll(dir, 0o700)
	var b strings.Builder
	for _, r := range recs {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, "decisions.jsonl"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestAuditCountsEachSession(t *testing.T) {
	home := throwawayHome(t)
	now := time.Now().UTC()
	rec := func(agent, session, verdict, cmd string, ago time.Duration) decisionlog.Record {
		return decisionlog.Record{Time: now.Add(-ago), ID: cmd, Agent: agent, SessionID: session, Tool: "Bash", Summary: cmd, Verdict: verdict}
	}
	approved := rec("codex", "c1", "allow", "git reset --hard", time.Minute)
	approved.Approval = &decisionlog.Approval{By: "person", Via: "tray"}
	unchecked := rec("claude-code", "s2", decisionlog.VerdictUnchecked, "rm -rf build", time.Minute)
	unchecked.Unchecked = &decisionlog.Unchecked{Cause: "its session's hooks did not run", Source: "the agent's record"}
	failedOpen := rec("claude-code", "s2", decisionlog.VerdictUnchecked, "ls", time.Minute)
	failedOpen.Unchecked = &decisionlog.Unchecked{Cause: "the hook could not reach the daemon and let it run (failed open)", Source: "the agent's record"}
	try := rec("claude-code", "s1", "deny", "cat ~/.ssh/id_rsa", time.Minute)
	try.Source = "try"
	writeLog(t, home,
		rec("claude-code", "s1", "allow", "ls", 2*time.Hour),
		rec("claude-code", "s1", "deny", "cat ~/.ssh/id_rsa", time.Hour),
		rec("claude-code", "s1", "ask", "npm publish", time.Hour),
		approved, unchecked, failedOpen, try,
		rec("claude-code", "old", "allow", "ls", 48*time.Hour),
	)
	out, errOut, code := runCLI(t, "audit", "--json")
	if code != 0 {
		t.Fatalf("audit --json: exit %d %s", code, errOut)
	}
	var rows []auditRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []auditRow{
		{Agent: "claude-code", Session: "s2", Seen: 2, Unchecked: 2, FailedOpen: 1},
		{Agent: "codex", Session: "c1", Seen: 1, Judged: 1, Allowed: 1, Approved: 1},
		{Agent: "claude-code", Session: "s1", Seen: 3, Judged: 3, Allowed: 1, Asked: 1, Denied: 1},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v", rows)
	}
	for i, w := range want {
		g := rows[i]
		g.First, g.Last = "", ""
		if g != w {
			t.Errorf("row %d: %+v, want %+v", i, g, w)
		}
	}
	if out, _, _ := runCLI(t, "audit", "--agent", "codex"); !strings.Contains(out, "UNCHECKED") || strings.Contains(out, "claude-code") || !strings.Contains(out, "c1") {
		t.Errorf("audit --agent codex:\n%s", out)
	}
	out, _, code = runCLI(t, "logs", "--unchecked", "-n", "0")
	if code != 0 || !strings.Contains(out, "rm -rf build") || strings.Contains(out, "npm publish") || !strings.Contains(out, "its session's hooks did not run; seen in the agent's record") {
		t.Errorf("logs --unchecked (exit %d):\n%s", code, out)
	}
	if _, errOut, code := runCLI(t, "logs", "--unchecked", "--verdict", "deny"); code != ExitUsage || !strings.Contains(errOut, "two different things") {
		t.Errorf("--unchecked with --verdict deny: exit %d %q", code, errOut)
	}
}
