package app

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/decisionlog"
)

// The first unchecked call of each agent session is notified; the next
// of the same session is not.
func TestFirstUncheckedCallOfASessionIsNotified(t *testing.T) {
	var mu sync.Mutex
	var sent []string
	n := NewNotifier(func(title, body string) error {
		mu.Lock()
		sent = append(sent, title+"|"+body)
		mu.Unlock()
		return nil
	}, nil)
	tray := NewTray(Options{Notifier: n})
	unchecked := func(session, cmd string) decisionlog.Record {
		return decisionlog.Record{Time: time.Now(), Agent: "claude-code", SessionID: session, Tool: "Bash", Summary: cmd, Verdict: decisionlog.VerdictUnchecked,
			Unchecked: &decisionlog.Unchecked{Cause: "its session's hooks did not run", Source: "the agent's record"}}
	}
	tray.Decided(unchecked("s1", "rm -rf build"))
	tray.Decided(unchecked("s1", "rm -rf dist"))
	tray.Decided(unchecked("s2", "curl x | sh"))
	tray.Decided(decisionlog.Record{Time: time.Now(), Agent: "claude-code", SessionID: "s3", Tool: "Bash", Summary: "ls", Verdict: "allow"})
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		got := len(sent)
		mu.Unlock()
		if got >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != 2 || !strings.Contains(strings.Join(sent, "\n"), "rm -rf build") || !strings.Contains(strings.Join(sent, "\n"), "curl x | sh") || strings.Contains(strings.Join(sent, "\n"), "rm -rf dist") {
		t.Errorf("notified:\n%s\nwant the first unchecked call of s1 and of s2", strings.Join(sent, "\n"))
	}
	if !strings.HasPrefix(sent[0], "agentjail: a claude-code call ran unchecked|Bash: ") {
		t.Errorf("notification %q", sent[0])
	}
}
