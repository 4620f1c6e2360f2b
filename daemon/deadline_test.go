package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/hook"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// hookDecide asks as the hook does: within the hook's own deadline. An
// error here is what a hook would turn into its fail mode (open, by
// default), so every test below wants a verdict, not an error.
func hookDecide(sock, cmd string) (*wire.Decision, error) {
	ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": cmd}})
	ctx, cancel := context.WithTimeout(context.Background(), hook.DefaultTimeout)
	defer cancel()
	return (&wire.Client{Socket: sock}).Decide(ctx, &wire.Request{Event: ev})
}

// startWith runs a daemon whose home holds config.yaml and user policies.
func startWith(t *testing.T, configYAML string, policies map[string]string) *daemontest.Daemon {
	t.Helper()
	dir, err := os.MkdirTemp("", "aj")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	daemontest.WritePolicies(t, home, policies)
	if configYAML != "" {
		os.WriteFile(filepath.Join(home, "config.yaml"), []byte(configYAML), 0o600)
	}
	return daemontest.StartAt(t, home, filepath.Join(home, "agentjail.sock"))
}

// slowRule never fires, but takes seconds to find that out: if a slow
// rule's evaluation were ever let through, the verdict would be allow.
const slowRule = `package agentjail
import rego.v1
deny contains "never" if {
  input.tool_input.command == "slow"
  some i in numbers.range(1, 4000)
  some j in numbers.range(1, 4000)
  i * j == -1
}
`

func TestSlowRuleUnderLoadDeniesEveryCall(t *testing.T) {
	d := startWith(t, "", map[string]string{"slow.rego": slowRule})
	const calls = 64
	type answer struct {
		dec *wire.Decision
		err error
	}
	answers := make(chan answer, calls)
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			dec, err := hookDecide(d.Socket, "slow")
			answers <- answer{dec, err}
		})
	}
	wg.Wait()
	close(answers)
	verdicts := map[string]int{}
	for a := range answers {
		switch {
		case a.err != nil:
			verdicts["error: "+a.err.Error()]++
		case a.dec.Verdict != wire.Deny:
			verdicts[string(a.dec.Verdict)]++
		case !strings.Contains(a.dec.Reason, "eval_timeout") && !strings.Contains(a.dec.Reason, "budget"):
			verdicts["deny for another reason: "+a.dec.Reason]++
		default:
			verdicts["deny"]++
		}
	}
	if verdicts["deny"] != calls {
		t.Errorf("answers %v, want %d denies for the slow rule", verdicts, calls)
	}
	// The same daemon still answers, and a fast call is still allowed.
	if dec, err := hookDecide(d.Socket, "ls"); err != nil || dec.Verdict != wire.Allow {
		t.Errorf("after the load: %+v %v", dec, err)
	}
	st := status(t, d.Socket)
	if st.EvalErrors < calls || st.Decisions[wire.Deny] != calls {
		t.Errorf("status counts %d eval errors, %v decisions; want every slow call counted as an eval error and a deny", st.EvalErrors, st.Decisions)
	}
}

