package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/wire"
)

// busyLoops keeps every core busy with a shell loop until the test ends.
func busyLoops(t testing.TB) {
	t.Helper()
	for range runtime.NumCPU() {
		loop := exec.Command("sh", "-c", "while :; do :; done")
		if err := loop.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { loop.Process.Kill(); loop.Wait() })
	}
}

// The first call after a start, with both cores held by busy loops, is
// judged by the daemon, never let through unchecked: the hook waits for
// a daemon that is starting. Only if the start itself took longer than
// the hook may wait (its deadline and wire.StartGrace), which the
// benchmarks measure, may that call go by the fail mode, and then it
// must be recorded as what it was.
func TestFirstCallDuringAStartUnderLoadIsJudged(t *testing.T) {
	if testing.Short() {
		t.Skip("holds every core for seconds")
	}
	e := newEnv(t)
	os.MkdirAll(filepath.Join(e.home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(e.home, ".ssh", "id_ed25519"), []byte("fake key\n"), 0o600)
	busyLoops(t)
	started := time.Now()
	e.startListening()
	event, _ := json.Marshal(map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": filepath.Join(e.home, ".ssh", "id_ed25519")}})
	hookStart := time.Now()
	r := e.hook(string(event))
	if r.code == 2 && strings.Contains(r.stdout, `"deny"`) {
		return
	}
	e.waitAnswering()
	ready := time.Since(started)
	patience := 2*time.Second + wire.StartGrace // the hook's default deadline, and the grace
	failures, _ := os.ReadFile(filepath.Join(e.ajHome, "hook-failures.jsonl"))
	if time.Since(hookStart) < patience || !strings.Contains(string(failures), wire.CauseStarting) {
		t.Fatalf("the first call during the start was not denied: exit %d stdout %s stderr %q; failures recorded: %s", r.code, r.stdout, r.stderr, failures)
	}
	t.Logf("this machine is too loaded to judge the start: the daemon answered %v after it started, past the %v a hook waits; the call was recorded as %s", ready, patience, wire.CauseStarting)
}
