package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// recentHelperEnv makes the test binary a client that sends one
// request (the variable's value: socket, then a tab, then the request
// as JSON) and prints the answer: the second uid of
// TestRecentShowsEachCallerItsOwn.
const recentHelperEnv = "AGENTJAIL_TEST_RECENT_CLIENT"

func init() {
	arg := os.Getenv(recentHelperEnv)
	if arg == "" {
		return
	}
	sock, req, _ := strings.Cut(arg, "\t")
	// A raw connection: the client's trust checks want the socket's
	// folder to be this uid's own, which a shared test folder is not.
	conn, err := net.Dial("unix", sock)
	if err == nil {
		conn.SetDeadline(time.Now().Add(20 * time.Second))
		if err = wire.WriteFrame(conn, json.RawMessage(req)); err == nil {
			var body []byte
			if body, err = wire.ReadFrame(conn); err == nil {
				os.Stdout.Write(body)
				os.Exit(0)
			}
		}
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

// The system daemon answers OpRecent with the caller's own decisions:
// a user never sees another user's calls, root sees them all. The
// second user is a real process of another uid, which needs root; run
// otherwise, the test checks the caller's own view alone (the filter
// has its table test, TestRecentFilter).
func TestRecentShowsEachCallerItsOwn(t *testing.T) {
	shared, err := os.MkdirTemp("", "ajr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(shared) })
	os.Chmod(shared, 0o755) // reachable by the other uid, as /run/agentjail is
	sock := filepath.Join(shared, "run", "agentjail.sock")
	daemontest.StartWith(t, nil, func(o *daemon.Options) {
		o.System = true
		o.Socket = sock
	})
	c := &wire.Client{Socket: sock}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	key := hookEvent("cat ~/.ssh/id_rsa")
	if dec, err := c.Decide(ctx, &wire.Request{Event: key}); err != nil || dec.Verdict != wire.Deny {
		t.Fatalf("decide: %v %v", dec, err)
	}
	me := os.Getuid()

	other := -1
	if me == 0 {
		other = 65534 // nobody
		bin := filepath.Join(shared, "client")
		copyFile(t, os.Args[0], bin)
		ask := func(req wire.Request) wire.Response {
			t.Helper()
			b, _ := json.Marshal(req)
			cmd := exec.Command(bin)
			cmd.Env = append(os.Environ(), recentHelperEnv+"="+sock+"\t"+string(b))
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(other), Gid: uint32(other)}}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("the client as uid %d: %v: %s", other, err, exitStderr(err))
			}
			var resp wire.Response
			if err := json.Unmarshal(out, &resp); err != nil {
				t.Fatalf("the client as uid %d answered %q: %v", other, out, err)
			}
			return resp
		}
		resp := ask(wire.Request{Op: wire.OpDecide, Event: hookEvent("rm -rf ~")})
		if resp.Decision == nil {
			t.Fatalf("decide as uid %d: %+v", other, resp.Error)
		}
		resp = ask(wire.Request{Op: wire.OpRecent, Recent: &wire.RecentQuery{}})
		if resp.Recent == nil {
			t.Fatalf("recent as uid %d: %+v", other, resp.Error)
		}
		if got := uidsOf(t, resp.Recent.Records); !equalInts(got, []int{other}) {
			t.Errorf("uid %d sees the decisions of uids %v, want its own alone", other, got)
		}
	}

	// Wait for the records: they are logged once the answer is sent.
	want := []int{me}
	if other >= 0 {
		want = []int{me, other}
	}
	var got []int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		rec, err := c.Recent(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got = uidsOf(t, rec.Records); len(got) >= len(want) {
			break
		}
	}
	if !equalInts(got, want) {
		t.Errorf("uid %d sees the decisions of uids %v, want %v", me, got, want)
	}
}

// After a restart the recent decisions are there again: the daemon
// reads the end of its log at start.
func TestRecentAfterARestart(t *testing.T) {
	d := daemontest.Start(t, nil)
	d.Stop(t)
	var lines []byte
	at := time.Now().Add(-time.Hour).UTC()
	for i := range 3000 {
		b, _ := json.Marshal(decisionlog.Record{Time: at.Add(time.Duration(i) * time.Millisecond), ID: fmt.Sprint(i), Verdict: "deny", Tool: "Bash", Summary: "ls"})
		lines = append(append(lines, b...), '\n')
	}
	if err := os.WriteFile(filepath.Join(d.Home, "decisions.jsonl"), lines, 0o600); err != nil {
		t.Fatal(err)
	}
	d = daemontest.StartAt(t, d.Home, d.Socket)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rec, err := (&wire.Client{Socket: d.Socket}).Recent(ctx, &wire.RecentQuery{Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range rec.Records {
		var dr decisionlog.Record
		json.Unmarshal(r, &dr)
		ids = append(ids, dr.ID)
	}
	if got := strings.Join(ids, " "); got != "2995 2996 2997 2998 2999" {
		t.Errorf("got records %s, want the newest five, oldest first", got)
	}
}

func uidsOf(t *testing.T, raw []json.RawMessage) []int {
	t.Helper()
	var out []int
	for _, b := range raw {
		var r decisionlog.Record
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if r.UID == nil {
			t.Fatalf("a record without its caller's uid: %s", b)
		}
		out = append(out, *r.UID)
	}
	return out
}

func equalInts(a, b []int) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func exitStderr(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}

// hookEvent is a Bash call's hook event.
func hookEvent(cmd string) json.RawMessage {
	ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": cmd}})
	return ev
}