func TestDerivationThatCannotBeInterruptedIsDeniedInTime(t *testing.T) {
	d := startWith(t, "", nil)
	release := make(chan struct{})
	t.Cleanup(policyset.SetDecideHook(func(req *wire.Request) {
		if strings.Contains(string(req.Event), "stuck") {
			<-release // stands for a derivation that ignores every deadline
		}
	}))
	defer close(release)

	// More stuck calls than workers: the first ones hold every worker,
	// the rest wait for one. All are denied within the hook's deadline.
	n := d.Workers() + 2
	errs := make(chan string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			dec, err := hookDecide(d.Socket, fmt.Sprintf("echo stuck %d", i))
			switch {
			case err != nil:
				errs <- err.Error()
			case dec.Verdict != wire.Deny || !strings.Contains(dec.Reason, "budget"):
				errs <- fmt.Sprintf("%s: %s", dec.Verdict, dec.Reason)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("a stuck call got %s, want a deny naming the budget", e)
	}
	st := status(t, d.Socket)
	if !strings.Contains(st.LastEvalErr, "budget") {
		t.Errorf("last eval error %q, want the missed budget", st.LastEvalErr)
	}
}

func TestWaitingForAWorkerIsBounded(t *testing.T) {
	d := startWith(t, "", nil)
	release := make(chan struct{})
	held := make(chan struct{}, 64)
	t.Cleanup(policyset.SetDecideHook(func(req *wire.Request) {
		if strings.Contains(string(req.Event), "hold") {
			held <- struct{}{}
			<-release
		}
	}))
	defer close(release)
	var wg sync.WaitGroup
	for range d.Workers() {
		wg.Go(func() { hookDecide(d.Socket, "hold") })
	}
	for range d.Workers() {
		<-held // every worker is busy now
	}
	dec, err := hookDecide(d.Socket, "ls")
	if err != nil || dec.Verdict != wire.Deny || !strings.Contains(dec.Reason, "waiting for a free worker") {
		t.Errorf("with every worker busy: %+v %v, want a deny naming the wait", dec, err)
	}
	wg.Wait()
}

func TestAPanicWhileDecidingDeniesThatCallOnly(t *testing.T) {
	d := startWith(t, "", nil)
	t.Cleanup(policyset.SetDecideHook(func(req *wire.Request) {
		if strings.Contains(string(req.Event), "boom") {
			panic("injected failure")
		}
	}))
	for range 3 {
		dec, err := hookDecide(d.Socket, "echo boom")
		if err != nil || dec.Verdict != wire.Deny || !strings.Contains(dec.Reason, "internal error") || !strings.Contains(dec.Reason, "injected failure") {
			t.Fatalf("a panicking decision: %+v %v, want a deny naming an internal error", dec, err)
		}
	}
	if dec, err := hookDecide(d.Socket, "ls"); err != nil || dec.Verdict != wire.Allow {
		t.Errorf("the daemon must go on serving: %+v %v", dec, err)
	}
	if dec, err := hookDecide(d.Socket, "rm -rf ~"); err != nil || dec.Verdict != wire.Deny {
		t.Errorf("the daemon must go on guarding: %+v %v", dec, err)
	}
	st := status(t, d.Socket)
	if st.EvalErrors != 3 || !strings.Contains(st.LastEvalErr, "injected failure") {
		t.Errorf("status: %d eval errors, last %q", st.EvalErrors, st.LastEvalErr)
	}
	d.Stop(t)
	recs, _ := decisionlog.Read(filepath.Join(d.Home, "decisions.jsonl"))
	if len(recs) != 5 || recs[0].Verdict != "deny" || recs[0].Tool != "Bash" || recs[0].Summary != "echo boom" {
		t.Errorf("the panicked decision must be logged like any other: %+v", recs)
	}
}

// flood emits 10,000 deny messages of about 1 KiB each: 10 MiB, ten
// times the frame limit.
const flood = `package agentjail
import rego.v1
pad := concat("", [c | some _ in numbers.range(1, 1000); c := "x"])
deny contains sprintf("%05d %s", [i, pad]) if {
  input.tool_input.command == "flood"
  some i in numbers.range(1, 10000)
}
`

func TestAFloodOfMessagesStillFitsTheAnswer(t *testing.T) {
	// Generous deadlines (a hook installed with --timeout 20s), so the
	// answer is the flood's and not a timeout's even on a slow machine.
	d := startWith(t, "hook_timeout: 20s\neval_timeout: 14s\n", map[string]string{"flood.rego": flood})
	ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": "flood"}})
	for _, explain := range []bool{false, true} {
		t.Run(fmt.Sprintf("explain=%v", explain), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			dec, err := (&wire.Client{Socket: d.Socket}).Decide(ctx, &wire.Request{Event: ev, Explain: explain})
			if err != nil {
				t.Fatalf("no verdict: %v", err)
			}
			if dec.Verdict != wire.Deny || !strings.HasPrefix(dec.Reason, "00001 xxx") || !strings.HasSuffix(dec.Reason, "; and 9990 more") {
				t.Errorf("verdict %s, reason %.80q…%q", dec.Verdict, dec.Reason, dec.Reason[max(0, len(dec.Reason)-40):])
			}
			if len(dec.Rules)+dec.Omitted != 10000 || len(dec.Rules) > 50 {
				t.Errorf("%d rules and %d omitted, want at most 50 and 10,000 in all", len(dec.Rules), dec.Omitted)
			}
			for _, r := range dec.Rules {
				if len(r.Msg) > 1000 {
					t.Errorf("a %d-byte message", len(r.Msg))
				}
			}
		})
	}
	if dec, err := hookDecide(d.Socket, "ls"); err != nil || dec.Verdict != wire.Allow {
		t.Errorf("after the flood: %+v %v", dec, err)
	}
}

