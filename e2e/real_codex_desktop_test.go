//go:build linux

package e2e

import (
	"encoding/json"
	"net"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/wire"
)

// The real Codex CLI, headless, cannot ask: its ask-class call waits
// while a person answers on the desktop. The daemon runs with its tray on
// a private session bus beside a notification service with buttons; the
// test presses the tray's items with the dbusmenu Event call a panel
// makes, and the notification's buttons with the ActionInvoked signal
// the notification service sends.
func TestRealCodexAsksAPersonOnTheDesktop(t *testing.T) {
	codex := agentCLI(t, "codex")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)
	writeCodexHome(t, e, api, "")
	writeConfig(t, e, "approval_timeout: 60s\n")
	installFor(t, e, "codex")
	rec := recordHook(t, e)

	// install started a headless daemon: this test runs its own, with
	// the tray, on the private bus.
	stopInstalledDaemon(t, e)
	tray := startApprovalTrayIn(t, e)
	dt, notes := tray.dt, tray.notes

	// run has Codex run command while answer, if any, answers it.
	run := func(t *testing.T, command string, answer func(t *testing.T)) string {
		t.Helper()
		rec.reset()
		api.script(&modelCall{Name: "exec_command", Args: map[string]any{"cmd": command}})
		done := make(chan result, 1)
		go func() {
			done <- runProcess(t, agentEnv(e, "FAKE_MODEL_KEY=x"), work.dir, codex,
				[]string{"exec", "--skip-git-repo-check", "-s", "danger-full-access", "Do the task."}, 150*time.Second)
		}()
		if answer != nil {
			answer(t)
		}
		r := <-done
		if r.code != 0 {
			t.Fatalf("codex exec: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		return oneResult(t, api, r.stdout+r.stderr)
	}
	// waitingItem is the tray's item for command, in Codex's words.
	waitingItem := func(t *testing.T) menuItem { return tray.waiting(t, askClass) }

	t.Run("Allow once in the menu bar runs the call", func(t *testing.T) {
		head := work.head(t, e)
		got := run(t, askClass, func(t *testing.T) {
			tray.click(t, action(t, waitingItem(t), "Allow once"))
		})
		if work.head(t, e) == head {
			t.Errorf("the approved reset did not run; tool result:\n%s", got)
		}
		if c := rec.one(t); c.Code != 0 || !jailedRewrite(c.Stdout, askClass) {
			t.Errorf("hook answered exit %d, stdout %q; want the approved command rewritten to run jailed", c.Code, c.Stdout)
		}
		if r := e.logged(t, askClass); r.Verdict != "allow" || r.Approval == nil || r.Approval.Via != "tray" || r.Approval.By != "person" {
			t.Errorf("logged %+v", r)
		}
		work = newAgentWorkIn(t, e, work)
	})

	t.Run("Deny in the menu bar blocks it and the model hears a person denied it", func(t *testing.T) {
		head := work.head(t, e)
		var code string
		got := run(t, askClass, func(t *testing.T) {
			it := waitingItem(t)
			code = codeRE.FindStringSubmatch(it.label)[1]
			tray.click(t, action(t, it, "Deny"))
		})
		if !strings.Contains(got, "A person denied this call in agentjail's menu bar") || strings.Contains(got, code) {
			t.Errorf("tool result:\n%s", got)
		}
		if work.head(t, e) != head {
			t.Error("the denied reset ran")
		}
	})

	t.Run("the notification's Allow once runs the call", func(t *testing.T) {
		head := work.head(t, e)
		got := run(t, askClass, func(t *testing.T) {
			var n *sentNote
			waitFor(t, "the approval notification", func() bool {
				n = notes.open(askClass)
				return n != nil
			})
			if err := dt.conn.Emit("/org/freedesktop/Notifications", notifyName+".ActionInvoked", n.id, "allow"); err != nil {
				t.Fatal(err)
			}
		})
		if work.head(t, e) == head {
			t.Errorf("the reset approved from the notification did not run; tool result:\n%s", got)
		}
		loggedApproval(t, e, lastApprovalID(t, e), "allow", "person", "notification")
		work = newAgentWorkIn(t, e, work)
	})

	t.Run("nobody answers: the call is denied and the model hears how to approve", func(t *testing.T) {
		writeConfig(t, e, "approval_timeout: 5s\n")
		head := work.head(t, e)
		got := run(t, askClass, func(t *testing.T) { waitingItem(t) })
		if !strings.Contains(got, "nobody answered within 5s") || !strings.Contains(got, "agentjail approve") {
			t.Errorf("tool result:\n%s", got)
		}
		if work.head(t, e) != head {
			t.Error("the unanswered reset ran")
		}
		waitFor(t, "the waiting section to go", func() bool { return shown(dt.menu(t, tray.service), "Waiting for you") == nil })
	})
}

// open is the newest notification whose body holds part and that was
// not closed.
func (s *actionServer) open(part string) *sentNote {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.sent) - 1; i >= 0; i-- {
		n := s.sent[i]
		if strings.Contains(n.body, part) && !slices.Contains(s.closed, n.id) {
			return &n
		}
	}
	return nil
}

// stopInstalledDaemon stops the daemon install started.
func stopInstalledDaemon(t *testing.T, e *env) {
	t.Helper()
	var st struct {
		Daemon wire.Status `json:"daemon"`
	}
	if err := json.Unmarshal([]byte(ajRun(t, e, "status", "--json").stdout), &st); err != nil || st.Daemon.PID == 0 {
		t.Fatalf("status --json after install: %v %+v", err, st)
	}
	syscall.Kill(st.Daemon.PID, syscall.SIGTERM)
	waitFor(t, "the installed daemon to stop", func() bool {
		c, err := net.Dial("unix", e.socket)
		if err == nil {
			c.Close()
		}
		return err != nil
	})
}

// newAgentWorkIn makes the project again after an approved reset took
// its commits away.
func newAgentWorkIn(t *testing.T, e *env, w agentWork) agentWork {
	t.Helper()
	os.RemoveAll(w.dir)
	return newAgentWork(t, e)
}

// lastApprovalID is the id of the newest approval in the decision log.
func lastApprovalID(t *testing.T, e *env) string {
	t.Helper()
	r := ajRun(t, e, "logs", "--json", "-n", "0")
	id := ""
	for _, line := range strings.Split(r.stdout, "\n") {
		var rec struct {
			Approval *struct {
				ID string `json:"id"`
			} `json:"approval"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Approval != nil && rec.Approval.ID != "" {
			id = rec.Approval.ID
		}
	}
	if id == "" {
		t.Fatalf("no approval in the log:\n%s", r.stdout)
	}
	return id
}
