package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fullStatus runs `agentjail status --json`.
func fullStatus(t *testing.T, e *env) (code int, rep struct {
	Running bool `json:"running"`
	Daemon  struct {
		PID       int              `json:"pid"`
		Mode      string           `json:"mode"`
		FailMode  string           `json:"fail_mode"`
		Decisions map[string]int64 `json:"decisions"`
		Problems  []struct {
			Kind, Message, Fix string
		} `json:"problems"`
	} `json:"daemon"`
}) {
	t.Helper()
	r := e.cli("status", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("status --json: %v: %+v", err, r)
	}
	return r.code, rep
}

func problemKinds(t *testing.T, e *env) string {
	t.Helper()
	_, rep := fullStatus(t, e)
	var kinds []string
	for _, p := range rep.Daemon.Problems {
		kinds = append(kinds, p.Kind)
	}
	return strings.Join(kinds, " ")
}

// killDaemon kills the daemon with sig and waits until it is gone.
func killDaemon(t *testing.T, e *env, sig syscall.Signal) int {
	t.Helper()
	pid := daemonPID(t, e)
	syscall.Kill(pid, sig)
	waitFor(t, "the daemon to die", func() bool { return syscall.Kill(pid, 0) != nil })
	return pid
}

// A detached daemon killed outright comes back with the next tool call,
// and that call is checked; concurrent calls start one daemon, not many.
func TestDetachedDaemonComesBack(t *testing.T) {
	e := newEnv(t)
	os.MkdirAll(e.ajHome, 0o700)
	// A generous deadline: starting the daemon compiles the whole pack,
	// and this machine may be busy.
	os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte("hook_timeout: 15s\n"), 0o600)
	t.Cleanup(func() { e.cli("uninstall") }) // never leave a daemon behind
	if r := e.cli("install"); r.code != 0 || !strings.Contains(r.stdout, "starts it again by itself when it finds none running") {
		t.Fatalf("install: %+v", r)
	}
	hook := filepath.Join(e.ajHome, "bin", "agentjail-hook")

	first := killDaemon(t, e, syscall.SIGKILL)
	r := e.run(bashEvent("cat ~/.ssh/id_rsa"), hook, "--timeout", "15s")
	if r.code != 2 || !strings.Contains(r.stdout, `"deny"`) || strings.Contains(r.stderr, "could not check") {
		t.Fatalf("the first call after the crash was not checked: %+v", r)
	}
	code, rep := fullStatus(t, e)
	if !rep.Running || rep.Daemon.PID == first || rep.Daemon.Mode != "detached" {
		t.Errorf("no new detached daemon: %d %+v", code, rep)
	}

	// Many calls at once after a crash: every one checked, the harmless
	// one allowed, and one daemon started.
	killDaemon(t, e, syscall.SIGKILL)
	logBefore := read(filepath.Join(e.ajHome, "agentjail.log"))
	var wg sync.WaitGroup
	results := make([]result, 8)
	for i := range results {
		wg.Go(func() {
			cmd := "cat ~/.ssh/id_rsa"
			if i%2 == 1 {
				cmd = "ls -la"
			}
			results[i] = e.run(bashEvent(cmd), hook, "--timeout", "15s")
		})
	}
	wg.Wait()
	for i, r := range results {
		want := 2
		if i%2 == 1 {
			want = 0
		}
		if r.code != want || r.stderr != "" && want == 0 {
			t.Errorf("call %d: %+v", i, r)
		}
	}
	log := strings.TrimPrefix(read(filepath.Join(e.ajHome, "agentjail.log")), logBefore)
	if n := strings.Count(log, "agentjail is serving"); n != 1 {
		t.Errorf("%d daemons served after the burst, want 1:\n%s", n, log)
	}
	if strings.Contains(log, "already running") {
		t.Errorf("more than one daemon was started:\n%s", log)
	}
}

