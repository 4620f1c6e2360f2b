//go:build darwin

package daemon

import "golang.org/x/sys/unix"

// peerUID reads LOCAL_PEERCRED (what getpeereid uses): the uid of the
// process that connected.
func peerUID(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}

// peerPID reads LOCAL_PEERPID: the pid of the process that connected
// (the hook), or 0.
func peerPID(fd int) int {
	pid, err := unix.GetsockoptInt(fd, unix.SOL_LOCAL, unix.LOCAL_PEERPID)
	if err != nil {
		return 0
	}
	return pid
}
