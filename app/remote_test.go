package app_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/agentjail/agentjail/app"
	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// The tray of `agentjail tray` sees a real daemon through its socket:
// its status, the denies made after it started (to notify), its recent
// denies, and a reload.
func TestRemoteAgainstADaemon(t *testing.T) {
	d := daemontest.Start(t, nil)
	r := &app.Remote{Client: &wire.Client{Socket: d.Socket}, Timeout: 10 * time.Second}
	if st := r.Status(); st == nil || st.Rules == 0 {
		t.Fatalf("status %+v, want a running daemon with rules", st)
	}
	decide := func(cmd string) {
		t.Helper()
		ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": cmd}})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := r.Client.Decide(ctx, &wire.Request{Event: ev}); err != nil {
			t.Fatal(err)
		}
	}
	decide("cat ~/.ssh/id_ed25519") // before the tray: never notified
	for time.Sleep(50 * time.Millisecond); len(r.RecentDenies(5)) == 0; time.Sleep(20 * time.Millisecond) {
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan decisionlog.Record, 10)
	go r.Follow(ctx, 50*time.Millisecond, func(rec decisionlog.Record) { got <- rec })
	time.Sleep(200 * time.Millisecond) // Follow has taken its start
	decide("ls")
	decide("cat ~/.ssh/id_rsa")
	var seen []string
	for len(seen) < 2 {
		select {
		case rec := <-got:
			seen = append(seen, rec.Verdict+" "+rec.Summary)
		case <-time.After(10 * time.Second):
			t.Fatalf("Follow handed on %v, want the two new decisions", seen)
		}
	}
	if seen[0] != "allow ls" || seen[1] != "deny cat ~/.ssh/id_rsa" {
		t.Errorf("Follow handed on %q, want the two new decisions in order", seen)
	}
	select {
	case rec := <-got:
		t.Errorf("Follow handed on %s %q as well", rec.Verdict, rec.Summary)
	case <-time.After(200 * time.Millisecond):
	}
	denies := r.RecentDenies(5)
	if len(denies) != 2 || denies[0].Summary != "cat ~/.ssh/id_rsa" {
		t.Errorf("recent denies %+v, want the two, newest first", denies)
	}
	r.Reload() // logs a failure; a working one says nothing

	d.Stop(t)
	if st := r.Status(); st != nil {
		t.Errorf("status of a stopped daemon: %+v, want nil", st)
	}
}