// fail_mode and hook_timeout changed in config.yaml: fail_mode reaches
// the hook's failure path at once; status and reload say to run install
// for what only install can change; install clears it.
func TestConfigTakesEffectWithoutReinstall(t *testing.T) {
	e := newEnv(t)
	t.Cleanup(func() { e.cli("uninstall") }) // never leave a daemon behind
	if r := e.cli("install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	hook := filepath.Join(e.ajHome, "bin", "agentjail-hook")
	daemonBin := filepath.Join(e.ajHome, "bin", "agentjail")
	// downForGood stops the daemon so that no hook can start it again.
	downForGood := func() {
		os.Rename(daemonBin, daemonBin+".away")
		killDaemon(t, e, syscall.SIGTERM)
	}
	backUp := func() { os.Rename(daemonBin+".away", daemonBin) }

	// As installed (fail open), with no daemon a call runs unchecked.
	downForGood()
	if r := e.run(bashEvent("ls"), hook); r.code != 0 || !strings.Contains(r.stderr, "allowed unchecked") {
		t.Fatalf("fail-open as installed: %+v", r)
	}
	backUp()
	if r := e.run(bashEvent("ls"), hook); r.code != 0 || r.stderr != "" {
		t.Fatalf("the hook did not bring the daemon back: %+v", r)
	}

	os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte("fail_mode: closed\nhook_timeout: 5s\n"), 0o600)
	r := e.cli("reload")
	if r.code != 4 || !strings.Contains(r.stdout, "hook_timeout") || !strings.Contains(r.stdout, "fix: run `agentjail install`") {
		t.Errorf("reload does not say what to run: %+v", r)
	}
	if r := e.cli("status"); r.code != 4 || !strings.Contains(r.stdout, "config.yaml sets hook_timeout 5s but the installed hook runs with --timeout 2s") {
		t.Errorf("status: %+v", r)
	}
	if got := problemKinds(t, e); !strings.Contains(got, "hook_timeout fail_mode") {
		t.Errorf("problems %q", got)
	}

	// Without reinstalling, the daemon down for good: blocked.
	downForGood()
	r = e.run(bashEvent("ls"), hook)
	if r.code != 2 || !strings.Contains(r.stdout, "config.yaml sets fail_mode: closed") {
		t.Errorf("fail_mode: closed did not take effect without install: %+v", r)
	}
	backUp()

	if r := e.cli("install"); r.code != 0 {
		t.Fatalf("install again: %+v", r)
	}
	settings := read(filepath.Join(e.home, ".claude", "settings.json"))
	if !strings.Contains(settings, "--fail-closed --timeout 5s") {
		t.Errorf("install did not write the new flags:\n%s", settings)
	}
	if got := problemKinds(t, e); strings.Contains(got, "hook_timeout") || strings.Contains(got, "fail_mode") {
		t.Errorf("after install, problems %q", got)
	}
}

