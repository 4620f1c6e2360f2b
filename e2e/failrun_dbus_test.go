//go:build linux

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A run of calls that ran unchecked reaches the user at once, over the
// real desktop path: the real agentjail runs with its tray on a private
// session bus, the real hook fails open three times within a minute (the
// agent sends it events it cannot read, which it records in the same
// hook-failures.jsonl the daemon watches), and the notification server
// on the bus gets exactly one notification saying calls ran unchecked,
// however many more fail open in the same run; status shows the run.
func TestFailOpenRunNotifiedOverDBus(t *testing.T) {
	e := newEnv(t)
	e.bus = startBus(t, filepath.Dir(e.home))
	dt := newDesktop(t, e.bus)
	e.runArgs = []string{} // with the tray
	e.start()
	waitFor(t, "the tray to register", func() bool { return len(dt.items()) > 0 })

	// Each of these is not one JSON object: the hook cannot check the
	// call and, with the default fail_mode, lets it run.
	failOpen := func(event string) {
		t.Helper()
		r := e.hook(event)
		if r.code != 0 || !strings.Contains(r.stderr, failOpenMark) {
			t.Fatalf("hook on %q: exit %d, stderr %q; want a fail-open", event, r.code, r.stderr)
		}
	}
	for _, event := range []string{"not json", "[1, 2, 3]", `"a string"`} {
		failOpen(event)
	}
	log, err := os.ReadFile(filepath.Join(e.ajHome, "hook-failures.jsonl"))
	if err != nil || strings.Count(string(log), `"mode":"open","cause":"bad_event"`) != 3 {
		t.Fatalf("hook-failures.jsonl (%v):\n%s", err, log)
	}

	unchecked := func() []notification {
		var out []notification
		for _, n := range dt.sent() {
			if strings.Contains(n.summary, "ran unchecked") {
				out = append(out, n)
			}
		}
		return out
	}
	waitFor(t, "a notification that calls ran unchecked", func() bool { return len(unchecked()) > 0 })
	n := unchecked()[0]
	if n.app != "agentjail" || n.summary != "agentjail: 3 calls ran unchecked" || !strings.Contains(n.body, "the agent sent an event that is not one JSON object") || !strings.Contains(n.body, "agentjail status") {
		t.Errorf("notification %+v", n)
	}

	// One more fail-open in the same run is counted, not notified again.
	failOpen("{")
	type runStatus struct {
		Daemon struct {
			Problems []struct {
				Kind, Message string
			} `json:"problems"`
			FailOpenRun *struct {
				Count    int      `json:"count"`
				Causes   []string `json:"causes"`
				Notified string   `json:"notified"`
			} `json:"fail_open_run"`
		} `json:"daemon"`
		Healthy bool `json:"healthy"`
	}
	var st runStatus
	waitFor(t, "status to count the fourth fail-open", func() bool {
		r := e.cli("status", "--json")
		st = runStatus{}
		if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
			t.Fatalf("status --json: %v\n%s%s", err, r.stdout, r.stderr)
		}
		return st.Daemon.FailOpenRun != nil && st.Daemon.FailOpenRun.Count == 4
	})
	run := st.Daemon.FailOpenRun
	if len(run.Causes) != 1 || run.Causes[0] != "bad_event" || run.Notified == "" {
		t.Errorf("fail_open_run %+v", run)
	}
	var problem string
	for _, p := range st.Daemon.Problems {
		if p.Kind == "fail_open_run" {
			problem = p.Message
		}
	}
	if !strings.Contains(problem, "4 calls ran unchecked within 1m0s of each other") || st.Healthy {
		t.Errorf("healthy %v, fail_open_run problem %q; problems %+v", st.Healthy, problem, st.Daemon.Problems)
	}
	time.Sleep(2 * time.Second) // the log is looked at every second
	if got := unchecked(); len(got) != 1 {
		t.Errorf("%d notifications that calls ran unchecked, want 1: %+v", len(got), got)
	}
	if all := dt.sent(); len(all) != 1 {
		t.Errorf("notifications sent: %+v", all)
	}
}
