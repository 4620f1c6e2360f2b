package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// systemMessage is the message a hook's stdout shows the user in Claude
// Code ("" when there is none).
func systemMessage(stdout string) string {
	var out struct {
		SystemMessage string `json:"systemMessage"`
	}
	json.Unmarshal([]byte(stdout), &out)
	return out.SystemMessage
}

// A socket taken away under a running daemon (by a temp cleaner, or a
// user tidying up) no longer leaves every later call unchecked: the hook
// waits for the daemon, which recreates it, and the call is checked; if
// it is not, the hook says what happened (not "no daemon") and the call
// after is checked. The same for the socket's folder. A daemon on a
// socket of its own leaves neither socket nor lock behind when it stops.
func TestRemovedSocketHeals(t *testing.T) {
	e := newEnv(t)
	dir, _ := os.MkdirTemp("", "ajs") // short: socket paths are limited
	t.Cleanup(func() { os.RemoveAll(dir) })
	e.socket = filepath.Join(dir, "run", "s.sock")
	e.extra = []string{"AGENTJAIL_SOCKET=" + e.socket}
	e.start()
	deny := bashEvent("cat ~/.ssh/id_rsa")
	expectDecision(t, e.hook(deny), "deny", "")

	tests := []struct {
		name   string
		remove func()
		says   string // what a call that fails open must say
	}{
		{"socket removed", func() { os.Remove(e.socket) }, "its socket " + e.socket + " is gone"},
		{"folder removed", func() { os.RemoveAll(filepath.Dir(e.socket)) }, "is gone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.remove()
			r := e.hook(deny)
			if r.code != 2 {
				// Not checked: it must say what happened, in the agent's
				// channel too, and never claim there was no daemon.
				if !strings.Contains(r.stderr, tt.says) || strings.Contains(r.stderr, "no agentjail daemon is running") || !strings.Contains(systemMessage(r.stdout), tt.says) {
					t.Errorf("a call failed open saying %q (stdout %q); want it to say %q", r.stderr, r.stdout, tt.says)
				}
				waitFor(t, "the socket to be back", func() bool { _, err := os.Stat(e.socket); return err == nil })
			}
			expectDecision(t, e.hook(deny), "deny", "")
			if st := e.cli("status"); st.code != 0 && st.code != 4 {
				t.Errorf("status after healing: exit %d\n%s", st.code, st.stdout)
			}
		})
	}
	if strings.Contains(e.logs.String(), "stopped") {
		t.Fatalf("the daemon stopped:\n%s", e.logs)
	}

	t.Run("no socket or lock left after stop", func(t *testing.T) {
		e.stop()
		for _, f := range []string{e.socket, e.socket + ".lock"} {
			if _, err := os.Lstat(f); !os.IsNotExist(err) {
				t.Errorf("%s is left behind (%v)", f, err)
			}
		}
	})
}

// The fail-open a bad event on stdin causes is not blamed on the daemon:
// status names each fail-open's cause, and the daemon's health line
// counts them by cause.
func TestFailOpenCauseInStatus(t *testing.T) {
	e := newEnv(t)
	garbage := e.hook("rm -rf ~")
	if garbage.code != 0 || !strings.Contains(systemMessage(garbage.stdout), "not a JSON object") {
		t.Fatalf("garbage stdin: %+v", garbage)
	}
	st := e.cli("status")
	if !strings.Contains(st.stdout, "because the agent sent an event that is not one JSON object") || strings.Contains(st.stdout, "because no daemon was running") {
		t.Errorf("status after a garbage event:\n%s", st.stdout)
	}
	none := e.hook(bashEvent("ls"))
	if none.code != 0 || !strings.Contains(systemMessage(none.stdout), "no agentjail daemon is running") {
		t.Fatalf("no daemon: %+v", none)
	}
	st = e.cli("status")
	if !strings.Contains(st.stdout, "because no daemon was running") || !strings.Contains(st.stdout, "not running: no agentjail daemon is running") {
		t.Errorf("status after a call with no daemon:\n%s", st.stdout)
	}
	e.start()
	st = e.cli("status")
	for _, want := range []string{"2 calls ran unchecked in the last hour", "1 because the agent sent an event that is not one JSON object", "1 because no daemon was running"} {
		if !strings.Contains(st.stdout, want) {
			t.Errorf("status with the daemon up lacks %q:\n%s", want, st.stdout)
		}
	}
}