// Health describes now: a cause that is gone no longer degrades it.
func TestHealthDescribesNow(t *testing.T) {
	e := newEnv(t)
	t.Cleanup(func() { e.cli("uninstall") }) // never leave a daemon behind
	if r := e.cli("install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	if r := e.cli("status"); r.code != 0 || !strings.Contains(r.stdout, "health: ok") {
		t.Fatalf("fresh install: %+v", r)
	}

	// --help is not a failed call.
	if r := e.run("", filepath.Join(e.ajHome, "bin", "agentjail-hook"), "--help"); r.code != 0 || !strings.Contains(r.stdout, "Usage:") {
		t.Errorf("--help: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(e.ajHome, "hook-failures.jsonl")); !os.IsNotExist(err) {
		t.Errorf("--help recorded a failure")
	}

	// A broken policy degrades while it is there.
	e.writePolicy("broken.rego", "package agentjail\ndeny[msg] {\n")
	waitFor(t, "the broken policy to show", func() bool { return problemKinds(t, e) == "policy" })
	r := e.cli("status")
	if r.code != 4 || !strings.Contains(r.stdout, "fix: fix or remove the file") {
		t.Errorf("status with a broken policy: %+v", r)
	}
	os.Remove(filepath.Join(e.ajHome, "policies", "broken.rego"))
	waitFor(t, "health to clear", func() bool { return e.cli("status").code == 0 })

	// Fail-opens count for an hour.
	failLog := filepath.Join(e.ajHome, "hook-failures.jsonl")
	rec := func(ago time.Duration) string {
		return fmt.Sprintf(`{"time":%q,"mode":"open","error":"no daemon"}`+"\n", time.Now().Add(-ago).UTC().Format(time.RFC3339))
	}
	os.WriteFile(failLog, []byte(rec(3*time.Hour)+rec(90*time.Minute)), 0o600)
	if r := e.cli("status"); r.code != 0 {
		t.Errorf("fail-opens over an hour ago degrade: %+v", r)
	}
	os.WriteFile(failLog, []byte(rec(3*time.Hour)+rec(2*time.Minute)), 0o600)
	if r := e.cli("status"); r.code != 4 || !strings.Contains(r.stdout, "1 calls ran unchecked in the last hour") || !strings.Contains(r.stdout, "fix:") {
		t.Errorf("a recent fail-open: %+v", r)
	}
}

// try is the user testing a policy: never counted, logged apart.
func TestTryLeavesCountersAlone(t *testing.T) {
	e := newEnv(t)
	t.Cleanup(func() { e.cli("uninstall") }) // never leave a daemon behind
	if r := e.cli("install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	if r := e.cli("try", "cat ~/.ssh/id_rsa"); !strings.Contains(r.stdout, "deny") {
		t.Fatalf("try: %+v", r)
	}
	_, rep := fullStatus(t, e)
	if n := rep.Daemon.Decisions["deny"] + rep.Daemon.Decisions["allow"] + rep.Daemon.Decisions["ask"]; n != 0 {
		t.Errorf("try was counted: %v", rep.Daemon.Decisions)
	}
	if r := e.run(bashEvent("cat ~/.ssh/id_rsa"), filepath.Join(e.ajHome, "bin", "agentjail-hook")); r.code != 2 {
		t.Fatalf("hook: %+v", r)
	}
	_, rep = fullStatus(t, e)
	if rep.Daemon.Decisions["deny"] != 1 {
		t.Errorf("the agent's deny was not counted: %v", rep.Daemon.Decisions)
	}
	rows := func(args ...string) int {
		var n int
		waitFor(t, "the log", func() bool {
			r := e.cli(append([]string{"logs", "--json"}, args...)...)
			n = strings.Count(r.stdout, "\n")
			return n > 0
		})
		return n
	}
	if n := rows(); n != 1 {
		t.Errorf("logs shows %d rows, want the agent's one", n)
	}
	if n := rows("--try"); n != 1 {
		t.Errorf("logs --try shows %d rows, want 1", n)
	}
	if n := rows("--all"); n != 2 {
		t.Errorf("logs --all shows %d rows, want 2", n)
	}
}

// With agentjail never installed, every message says so.
func TestAdviceWhenNeverInstalled(t *testing.T) {
	e := newEnv(t)
	if r := e.hook(bashEvent("ls")); r.code != 0 || !strings.Contains(r.stderr, "agentjail is not installed here") {
		t.Errorf("hook: %+v", r)
	}
	if r := e.cli("status"); r.code != 3 || !strings.Contains(r.stdout, "agentjail is not installed here") {
		t.Errorf("status: %+v", r)
	}
	if r := e.cli("try", "ls"); r.code != 3 || !strings.Contains(r.stderr, "agentjail is not installed here") {
		t.Errorf("try: %+v", r)
	}
	for _, r := range []result{e.hook(bashEvent("ls")), e.cli("status"), e.cli("try", "ls")} {
		if strings.Contains(r.stdout+r.stderr, "start it with `agentjail run`") {
			t.Errorf("advises a foreground daemon: %+v", r)
		}
	}
}
