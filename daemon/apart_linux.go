package daemon

import (
	"os"
	"strconv"
)

// peerApart reports whether the process pid runs in another user
// namespace than the daemon: a call the launcher ran apart (jail.Profile
// Apart and Hide), which no process can leave. It is how the approvals
// channel tells a confined caller where Landlock's scopes cannot keep it
// out. A namespace it cannot read (another user's process, in system
// mode) tells nothing.
func peerApart(pid int) bool {
	if pid <= 0 {
		return false
	}
	own, err := os.Readlink("/proc/self/ns/user")
	if err != nil {
		return false
	}
	theirs, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/user")
	return err == nil && theirs != own
}
