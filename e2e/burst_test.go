package e2e

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// flood keeps n connections to socket busy until ctx ends, as a process
// of the agent's own user can: idle ones that send nothing, or ones that
// each send a distinct decide request and read its answer.
// The returned channel is closed once every one of them has connected.
func flood(ctx context.Context, socket string, n int, idle bool) (*sync.WaitGroup, <-chan struct{}) {
	var wg sync.WaitGroup
	var seq sync.Mutex
	next := 0
	var connected sync.WaitGroup
	connected.Add(n)
	for range n {
		wg.Go(func() {
			first := true
			for ctx.Err() == nil {
				c, err := net.Dial("unix", socket)
				if err != nil {
					continue // the backlog is full: dial again, as a flood does
				}
				if first {
					first = false
					connected.Done()
				}
				dl, _ := ctx.Deadline()
				c.SetDeadline(dl)
				stop := context.AfterFunc(ctx, func() { c.Close() })
				if !idle {
					seq.Lock()
					next++
					k := next
					seq.Unlock()
					body := fmt.Appendf(nil, `{"op":"decide","event":{"tool_name":"Bash","tool_input":{"command":"git status # %d"}},"cwd":"/tmp"}`, k)
					c.Write(binary.BigEndian.AppendUint32(nil, uint32(len(body))))
					c.Write(body)
				}
				buf := make([]byte, 4096)
				c.Read(buf)
				stop()
				c.Close()
			}
			if first {
				connected.Done()
			}
		})
	}
	up := make(chan struct{})
	go func() { connected.Wait(); close(up) }()
	return &wg, up
}

// A burst of connections from the agent's own user, idle or each asking
// for a decision, leaves every hook call judged: each key read is denied,
// none is let through unchecked.
func TestConnectionBurstLeavesNoCallUnchecked(t *testing.T) {
	if testing.Short() {
		t.Skip("floods the daemon for seconds")
	}
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl) == nil && rl.Cur < rl.Max {
		old := rl
		rl.Cur = rl.Max
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl) == nil {
			t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old) })
		}
	}
	e := newEnv(t)
	os.MkdirAll(filepath.Join(e.home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(e.home, ".ssh", "id_rsa"), []byte("fake key\n"), 0o600)
	e.start()
	event, _ := json.Marshal(map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": filepath.Join(e.home, ".ssh", "id_rsa")}})
	for _, tt := range []struct {
		name string
		n    int
		idle bool
	}{
		{"idle connections", int(min(rl.Cur/2, 4000)), true},
		{"decide requests", 128, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			wg, up := flood(ctx, e.socket, tt.n, tt.idle)
			defer func() { cancel(); wg.Wait() }()
			<-up // the burst under way: every connection made once
			for i := range 20 {
				r := e.hook(string(event))
				if r.code != 2 || !strings.Contains(r.stdout, `"deny"`) {
					t.Fatalf("call %d during the burst: exit %d stdout %s stderr %q", i, r.code, r.stdout, r.stderr)
				}
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(e.ajHome, "hook-failures.jsonl")); len(b) > 0 {
		t.Errorf("calls failed open during the burst:\n%s", b)
	}
}
