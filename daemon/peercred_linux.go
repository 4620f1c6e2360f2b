//go:build linux

package daemon

import "golang.org/x/sys/unix"

// peerUID reads SO_PEERCRED: the uid of the process that connected.
func peerUID(fd int) (int, error) {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}

// peerPID reads SO_PEERCRED: the pid of the process that connected
// (the hook), or 0.
func peerPID(fd int) int {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return 0
	}
	return int(cred.Pid)
}
