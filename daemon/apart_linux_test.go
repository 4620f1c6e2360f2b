package daemon

import (
	"os/exec"
	"syscall"
	"testing"

	"github.com/agentjail/agentjail/internal/jail"
)

// A call run apart is told from the user's other processes by its user
// namespace, which it cannot leave.
func TestPeerApartTellsAUserNamespace(t *testing.T) {
	if ok, why := jail.CanHide(false); !ok {
		t.Skip(why)
	}
	plain := exec.Command("sleep", "30")
	apart := exec.Command("sleep", "30")
	apart.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: syscall.Getuid(), HostID: syscall.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: syscall.Getgid(), HostID: syscall.Getgid(), Size: 1}},
	}
	for _, c := range []*exec.Cmd{plain, apart} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		defer c.Process.Kill()
	}
	if peerApart(plain.Process.Pid) {
		t.Error("a process in the daemon's own user namespace was taken for a confined call")
	}
	if !peerApart(apart.Process.Pid) {
		t.Error("a process in a user namespace of its own was not told apart")
	}
	if peerApart(0) || peerApart(1<<22+7) {
		t.Error("an unknown peer was taken for a confined call")
	}
}
