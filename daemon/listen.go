package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
)

// ErrAlreadyRunning means another daemon owns the socket.
var ErrAlreadyRunning = errors.New("already running")

// listener is the socket plus the lock that proves we own it.
type listener struct {
	net.Listener
	path string
	lock *os.File
}

// listen makes dir private, takes the socket's lock, replaces a stale
// socket file left by a crashed run, and listens with mode 0600.
func listen(socket string, privateDirs ...string) (*listener, error) {
	for _, dir := range privateDirs {
		if err := ensurePrivateDir(dir); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(socket), 0o700); err != nil {
		return nil, fmt.Errorf("creating the socket's folder: %w", err)
	}
	lock, err := lockFile(paths.SocketLock(socket))
	if err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another agentjail daemon is %w on %s: stop it first (`agentjail status` shows its pid), or set AGENTJAIL_SOCKET to run a second one", ErrAlreadyRunning, socket)
		}
		return nil, fmt.Errorf("locking %s.lock: %w", socket, err)
	}
	ok := false
	defer func() {
		if !ok {
			lock.Close()
		}
	}()
	if fi, err := os.Lstat(socket); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("%s exists and is not a socket: move it away or set AGENTJAIL_SOCKET", socket)
		}
		// We hold the lock, so no live daemon owns this: a crash left it.
		if err := os.Remove(socket); err != nil {
			return nil, fmt.Errorf("removing the stale socket %s: %w", socket, err)
		}
	}
	ln, err := net.Listen("unix", socket)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", socket, err)
	}
	// Close removes the socket file; we remove it ourselves after the lock.
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	if err := os.Chmod(socket, 0o600); err != nil {
		ln.Close()
		os.Remove(socket)
		return nil, fmt.Errorf("making %s private: %w", socket, err)
	}
	ok = true
	return &listener{Listener: ln, path: socket, lock: lock}, nil
}

// Close stops listening, removes the socket file, then releases the lock.
func (l *listener) Close() error {
	err := l.Listener.Close()
	os.Remove(l.path)
	l.lock.Close()
	return err
}

// ensurePrivateDir creates dir as 0700, tightens a looser one we own, and
// refuses one that belongs to somebody else.
func ensurePrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not to you: agentjail needs a folder of its own (set AGENTJAIL_HOME)", dir, st.Uid)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("making %s private (0700): %w", dir, err)
		}
	}
	return nil
}

// lockFile takes a non-blocking exclusive flock on path.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	// Record who holds it, for people debugging by hand.
	f.Truncate(0)
	fmt.Fprintf(f, "%d %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	return f, nil
}
