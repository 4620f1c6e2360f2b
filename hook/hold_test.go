package hook

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/wire"
)

const heldEvent = `{"session_id":"s1","cwd":"/work/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git reset --hard HEAD~1"},"turn_id":"t1"}`

// A held call waits past the hook's own deadline for a person, and the
// agent hears the person's answer in its dialect.
func TestAHeldCallWaitsForAPerson(t *testing.T) {
	d := daemontest.Start(t, nil)
	client := &wire.Client{Socket: d.Socket}
	for _, allow := range []bool{true, false} {
		done := make(chan [3]any, 1)
		go func() {
			stdout, stderr, code, _ := run(t, Options{Client: client, Agent: "codex", Timeout: time.Second, Hold: 30 * time.Second}, strings.NewReader(heldEvent))
			done <- [3]any{stdout, stderr, code}
		}()
		var p wire.Pending
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			list, _ := client.Pending(context.Background(), true)
			if len(list) == 1 {
				p = list[0]
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("nothing waits")
			}
		}
		// Past the hook's one-second deadline: it waits on.
		time.Sleep(1500 * time.Millisecond)
		if _, err := client.Answer(context.Background(), wire.ApprovalAnswer{ID: p.ID, Code: p.Code, Allow: allow}); err != nil {
			t.Fatal(err)
		}
		got := <-done
		stdout, stderr, code := got[0].(string), got[1].(string), got[2].(int)
		switch {
		case allow && (code != 0 || stdout != ""):
			t.Errorf("allowed: exit %d stdout %q stderr %q; want Codex's silent no objection", code, stdout, stderr)
		case !allow && (code != 2 || !strings.Contains(stderr, "A person denied")):
			t.Errorf("denied: exit %d stderr %q", code, stderr)
		}
	}
}

// A held call whose answer never comes is answered as the ask it was,
// never by the fail mode (open by default).
func TestALostHoldIsAnAskNotAFailOpen(t *testing.T) {
	dir := t.TempDir()
	sock := dir + "/s.sock"
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		wire.ReadFrame(conn)
		wire.WriteFrame(conn, &wire.Response{Held: &wire.Held{ID: "abc", WaitMillis: 30000}})
		time.Sleep(200 * time.Millisecond)
		conn.Close() // the daemon stopped
	}()
	client := &wire.Client{Socket: sock, Dial: func(ctx context.Context, s string) (wire.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", s)
	}}
	stdout, stderr, code, recs := run(t, Options{Client: client, Agent: "codex", Hold: 30 * time.Second, State: "-"}, strings.NewReader(heldEvent))
	if code != 2 || !strings.Contains(stderr, "A human must approve") || len(recs) != 0 {
		t.Errorf("exit %d stdout %q stderr %q records %v", code, stdout, stderr, recs)
	}
}
