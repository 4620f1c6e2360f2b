package daemon

import (
	"fmt"
	"net"
	"os"
)

// checkPeer refuses connections from any other user. The socket's 0600
// mode already should; this holds even when AGENTJAIL_SOCKET puts the
// socket somewhere whose permissions we do not control.
func checkPeer(conn net.Conn) error {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a Unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	uid := -1
	var credErr error
	if err := raw.Control(func(fd uintptr) { uid, credErr = peerUID(int(fd)) }); err != nil {
		return err
	}
	if credErr != nil {
		return fmt.Errorf("reading the peer's credentials: %w", credErr)
	}
	if uid != ownUID {
		return fmt.Errorf("peer uid %d is not ours (%d)", uid, ownUID)
	}
	return nil
}

// ownUID is the daemon's uid, read once: it never changes, and reading
// it is a system call on every connection otherwise.
var ownUID = os.Getuid()
