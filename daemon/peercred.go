package daemon

import (
	"fmt"
	"net"
	"os"
)

// checkPeer returns the uid of the process on the other end. A user's
// daemon refuses every other user (the socket's 0600 mode already
// should; this holds even when AGENTJAIL_SOCKET puts the socket
// somewhere whose permissions we do not control); the system daemon
// (anyUser) serves every local user and judges each call as its caller's.
func checkPeer(conn net.Conn, anyUser bool) (int, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return -1, fmt.Errorf("not a Unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1, err
	}
	uid := -1
	var credErr error
	if err := raw.Control(func(fd uintptr) { uid, credErr = peerUID(int(fd)) }); err != nil {
		return -1, err
	}
	if credErr != nil {
		return -1, fmt.Errorf("reading the peer's credentials: %w", credErr)
	}
	if uid != ownUID && !anyUser {
		return -1, fmt.Errorf("peer uid %d is not ours (%d)", uid, ownUID)
	}
	return uid, nil
}

// ownUID is the daemon's uid, read once: it never changes, and reading
// it is a system call on every connection otherwise.
var ownUID = os.Getuid()

// connPID is the pid of the process at the other end of conn, or 0.
func connPID(conn net.Conn) int {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return 0
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0
	}
	pid := 0
	raw.Control(func(fd uintptr) { pid = peerPID(int(fd)) })
	return pid
}