func TestLogFailuresShowInStatus(t *testing.T) {
	d := startWith(t, "", nil)
	if st := status(t, d.Socket); st.LogErrors != 0 {
		t.Fatalf("log errors before any decision: %d", st.LogErrors)
	}
	// Something puts a folder where the log goes once the daemon runs.
	if err := os.Mkdir(filepath.Join(d.Home, "decisions.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	if dec, err := hookDecide(d.Socket, "cat ~/.ssh/id_rsa"); err != nil || dec.Verdict != wire.Deny {
		t.Fatalf("a broken log must not change the verdict: %+v %v", dec, err)
	}
	eventually(t, "the failed write in status", func() bool { return status(t, d.Socket).LogErrors > 0 })
	if st := status(t, d.Socket); !strings.Contains(st.LastLogError, "not a regular file") {
		t.Errorf("last log error %q", st.LastLogError)
	}
	if got := d.RecentDenies(1); len(got) != 1 {
		t.Errorf("the tray still hears of the deny: %+v", got)
	}
}

// An answer its hook did not wait for: a hook that fails open let the
// call run, so it is recorded unchecked, failed open, and not as the
// verdict it never heard; a fail-closed hook's call is logged as decided,
// marked undelivered.
func TestUndeliveredAnswersAreMarked(t *testing.T) {
	d := startWith(t, "", nil)
	hungUp := map[bool]chan struct{}{false: make(chan struct{}), true: make(chan struct{})}
	t.Cleanup(policyset.SetDecideHook(func(req *wire.Request) {
		if strings.Contains(string(req.Event), "gone") {
			<-hungUp[req.HookFailClosed] // decide only once the client has hung up
		}
	}))
	for _, failClosed := range []bool{false, true} {
		conn, err := net.Dial("unix", d.Socket)
		if err != nil {
			t.Fatal(err)
		}
		ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": fmt.Sprintf("echo gone %v", failClosed)}})
		if err := wire.WriteFrame(conn, &wire.Request{Op: wire.OpDecide, Event: ev, Agent: "codex", HookFailClosed: failClosed}); err != nil {
			t.Fatal(err)
		}
		conn.Close()
		close(hungUp[failClosed])
		if dec, err := hookDecide(d.Socket, "echo here"); err != nil || dec.Verdict != wire.Allow {
			t.Fatalf("%+v %v", dec, err)
		}
	}
	d.Stop(t)
	recs, _ := decisionlog.Read(filepath.Join(d.Home, "decisions.jsonl"))
	got := map[string]string{}
	for _, r := range recs {
		v := string(r.Verdict) + " " + r.Agent
		if r.Undelivered {
			v += " undelivered"
		}
		if r.Unchecked != nil && strings.Contains(r.Unchecked.Cause, "failed open") {
			v += " failed open"
		}
		got[r.Summary] = v
	}
	// The fail-closed call is logged as decided: allow, or deny when it
	// was decided past its budget (the test holds it back).
	want := map[string]string{"echo gone false": "unchecked codex failed open", "echo gone true": "allow codex undelivered", "echo here": "allow claude-code"}
	closedOK := got["echo gone true"] == want["echo gone true"] || got["echo gone true"] == "deny codex undelivered"
	if len(recs) != 4 || got["echo gone false"] != want["echo gone false"] || !closedOK || got["echo here"] != want["echo here"] {
		t.Errorf("records %v, want %v (echo here twice)", got, want)
	}
}

func TestAStreamOfWritesCannotStarveAReload(t *testing.T) {
	d := startWith(t, "", map[string]string{"deploy.rego": ruleA})
	if got := decide(t, d.Socket, "make deploy"); got.Reason != "rule A" {
		t.Fatalf("initial: %+v", got)
	}
	file := filepath.Join(d.Home, "policies", "deploy.rego")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		// Far more often than the settle time: without a maximum wait
		// the watcher would keep postponing the reload.
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				os.WriteFile(file, []byte(ruleB), 0o600)
			}
		}
	})
	defer func() { close(stop); wg.Wait() }()
	eventually(t, "the new rule to be served while writes go on", func() bool {
		return decide(t, d.Socket, "make deploy").Verdict == wire.Ask
	})
}

// The deadline runs from when the hook started, not from when the daemon
// gets to the request: a request whose hook started longer ago than its
// budget is answered at once with the deadline's deny, not worked on, and
// one from a hook that started now is decided as usual.
func TestDeadlineStartsWithTheHook(t *testing.T) {
	d := daemontest.Start(t, nil)
	ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": "ls"}})
	ask := func(start time.Time) *wire.Decision {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		dec, err := (&wire.Client{Socket: d.Socket}).Decide(ctx, &wire.Request{Event: ev, HookTimeoutMillis: 2000, HookStartMillis: start.UnixMilli()})
		if err != nil {
			t.Fatal(err)
		}
		return dec
	}
	if got := ask(time.Now().Add(-time.Minute)); got.Verdict != wire.Deny || len(got.Rules) == 0 || got.Rules[0].ID != "agentjail.deadline" || !strings.Contains(got.Reason, "waiting to be read") {
		t.Errorf("a request whose hook's budget is spent: got %+v, want the deadline's deny", got)
	}
	if got := ask(time.Now()); got.Verdict != wire.Allow {
		t.Errorf("a request from a hook that just started: got %+v, want allow", got)
	}
	// A start in the future (the clock set back since) leaves the budget
	// counted from when the daemon accepted the request.
	if got := ask(time.Now().Add(time.Hour)); got.Verdict != wire.Allow {
		t.Errorf("a request from a hook started 'in the future': got %+v, want allow", got)
	}
}
