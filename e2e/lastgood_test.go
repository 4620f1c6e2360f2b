package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A typo in config.yaml and a daemon restart do not take the
// configuration's protections away: the last good one stays in force
// (protected paths still denied, fail_mode still closed, hook.json not
// reopened) and status says so.
func TestBrokenConfigSurvivesARestart(t *testing.T) {
	e := newEnv(t)
	cfgPath := filepath.Join(e.ajHome, "config.yaml")
	os.MkdirAll(filepath.Join(e.home, "notes"), 0o755)
	os.MkdirAll(e.ajHome, 0o700)
	os.WriteFile(cfgPath, []byte("fail_mode: closed\nprotected_paths: [~/notes]\n"), 0o600)
	e.start()
	if r := e.cli("status"); r.code != 0 || strings.Contains(r.stdout, "config.yaml has an error") {
		t.Fatalf("status with a good config: %+v", r)
	}
	e.stop()

	// The typo (protected_path) refuses the whole file.
	os.WriteFile(cfgPath, []byte("fail_mode: open\nprotected_path: [~/notes]\n"), 0o600)
	e.start()
	r := e.cli("status")
	for _, want := range []string{
		`config.yaml has an error (line 2: unknown key "protected_path" (did you mean protected_paths?)`,
		"in force: the last good configuration from ",
		"config:    fail mode closed",
		filepath.Join(e.home, "notes"),
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("status does not say %q:\n%s", want, r.stdout)
		}
	}
	if r.code != 4 || strings.Contains(r.stdout, "the defaults") {
		t.Errorf("status: %+v", r)
	}
	if r := e.cli("try", "cat", "~/notes/plans.txt"); !strings.Contains(r.stdout, "deny") || !strings.Contains(r.stderr, "in force: the last good configuration") {
		t.Errorf("a protected path after the restart: %+v", r)
	}
	var hs struct {
		FailMode string `json:"fail_mode"`
	}
	if err := json.Unmarshal([]byte(read(filepath.Join(e.ajHome, "hook.json"))), &hs); err != nil || hs.FailMode != "closed" {
		t.Errorf("hook.json: %+v %v", hs, err)
	}
	// With the daemon gone, the hook still fails closed, from hook.json.
	e.stop()
	expectDecision(t, e.hook(bashEvent("ls")), "deny", "agentjail run")
}

// With no good config.yaml ever loaded, status says the defaults are in
// force, not that a last good one is.
func TestBrokenConfigWithNoGoodOneEver(t *testing.T) {
	e := newEnv(t)
	os.MkdirAll(e.ajHome, 0o700)
	os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte("fail_mode: closd\n"), 0o600)
	e.start()
	r := e.cli("status")
	if r.code != 4 || !strings.Contains(r.stdout, `config.yaml has an error (line 1: fail_mode must be "open" or "closed", not "closd"); no good configuration was ever loaded: in force: the defaults`) ||
		strings.Contains(r.stdout, "last good configuration from") || !strings.Contains(r.stdout, "(the defaults: config.yaml has an error)") {
		t.Errorf("status: %+v", r)
	}
	// install refuses to write the defaults' fail_mode into the agents'
	// settings, and changes nothing.
	before := tree(t, e.home)
	if r := e.cli("install"); r.code != 1 || !strings.Contains(r.stderr, "fix config.yaml first") {
		t.Errorf("install with a broken config and no good one: %+v", r)
	}
	if after := tree(t, e.home); after != before {
		t.Errorf("a refused install changed HOME:\n%s\nbefore:\n%s", after, before)
	}
}
