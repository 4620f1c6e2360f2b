package daemon_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/hook"
	"github.com/agentjail/agentjail/internal/wire"
)

// runs counts the fail-open runs a daemon notified.
type runs struct {
	mu   sync.Mutex
	seen []wire.FailOpenRun
}

func (r *runs) add(run wire.FailOpenRun) {
	r.mu.Lock()
	r.seen = append(r.seen, run)
	r.mu.Unlock()
}

func (r *runs) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen)
}

// hookCall runs the real hook in-process against sock for cmd, recording
// failures in failLog, and reports its exit code and stdout.
func hookCall(sock, failLog, cmd string) (int, string) {
	ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": cmd}})
	var out, errb bytes.Buffer
	code := hook.Run(context.Background(), hook.Options{
		Client: &wire.Client{Socket: sock}, FailLog: failLog, State: "-", AutoStart: "-",
	}, bytes.NewReader(ev), &out, &errb)
	return code, out.String()
}

// failOpenLines counts the fail-open records in the hook's failure log.
func failOpenLines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var r hook.FailRecord
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Mode == "open" {
			n++
		}
	}
	return n
}

// The agent loads the daemon from its own side: clients that open the
// socket and send nothing (more than the daemon has request slots) and
// many `agentjail try` calls at once, all the while. Every call of the
// agent's hook must still be answered by the daemon, or, where one was let
// run unchecked, be recorded in the failure log; a run of those must reach
// the user as a notification and show in status.
func TestHookCallsUnderLoadAreAnsweredOrAnnounced(t *testing.T) {
	if testing.Short() {
		t.Skip("a load test: seconds of saturated sockets")
	}
	var notified runs
	d := daemontest.StartWith(t, nil, func(o *daemon.Options) { o.OnFailOpenRun = notified.add })
	failLog := filepath.Join(d.Home, "hook-failures.jsonl")

	ctx, stop := context.WithCancel(context.Background())
	var load sync.WaitGroup
	defer func() { stop(); load.Wait() }()
	// Silent clients: a connection that sends nothing, opened again as
	// soon as the daemon gives up on it.
	for range 300 {
		load.Go(func() {
			for ctx.Err() == nil {
				c, err := net.Dial("unix", d.Socket)
				if err != nil {
					time.Sleep(10 * time.Millisecond)
					continue
				}
				go func() { <-ctx.Done(); c.Close() }()
				c.Read(make([]byte, 1)) // until the daemon closes it, or the test ends
				c.Close()
			}
		})
	}
	// Tries: as many at once as the daemon has request slots.
	var tries, busy atomic.Int64
	tryEvent, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": "git status && npm test && ls -la src"}})
	for range 128 {
		load.Go(func() {
			for ctx.Err() == nil {
				cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
				_, err := (&wire.Client{Socket: d.Socket}).Decide(cctx, &wire.Request{Event: tryEvent, Source: wire.SourceTry})
				cancel()
				tries.Add(1)
				var werr *wire.Error
				if err != nil && errors.As(err, &werr) && werr.Code == wire.CodeBusy {
					busy.Add(1)
					time.Sleep(time.Millisecond)
				}
			}
		})
	}
	time.Sleep(500 * time.Millisecond) // let the load build up

	const calls = 20
	answered := 0
	for i := range calls {
		cmd := "ls ./src"
		if i%2 == 1 {
			cmd = "rm -rf ~"
		}
		code, out := hookCall(d.Socket, failLog, cmd)
		switch {
		case strings.Contains(out, "systemMessage"): // failed open: recorded, below
		case code == hook.ExitBlock:
			// Denied: by the pack, or for the deadline on a machine this
			// loaded (under the race detector, say); checked either way.
			answered++
		case cmd == "ls ./src" && code == hook.ExitOK:
			answered++
		default:
			t.Errorf("hook call %d (%s): exit %d, stdout %q", i, cmd, code, out)
		}
	}
	stop()
	load.Wait()
	failed := failOpenLines(t, failLog)
	t.Logf("%d hook calls: %d answered by the daemon, %d failed open; %d tries (%d told busy)", calls, answered, failed, tries.Load(), busy.Load())
	if answered+failed != calls {
		t.Errorf("%d answered + %d recorded fail-opens, want %d: a call ran unchecked unrecorded", answered, failed, calls)
	}
	if failed >= wire.FailOpenRunCount {
		eventually(t, "the run of fail-opens notified", func() bool { return notified.count() > 0 })
		if st := status(t, d.Socket); st.FailOpenRun == nil {
			t.Errorf("status shows no run of fail-opens after %d", failed)
		}
	}
	if got := decide(t, d.Socket, "rm -rf ~"); got.Verdict != wire.Deny {
		t.Errorf("after the load, rm -rf ~ got %+v", got)
	}
}

// A run of fail-opens (three within a minute: the daemon unreachable)
// raises one notification and shows in status, with its count and
// causes; the same run going on raises no second one.
func TestFailOpenRunNotifiedOnce(t *testing.T) {
	var notified runs
	d := daemontest.StartWith(t, nil, func(o *daemon.Options) { o.OnFailOpenRun = notified.add })
	failLog := filepath.Join(d.Home, "hook-failures.jsonl")
	gone := filepath.Join(t.TempDir(), "none.sock")
	for range wire.FailOpenRunCount {
		if code, out := hookCall(gone, failLog, "ls"); code != hook.ExitOK || !strings.Contains(out, "systemMessage") {
			t.Fatalf("a hook with no daemon: exit %d, stdout %q; want a fail-open", code, out)
		}
	}
	eventually(t, "the run of fail-opens notified", func() bool { return notified.count() == 1 })
	st := status(t, d.Socket)
	if st.FailOpenRun == nil || st.FailOpenRun.Count != wire.FailOpenRunCount || st.FailOpenRun.Notified == "" || len(st.FailOpenRun.Causes) == 0 {
		t.Fatalf("status's run of fail-opens: %+v", st.FailOpenRun)
	}
	found := false
	for _, p := range st.Problems {
		found = found || p.Kind == "fail_open_run"
	}
	if !found {
		t.Errorf("no fail_open_run problem in %+v", st.Problems)
	}
	hookCall(gone, failLog, "ls")
	eventually(t, "the run's count to grow", func() bool {
		r := status(t, d.Socket).FailOpenRun
		return r != nil && r.Count == wire.FailOpenRunCount+1
	})
	if n := notified.count(); n != 1 {
		t.Errorf("the same run notified %d times, want once", n)
	}
}

// Two fail-opens are not a run: no notification.
func TestTwoFailOpensAreNoRun(t *testing.T) {
	var notified runs
	d := daemontest.StartWith(t, nil, func(o *daemon.Options) { o.OnFailOpenRun = notified.add })
	failLog := filepath.Join(d.Home, "hook-failures.jsonl")
	gone := filepath.Join(t.TempDir(), "none.sock")
	for range wire.FailOpenRunCount - 1 {
		hookCall(gone, failLog, "ls")
	}
	time.Sleep(3 * time.Second) // three checks of the log
	if n := notified.count(); n != 0 || status(t, d.Socket).FailOpenRun != nil {
		t.Errorf("two fail-opens notified %d times / shown as a run", n)
	}
}
