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
	// The hook refuses a socket in a folder others can write to (they
	// could swap it); refuse to serve one there too, and say so.
	if err := checkOwnFolder(filepath.Dir(socket)); err != nil {
		return nil, err
	}
	for _, dir := range privateDirs {
		if err := checkHomeFiles(dir); err != nil {
			return nil, err
		}
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
// refuses one that belongs to somebody else, or that is reached through a
// symlink somebody else owns (in a shared folder like /tmp, they could
// point it elsewhere at any time).
func ensurePrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	lfi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if lfi.Mode().Type() == fs.ModeSymlink {
		if uid := ownerOf(lfi); uid != os.Getuid() {
			return fmt.Errorf("%s is a symlink that belongs to uid %d, not to you: agentjail needs a folder of its own (remove it, or set AGENTJAIL_HOME)", dir, uid)
		}
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder: move it away, or set AGENTJAIL_HOME", dir)
	}
	if uid := ownerOf(fi); uid != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not to you: agentjail needs a folder of its own (set AGENTJAIL_HOME)", dir, uid)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("making %s private (0700): %w", dir, err)
		}
	}
	return nil
}

// checkOwnFolder refuses a folder another user owns or may write to.
func checkOwnFolder(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if uid := ownerOf(fi); uid != os.Getuid() {
		return fmt.Errorf("the socket's folder %s belongs to uid %d, not to you: put the socket in a folder of your own (AGENTJAIL_SOCKET)", dir, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("the socket's folder %s is writable by other users (mode %v), who could replace the socket: run chmod 700 on it, or put the socket elsewhere (AGENTJAIL_SOCKET)", dir, fi.Mode().Perm())
	}
	return nil
}

// homeFiles are the files in AGENTJAIL_HOME the daemon or hook write to
// (or, for config.yaml, trust). Those writers open by name, so a symlink
// planted in place of one would make them write wherever it points.
var homeFiles = []string{"decisions.jsonl", "agentjail.log", "hook-failures.jsonl", "config.yaml"}

// checkHomeFiles refuses a home where one of homeFiles is a symlink, not
// a regular file, or not ours, and narrows one others could write to.
func checkHomeFiles(home string) error {
	for _, name := range homeFiles {
		if err := checkOwnFile(filepath.Join(home, name)); err != nil {
			return err
		}
	}
	return nil
}

// checkOwnFile accepts a missing file or a regular one of ours; it takes
// write access away from group and others.
func checkOwnFile(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case fi.Mode().Type() == fs.ModeSymlink:
		return fmt.Errorf("%s is a symlink: agentjail never follows symlinks in its home, since writing through one would change another file; remove it", path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%v): remove it", path, fi.Mode().Type())
	case ownerOf(fi) != os.Getuid():
		return fmt.Errorf("%s belongs to uid %d, not to you: remove it, since its owner could change what agentjail reads or writes", path, ownerOf(fi))
	case fi.Mode().Perm()&0o022 != 0:
		if err := os.Chmod(path, fi.Mode().Perm()&^0o022); err != nil {
			return fmt.Errorf("%s is writable by other users and could not be made private: %w", path, err)
		}
	}
	return nil
}

func ownerOf(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// lockFile takes a non-blocking exclusive flock on path. It never follows
// a symlink there (it would truncate the file it points to) and refuses
// anything but a regular file of ours.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0o600)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a symlink: agentjail never follows symlinks for its lock, since it writes to it; remove it", path)
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (%v): remove it", path, fi.Mode().Type())
	} else if err == nil && ownerOf(fi) != os.Getuid() {
		err = fmt.Errorf("%s belongs to uid %d, not to you: remove it", path, ownerOf(fi))
	}
	if err != nil {
		f.Close()
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
