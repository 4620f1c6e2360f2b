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

// inSystemMode makes the commands take system mode as in force, with
// the daemon on socket, run as root or not, until the test ends.
func inSystemMode(t *testing.T, socket string, root bool) {
	t.Helper()
	mode, client, rootNow := systemMode, daemonClient, isRoot
	systemMode = func() bool { return true }
	daemonClient = func() *wire.Client { return &wire.Client{Socket: socket} }
	isRoot = func() bool { return root }
	t.Cleanup(func() { systemMode, daemonClient, isRoot = mode, client, rootNow })
}

// decideThrough makes one decision of a Bash call through the daemon
// on socket, as an agent's hook would.
func decideThrough(t *testing.T, socket, command string) {
	t.Helper()
	ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": command}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := (&wire.Client{Socket: socket}).Decide(ctx, &wire.Request{Event: ev}); err != nil {
		t.Fatal(err)
	}
}

// In system mode a user's `agentjail logs` reads through the daemon
// (the log is the service user's), filters and all.
func TestLogsThroughTheDaemon(t *testing.T) {
	throwawayHome(t)
	d := daemontest.Start(t, nil)
	inSystemMode(t, d.Socket, false)
	decideThrough(t, d.Socket, "ls -la")
	decideThrough(t, d.Socket, "cat ~/.ssh/id_rsa")
	var out string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var code int
		if out, _, code = runCLI(t, "logs", "--json"); code != 0 {
			t.Fatalf("logs exited %d: %s", code, out)
		}
		if strings.Count(out, "\n") >= 2 {
			break
		}
	}
	if !strings.Contains(out, "ls -la") || !strings.Contains(out, "id_rsa") {
		t.Fatalf("logs --json shows:\n%s\nwant both decisions", out)
	}
	out, _, code := runCLI(t, "logs", "--verdict", "deny")
	if code != 0 || !strings.Contains(out, "id_rsa") || strings.Contains(out, "ls -la") {
		t.Errorf("logs --verdict deny (exit %d) shows:\n%s\nwant the deny alone", code, out)
	}
	if strings.Contains(out, "UID") {
		t.Errorf("a user's own logs show a UID column:\n%s", out)
	}
	out, _, _ = runCLI(t, "logs", "--tool", "Read")
	if strings.Contains(out, "id_rsa") {
		t.Errorf("logs --tool Read shows a Bash call:\n%s", out)
	}

	d.Stop(t)
	if _, errOut, code := runCLI(t, "logs"); code != ExitNotRunning {
		t.Errorf("with the daemon stopped, logs exited %d (%s), want %d", code, errOut, ExitNotRunning)
	}
}
