package daemon_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

// Cursor's two hooks for one shell call reach the tray (counts, the deny
// notification) once; both are answered.
func TestSecondHookOfOneCallReachesTheTrayOnce(t *testing.T) {
	sock, stop := startTrayListener(t)
	for _, ev := range []string{
		`{"conversation_id":"c","generation_id":"g","hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"rm -rf ~"},"tool_use_id":"t","cwd":"/work/p","workspace_roots":["/work/p"]}`,
		`{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeShellExecution","command":"rm -rf ~","cwd":"/work/p","workspace_roots":["/work/p"]}`,
	} {
		dec, err := (&wire.Client{Socket: sock}).Decide(context.Background(), &wire.Request{Event: json.RawMessage(ev), Agent: "cursor"})
		if err != nil || dec.Verdict != wire.Deny {
			t.Fatalf("answered %+v, %v; want a deny for each hook", dec, err)
		}
	}
	heard := stop()
	if len(heard) != 1 || heard[0].Verdict != "deny" || heard[0].Agent != "cursor" {
		t.Errorf("the tray heard %+v, want one deny", heard)
	}
}

// startTrayListener runs a daemon whose tray hook records what it is told.
// stop ends the daemon, after which every decision has been told, and
// returns the records.
func startTrayListener(t *testing.T) (sock string, stop func() []decisionlog.Record) {
	t.Helper()
	dir, _ := os.MkdirTemp("", "aj") // short: a socket path has a length limit
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	sock = filepath.Join(home, "agentjail.sock")
	var mu sync.Mutex
	var heard []decisionlog.Record
	ctx, cancel := context.WithCancel(context.Background())
	d, err := daemon.New(ctx, daemon.Options{
		Socket: sock, Home: home, UserHome: daemontest.UserHome, Pack: policies.FS,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		OnDecision: func(r decisionlog.Record) {
			mu.Lock()
			heard = append(heard, r)
			mu.Unlock()
		},
	})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	return sock, func() []decisionlog.Record {
		cancel()
		<-done // every decision is told before Run returns
		mu.Lock()
		defer mu.Unlock()
		return heard
	}
}
