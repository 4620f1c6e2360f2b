package daemon_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/jail"
	"github.com/agentjail/agentjail/internal/unixsock"
	"github.com/agentjail/agentjail/internal/wire"
)

// A person's ops (answers, revokes, the codes) are taken on the person
// channel only: a client that sends one to the socket is refused, the
// usual client reaches it, and a confined call cannot reach it at all.
func TestPersonChannel(t *testing.T) {
	if unixsock.PersonAddress("x") == "" {
		t.Skip("no person channel on this system")
	}
	d := daemontest.Start(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	onSocket := &wire.Client{Socket: d.Socket, Dial: func(ctx context.Context, socket string) (wire.Conn, error) {
		return unixsock.Dial(ctx, socket)
	}}
	if _, err := onSocket.Answer(ctx, wire.ApprovalAnswer{ID: "x", Code: "123456", Allow: true}); err == nil || !strings.Contains(err.Error(), "person channel") {
		t.Errorf("an answer on the socket: %v, want a refusal naming the person channel", err)
	}
	if _, err := onSocket.Pending(ctx, true); err == nil {
		t.Errorf("the codes were listed on the socket")
	}
	if _, err := onSocket.Pending(ctx, false); err != nil {
		t.Errorf("the waiting calls without codes: %v", err)
	}
	client := &wire.Client{Socket: d.Socket}
	if _, err := client.Pending(ctx, true); err != nil {
		t.Errorf("the person channel: %v", err)
	}

	if !jail.Probe().Scoped {
		t.Skip("this kernel's Landlock has no scopes (ABI 6): a confined call could reach the person channel")
	}
	hookBin := filepath.Join(t.TempDir(), "agentjail-hook")
	if out, err := exec.Command("go", "build", "-o", hookBin, "../cmd/agentjail-hook").CombinedOutput(); err != nil {
		t.Fatalf("build the hook: %v\n%s", err, out)
	}
	profile, err := jail.Save(t.TempDir(), jail.Profile{}, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	dial := `python3 -c 'import socket,sys;s=socket.socket(socket.AF_UNIX);s.connect(sys.argv[1].replace("@","\0",1));print("REACHED")' ` + unixsock.PersonAddress(d.Socket)
	if out, _ := exec.Command("bash", "-c", dial).CombinedOutput(); !strings.Contains(string(out), "REACHED") {
		t.Fatalf("the dial does not reach the person channel even unconfined: %s", out)
	}
	out, _ := exec.Command(hookBin, "jail", profile, dial).CombinedOutput()
	if strings.Contains(string(out), "REACHED") {
		t.Errorf("a confined call reached the person channel")
	}
	os.Remove(profile)
}
