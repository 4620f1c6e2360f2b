package unixsock

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentjail/agentjail/internal/privatefile"
)

// UntrustedError says the server on the socket, or the folder it sits in,
// is not the user's own: another user could be answering in the daemon's
// place, so nothing it says may be believed.
type UntrustedError struct {
	Socket string
	Reason string
}

func (e *UntrustedError) Error() string {
	return fmt.Sprintf("the server on %s %s: refusing to trust it", e.Socket, e.Reason)
}

// checkFolder refuses a socket whose folder another user owns or can
// write to: whoever can write there can swap the socket for their own.
// It follows a symlinked folder and judges where it leads.
func checkFolder(socket string) error {
	dir := filepath.Dir(socket)
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	uid, ok := privatefile.Owner(fi)
	if !ok {
		return nil // no owner to check on this system
	}
	if uid != os.Getuid() {
		return &UntrustedError{Socket: socket, Reason: fmt.Sprintf("sits in %s, which belongs to uid %d, not you", dir, uid)}
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return &UntrustedError{Socket: socket, Reason: fmt.Sprintf("sits in %s, which other users can write to (mode %v); run chmod 700 on it", dir, fi.Mode().Perm())}
	}
	return nil
}

// checkPeer refuses a server that runs as another user.
func checkPeer(socket string, fd int) error {
	uid, err := peerUID(fd)
	if err != nil {
		return &UntrustedError{Socket: socket, Reason: fmt.Sprintf("cannot be identified (%v)", err)}
	}
	if uid != os.Getuid() {
		return &UntrustedError{Socket: socket, Reason: fmt.Sprintf("runs as uid %d, not you", uid)}
	}
	return nil
}
