package unixsock

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentjail/agentjail/internal/privatefile"
)

// checkSystemFolder trusts the system socket's folder when nobody but its
// owner can write to it and that owner is not the caller (unless the
// caller is root): the service user made it, in a folder only root can
// write to, so no user could have put another server's socket there. It
// returns the owner, the only uid the server may run as.
func checkSystemFolder(socket string) (int, error) {
	dir := filepath.Dir(socket)
	fi, err := os.Stat(dir)
	if err != nil {
		return -1, err
	}
	uid, ok := privatefile.Owner(fi)
	if !ok {
		return -1, &UntrustedError{Socket: socket, Reason: "sits in a folder whose owner cannot be read on this system"}
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return -1, &UntrustedError{Socket: socket, Reason: fmt.Sprintf("sits in %s, which others than its owner can write to (mode %v); run `sudo agentjail install --system` again", dir, fi.Mode().Perm())}
	}
	if me := os.Getuid(); uid == me && me != 0 {
		return -1, &UntrustedError{Socket: socket, Reason: fmt.Sprintf("sits in %s, which belongs to you, not to agentjail's service user; run `sudo agentjail install --system` again", dir)}
	}
	return uid, nil
}

// checkSystemPeer refuses a system server that does not run as the owner
// of its folder (the service user).
func checkSystemPeer(socket string, fd, owner int) error {
	uid, err := peerUID(fd)
	if err != nil {
		return &UntrustedError{Socket: socket, Reason: fmt.Sprintf("cannot be identified (%v)", err)}
	}
	if uid != owner {
		return &UntrustedError{Socket: socket, Reason: fmt.Sprintf("runs as uid %d, not as uid %d, the owner of its folder", uid, owner)}
	}
	return nil
}
