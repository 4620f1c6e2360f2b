package daemon_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/hookstate"
	"github.com/agentjail/agentjail/internal/wire"
)

// A try is the user testing a policy: logged as a try, never counted,
// never among the recent blocks. The same call from the hook is.
func TestTryIsNotAnAgentsDecision(t *testing.T) {
	d := daemontest.Start(t, nil)
	ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": "cat ~/.ssh/id_rsa"}})
	ask := func(source string) *wire.Decision {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		dec, err := (&wire.Client{Socket: d.Socket}).Decide(ctx, &wire.Request{Event: ev, Source: source})
		if err != nil {
			t.Fatal(err)
		}
		return dec
	}
	if dec := ask(wire.SourceTry); dec.Verdict != wire.Deny {
		t.Fatalf("try: %+v", dec)
	}
	st := status(t, d.Socket)
	if n := st.Decisions[wire.Deny] + st.Decisions[wire.Allow] + st.Decisions[wire.Ask]; n != 0 {
		t.Errorf("a try was counted: %v", st.Decisions)
	}
	if r := d.RecentDenies(10); len(r) != 0 {
		t.Errorf("a try is among the recent blocks: %+v", r)
	}
	ask("") // the hook's call
	if st := status(t, d.Socket); st.Decisions[wire.Deny] != 1 {
		t.Errorf("the hook's deny was not counted: %v", st.Decisions)
	}
	// Logged after the answer is sent: wait for it.
	eventually(t, "the hook's deny among the recent blocks", func() bool { return len(d.RecentDenies(10)) == 1 })
	d.Stop(t) // flushes the log
	recs, err := decisionlog.Read(filepath.Join(d.Home, "decisions.jsonl"))
	if err != nil || len(recs) != 2 {
		t.Fatalf("log: %v %+v", err, recs)
	}
	// Each is logged after its answer is sent, so either may come first.
	if srcs := []string{recs[0].Source, recs[1].Source}; !slices.Contains(srcs, "try") || !slices.Contains(srcs, "") {
		t.Errorf("sources %q, want one try and one hook's", srcs)
	}
	// Both are logged now, and only the hook's is a recent block.
	if r := d.RecentDenies(10); len(r) != 1 || r[0].Source != "" {
		t.Errorf("recent blocks: %+v", r)
	}
}

func TestUnknownSourceIsRefused(t *testing.T) {
	d := daemontest.Start(t, nil)
	ev := json.RawMessage(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`)
	_, err := (&wire.Client{Socket: d.Socket}).Decide(context.Background(), &wire.Request{Event: ev, Source: "tray"})
	var werr *wire.Error
	if !errors.As(err, &werr) || werr.Code != wire.CodeBadRequest {
		t.Errorf("got %v, want bad_request", err)
	}
}

// The daemon keeps hook.json current with config.yaml, so a fail_mode
// changed there reaches the hook's failure path without a reinstall.
func TestHookStateFollowsConfig(t *testing.T) {
	d := daemontest.Start(t, nil)
	path := filepath.Join(d.Home, "hook.json")
	read := func() hookstate.State {
		st, err := hookstate.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := read(); st.FailMode != "open" || st.HookTimeout != "2s" {
		t.Errorf("at start: %+v", st)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	os.WriteFile(filepath.Join(d.Home, "config.yaml"), []byte("fail_mode: closed\nhook_timeout: 4s\n"), 0o600)
	if _, err := (&wire.Client{Socket: d.Socket}).Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := read(); st.FailMode != "closed" || st.HookTimeout != "4s" {
		t.Errorf("after reload: %+v", st)
	}
	// The hook said it runs with the installed --timeout 2s and no
	// --fail-closed: status says what to run.
	ev := json.RawMessage(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if _, err := (&wire.Client{Socket: d.Socket}).Decide(context.Background(), &wire.Request{Event: ev, HookTimeoutMillis: 2000}); err != nil {
		t.Fatal(err)
	}
	st := status(t, d.Socket)
	var kinds []string
	for _, p := range st.Problems {
		kinds = append(kinds, p.Kind)
		if !strings.Contains(p.Fix, "agentjail install") {
			t.Errorf("fix %q", p.Fix)
		}
	}
	if strings.Join(kinds, " ") != "hook_timeout fail_mode" || st.Hook == nil || st.Hook.Timeout != "2s" {
		t.Errorf("problems %q, hook %+v", kinds, st.Hook)
	}
}

// The tray (counts, deny notifications, recent blocks) hears of the
// hook's decisions only, never of a try.
func TestTryNeverReachesTheTray(t *testing.T) {
	sock, stop := startTrayListener(t)
	ev := json.RawMessage(`{"tool_name":"Bash","tool_input":{"command":"cat ~/.ssh/id_rsa"}}`)
	for _, source := range []string{wire.SourceTry, wire.SourceTry, ""} {
		if _, err := (&wire.Client{Socket: sock}).Decide(context.Background(), &wire.Request{Event: ev, Source: source}); err != nil {
			t.Fatal(err)
		}
	}
	heard := stop()
	if len(heard) != 1 || heard[0].Verdict != "deny" || heard[0].Source != "" {
		t.Errorf("the tray heard %+v, want the hook's deny alone", heard)
	}
}
