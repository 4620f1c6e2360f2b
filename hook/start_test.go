package hook

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/wire"
)

// slowDaemon listens on a socket whose lock it holds with state in it,
// as a daemon does from its start, and answers deny only after delay
// (never, for a negative delay): the backlog holds the hook's call
// meanwhile, as it does while a real daemon compiles its policies. With
// servesAfter > 0 its lock says it serves from then on, before it
// answers, as a real daemon's does once compiled and busy.
func slowDaemon(t *testing.T, state string, servesAfter, delay time.Duration) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "aj-start")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s.sock")
	lock, err := os.OpenFile(paths.SocketLock(sock), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() })
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(lock, "%d %s %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339), state)
	if servesAfter > 0 {
		serving := time.AfterFunc(servesAfter, func() {
			lock.Truncate(0)
			lock.WriteAt(fmt.Appendf(nil, "%d %s %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339Nano), wire.LockServing), 0)
		})
		t.Cleanup(func() { serving.Stop() })
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		if delay < 0 {
			select {} // the backlog holds every call; nothing is ever accepted
		}
		time.Sleep(delay)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if _, err := wire.ReadFrame(c); err == nil {
				wire.WriteFrame(c, &wire.Response{Decision: &wire.Decision{Verdict: wire.Deny, Reason: "judged by the daemon that was starting"}})
			}
			c.Close()
		}
	}()
	return sock
}

// A call that reaches a daemon while it starts waits for its answer past
// the hook's deadline, where one that reaches a stuck daemon goes by the
// fail mode at the deadline: the daemon's lock tells them apart.
func TestWaitsForAStartingDaemonNotAStuckOne(t *testing.T) {
	event := `{"tool_name":"Read","tool_input":{"file_path":"/home/u/.ssh/id_rsa"}}`
	const timeout = 200 * time.Millisecond
	tests := []struct {
		name        string
		state       string
		servesAfter time.Duration
		delay       time.Duration
		wantDeny    bool
		wantCause   string // of the fail-open, when there is one
	}{
		{"starting, answers after the deadline", wire.LockStarting, 0, 3 * timeout, true, ""},
		// Its lock says it serves by the deadline, but the call it has
		// not answered yet was sent while it started.
		{"began serving during the call, answers after the deadline", wire.LockStarting, timeout / 2, 3 * timeout, true, ""},
		{"serving but stuck", wire.LockServing, 0, -1, false, wire.CauseTimeout},
		{"an older daemon's lock, stuck", "", 0, -1, false, wire.CauseTimeout},
		{"starting and never answers", wire.LockStarting, 0, -1, false, wire.CauseStarting},
		{"began serving during the call, never answers", wire.LockStarting, timeout / 2, -1, false, wire.CauseStarting},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sock := slowDaemon(t, tt.state, tt.servesAfter, tt.delay)
			stdout, stderr, code, recs := run(t, Options{Client: &wire.Client{Socket: sock}, Timeout: timeout, AutoStart: "-", State: "-"}, strings.NewReader(event))
			var out claude.ClaudeOutput
			json.Unmarshal([]byte(stdout), &out)
			denied := code == ExitBlock && out.HookSpecificOutput.PermissionDecision == "deny"
			if denied != tt.wantDeny {
				t.Fatalf("denied %v, want %v: exit %d stdout %s stderr %q", denied, tt.wantDeny, code, stdout, stderr)
			}
			if tt.wantDeny {
				if !strings.Contains(out.HookSpecificOutput.PermissionDecisionReason, "the daemon that was starting") || len(recs) != 0 {
					t.Errorf("reason %q, failure records %v", out.HookSpecificOutput.PermissionDecisionReason, recs)
				}
				return
			}
			if len(recs) != 1 || recs[0].Mode != "open" || recs[0].Cause != tt.wantCause {
				t.Errorf("records %v, want one fail-open caused by %s; stderr %q", recs, tt.wantCause, stderr)
			}
		})
	}
}
