package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/wire"
)

// holdOne sends an ask-class call of Codex's that the daemon on socket
// holds for a person; its decision arrives on the channel.
func holdOne(t *testing.T, socket string) <-chan *wire.Decision {
	t.Helper()
	ev, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": "/work/p", "turn_id": "t", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": "git reset --hard HEAD~1"}})
	out := make(chan *wire.Decision, 1)
	go func() {
		dec, err := (&wire.Client{Socket: socket}).DecideBrief(context.Background(), &wire.Request{Event: ev, Agent: "codex", HookTimeoutMillis: 2000, HoldMillis: 30000})
		if err != nil {
			dec = &wire.Decision{Verdict: "error: " + wire.Verdict(err.Error())}
		}
		out <- dec
	}()
	return out
}

func TestApprovingFromATerminal(t *testing.T) {
	throwawayHome(t)
	d := daemontest.Start(t, nil)
	client := daemonClient
	daemonClient = func() *wire.Client { return &wire.Client{Socket: d.Socket} }
	t.Cleanup(func() { daemonClient = client })

	if out, _, code := runCLI(t, "pending"); code != 0 || !strings.Contains(out, "nothing waits") {
		t.Fatalf("pending with nothing waiting (exit %d):\n%s", code, out)
	}
	dec := holdOne(t, d.Socket)
	var out string
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(out, "1 call waiting"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("pending never showed the call:\n%s", out)
		}
		out, _, _ = runCLI(t, "pending")
	}
	if !strings.Contains(out, "git reset --hard HEAD~1") || !strings.Contains(out, "git.discard_work") || strings.Contains(out, "code ") {
		t.Errorf("pending, not on a terminal:\n%s\nwant the call and no code", out)
	}
	list, _ := (&wire.Client{Socket: d.Socket}).Pending(context.Background(), true)
	id, code := list[0].ID, list[0].Code

	for _, tc := range []struct {
		args []string
		exit int
		want string
	}{
		{[]string{"approve", id}, ExitError, "one-time code"},
		{[]string{"approve", id, "--code", "not-it"}, ExitError, "wrong code"},
		{[]string{"approve", id, "--code", code, "--session", "--project"}, ExitUsage, "not both"},
		{[]string{"approve", "ffffffff", "--code", code}, ExitError, "no call waits"},
	} {
		if _, errOut, exit := runCLI(t, tc.args...); exit != tc.exit || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", tc.args, exit, errOut, tc.exit, tc.want)
		}
	}
	if out, errOut, exit := runCLI(t, "approve", id, "--code", code, "--project"); exit != 0 || !strings.Contains(out, "git reset in /work/p") {
		t.Fatalf("approve --project: exit %d %s%s", exit, out, errOut)
	}
	if got := <-dec; got.Verdict != wire.Allow {
		t.Fatalf("decision %+v", got)
	}
	out, _, _ = runCLI(t, "grants")
	if !strings.Contains(out, "project: git reset") || !strings.Contains(out, "rules git.discard_work") || !strings.Contains(out, "in the terminal") {
		t.Errorf("grants:\n%s", out)
	}
	if _, errOut, exit := runCLI(t, "grants", "revoke"); exit != ExitUsage || !strings.Contains(errOut, "--all") {
		t.Errorf("revoke with nothing: exit %d %q", exit, errOut)
	}
	if out, _, exit := runCLI(t, "grants", "revoke", "--all"); exit != 0 || !strings.Contains(out, "revoked 1 grant") {
		t.Errorf("revoke --all: exit %d %q", exit, out)
	}
	if out, _, _ := runCLI(t, "grants"); !strings.Contains(out, "no grants") {
		t.Errorf("after revoke --all:\n%s", out)
	}
}
