package daemon_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

// Until it answers, a daemon's lock says it is starting, and a call that
// waited on its backlog meanwhile is judged, not denied as late: its
// hook waits wire.StartGrace longer for a starting daemon, and so does
// its budget. A call whose hook started after the daemon was up is held
// to its budget alone.
func TestACallThatWaitedForTheStartIsJudged(t *testing.T) {
	dir, _ := os.MkdirTemp("", "aj") // short: socket paths are limited
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	socket := filepath.Join(home, "agentjail.sock")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := daemon.New(ctx, daemon.Options{
		Socket: socket, Home: home, UserHome: "/home/tester", Pack: policies.FS,
		Version: "test", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	lockSays := func() string {
		b, _ := os.ReadFile(paths.SocketLock(socket))
		f := strings.Fields(string(b))
		if len(f) < 3 {
			return ""
		}
		return f[2]
	}
	if got := lockSays(); got != wire.LockStarting {
		t.Fatalf("before it serves the lock says %q, want %q", got, wire.LockStarting)
	}
	event := []byte(`{"tool_name":"Bash","tool_input":{"command":"ls -la"}}`)
	client := &wire.Client{Socket: socket}
	// Its hook started 2.2 s ago: past the budget (1.5 s with a 2 s hook
	// deadline), within it and the grace a starting daemon gets (2 s).
	longAgo := time.Now().Add(-2200 * time.Millisecond).UnixMilli()
	waited := make(chan *wire.Decision, 1)
	go func() {
		dec, err := client.Decide(ctx, &wire.Request{Event: event, HookTimeoutMillis: 2000, HookStartMillis: longAgo})
		if err != nil {
			t.Error(err)
		}
		waited <- dec
	}()
	// The call reaches the backlog before the daemon serves, or just
	// after: either way its hook started before the daemon was ready.
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	if dec := <-waited; dec == nil || dec.Verdict == wire.Deny {
		t.Errorf("the call that waited for the start got %+v, want it judged (ls is allowed)", dec)
	}
	if got := lockSays(); got != wire.LockServing {
		t.Errorf("serving, the lock says %q, want %q", got, wire.LockServing)
	}
	// A hook that started after the daemon was ready is late past its
	// budget (200 ms with a 300 ms hook deadline).
	time.Sleep(250 * time.Millisecond)
	late, err := client.Decide(ctx, &wire.Request{Event: event, HookTimeoutMillis: 300, HookStartMillis: time.Now().Add(-240 * time.Millisecond).UnixMilli()})
	if err != nil {
		t.Fatal(err)
	}
	if late.Verdict != wire.Deny || len(late.Rules) == 0 || late.Rules[0].ID != "agentjail.deadline" {
		t.Errorf("a call its hook sent 240 ms ago got %+v, want the deadline's deny", late)
	}
}
