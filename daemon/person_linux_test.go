package daemon_test

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/jail"
	"github.com/agentjail/agentjail/internal/unixsock"
)

// Where Landlock has no scopes, a confined call runs in a user namespace
// of its own, and the person channel takes nothing from one.
func TestPersonChannelRefusesACallRunApart(t *testing.T) {
	if unixsock.PersonAddress("x") == "" {
		t.Skip("no person channel on this system")
	}
	if ok, why := jail.CanHide(false); !ok {
		t.Skip(why)
	}
	d := daemontest.Start(t, nil)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ask := func(apart bool) string {
		c := exec.Command(self, "-test.run=^$")
		c.Env = append(os.Environ(), pendingEnv+"="+d.Socket)
		if apart {
			uid, gid := os.Getuid(), os.Getgid()
			c.SysProcAttr = &syscall.SysProcAttr{
				Cloneflags:  syscall.CLONE_NEWUSER,
				UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
				GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
			}
		}
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("client: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := ask(false); !strings.HasPrefix(out, "answered") {
		t.Fatalf("the person's own client was refused: %s", out)
	}
	if out := ask(true); !strings.Contains(out, "refused") || !strings.Contains(out, "confined call") {
		t.Errorf("a client in a user namespace of its own listed the codes: %s", out)
	}
}
