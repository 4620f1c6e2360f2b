package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Approvals from a person's terminal: `agentjail pending` in a terminal
// (a pty, as `script` gives one) shows each waiting call's one-time
// code, and `agentjail approve|deny ID --code CODE` answers it.

// writeConfig writes config.yaml and makes the daemon, if one runs, read
// it now.
func writeConfig(t *testing.T, e *env, text string) {
	t.Helper()
	os.MkdirAll(e.ajHome, 0o700)
	if err := os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(e.socket); err == nil {
		// Exit 4 (degraded) is a config in force whose hold differs from
		// the installed hook's, which a test may mean.
		if r := ajRun(t, e, "reload"); r.code != 0 && r.code != 4 {
			t.Fatalf("reload: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}
}

// pendingLine and codeLine read `agentjail pending`.
var (
	pendingLine = regexp.MustCompile(`(?m)^  ([0-9a-f]{8})  (\S+) in `)
	codeLine    = regexp.MustCompile(`(?m)^    code (\d{6})$`)
)

// waitingCall is one call `agentjail pending` showed in a terminal.
type waitingCall struct {
	id, agent, code, listing string
}

// pendingInTerminal waits (up to limit) for a call to wait, as a person
// sees it in a terminal.
func pendingInTerminal(t *testing.T, e *env, limit time.Duration) (waitingCall, bool) {
	cmd := shellQuote(filepath.Join(bin, "agentjail")) + " pending"
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		r := runProcess(t, agentEnv(e, "SHELL=/bin/sh"), e.home, "script", []string{"-q", "-e", "-c", cmd, "/dev/null"}, 20*time.Second)
		out := strings.ReplaceAll(r.stdout, "\r\n", "\n")
		m, c := pendingLine.FindStringSubmatch(out), codeLine.FindStringSubmatch(out)
		if m != nil && c != nil {
			return waitingCall{id: m[1], agent: m[2], code: c[1], listing: out}, true
		}
	}
	return waitingCall{}, false
}

// answerFromTerminal answers the next call that waits, as a person at a
// terminal would: `agentjail approve ID --code CODE` (verb "approve",
// with extra flags such as --project) or `agentjail deny ID --code
// CODE`. The call it answered, and what agentjail said, arrive on the
// channel once answered.
func answerFromTerminal(t *testing.T, e *env, verb string, extra ...string) <-chan answeredCall {
	out := make(chan answeredCall, 1)
	go func() {
		w, ok := pendingInTerminal(t, e, 90*time.Second)
		if !ok {
			out <- answeredCall{err: "no call waited"}
			return
		}
		r := runProcess(t, agentEnv(e), e.home, filepath.Join(bin, "agentjail"), append([]string{verb, w.id, "--code", w.code}, extra...), 20*time.Second)
		out <- answeredCall{call: w, said: r.stdout + r.stderr, code: r.code}
	}()
	return out
}

type answeredCall struct {
	call waitingCall
	said string
	code int
	err  string
}

// answeredBy waits for answerFromTerminal's answer.
func answeredBy(t *testing.T, ch <-chan answeredCall) answeredCall {
	t.Helper()
	a := <-ch
	if a.err != "" {
		t.Fatalf("answering from the terminal: %s", a.err)
	}
	if a.code != 0 {
		t.Fatalf("agentjail answering %s: exit %d: %s", a.call.id, a.code, a.said)
	}
	return a
}

// loggedApproval checks the decision log's record of approval id: its
// verdict, who answered and where, as `agentjail logs` shows it.
func loggedApproval(t *testing.T, e *env, id, verdict, by, via string) {
	t.Helper()
	r := ajRun(t, e, "logs", "--json", "-n", "0")
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.Contains(line, `"id":"`+id+`"`) {
			if !strings.Contains(line, `"verdict":"`+verdict+`"`) || !strings.Contains(line, `"by":"`+by+`"`) || !strings.Contains(line, `"via":"`+via+`"`) {
				t.Errorf("approval %s logged as:\n%s\nwant verdict %s by %s via %s", id, line, verdict, by, via)
			}
			text := ajRun(t, e, "logs", "-n", "0").stdout
			if !strings.Contains(text, "by a person in the "+via) && by == "person" {
				t.Errorf("agentjail logs does not say who answered:\n%s", text)
			}
			return
		}
	}
	t.Errorf("no record of approval %s in agentjail logs --json:\n%s%s", id, r.stdout, r.stderr)
}
