package daemon_test

import (
	"context"
	"encoding/json"
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
	"github.com/agentjail/agentjail/internal/wire"
)

// On the system daemon one user's flood of connections reaches that
// user's share alone: past it their calls are denied at once (never let
// through), and once they let go their calls are judged again.
func TestSystemCallerShare(t *testing.T) {
	shared, err := os.MkdirTemp("", "ajs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(shared) })
	os.Chmod(shared, 0o755) // reachable by another uid, as /run/agentjail is
	sock := filepath.Join(shared, "run", "agentjail.sock")
	daemontest.StartWith(t, nil, func(o *daemon.Options) {
		o.System = true
		o.Socket = sock
	})
	var idle []net.Conn
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	c := &wire.Client{Socket: sock}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	over := false
	for i := 0; i < 200 && !over; i++ {
		dec, err := c.Decide(ctx, &wire.Request{Event: hookEvent("ls")})
		if err != nil {
			t.Fatal(err)
		}
		if dec.Verdict == wire.Deny && strings.Contains(dec.Reason, "already holds") {
			over = true
			break
		}
		if dec.Verdict != wire.Allow {
			t.Fatalf("with %d idle connections: %s (%s)", len(idle), dec.Verdict, dec.Reason)
		}
		conn, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		idle = append(idle, conn) // holds a connection, sends nothing
	}
	if !over {
		t.Fatalf("%d idle connections of one user and its calls are still served: no share", len(idle))
	}
	if len(idle) < 8 {
		t.Errorf("the share is %d connections: an agent's parallel calls need more", len(idle))
	}
	if os.Getuid() == 0 {
		// Another user, while this one floods: still judged.
		bin := filepath.Join(shared, "client")
		copyFile(t, os.Args[0], bin)
		b, _ := json.Marshal(wire.Request{Op: wire.OpDecide, Event: hookEvent("ls")})
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), recentHelperEnv+"="+sock+"\t"+string(b))
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the client as another uid: %v: %s", err, exitStderr(err))
		}
		var resp wire.Response
		if err := json.Unmarshal(out, &resp); err != nil || resp.Decision == nil || resp.Decision.Verdict != wire.Allow {
			t.Errorf("another user's call while one floods: %s (%v)", out, err)
		}
	}
	for _, conn := range idle {
		conn.Close()
	}
	idle = nil
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		dec, err := c.Decide(ctx, &wire.Request{Event: hookEvent("ls")})
		if err == nil && dec.Verdict == wire.Allow {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the flood ended: %v %v", dec, err)
		}
	}
}
