package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/wire"
)

// ErrAlreadyRunning means another daemon owns the socket.
var ErrAlreadyRunning = errors.New("already running")

// listener is the socket plus the lock that proves we own it. Both can
// be taken away under a running daemon (a temp cleaner, a tidy user
// removing the socket, its folder or the lock), which would leave every
// later call unchecked while the lock keeps a new daemon out; heal (run
// by guardSocket) puts them back.
type listener struct {
	path string
	dirs []string // private folders to recreate (the home)
	// shared: the system daemon's socket, which every local user may
	// reach (mode 0666 in a folder of mode 0755 that the service user
	// owns); callers are told apart by their peer credentials.
	shared bool

	mu     sync.Mutex
	ln     net.Listener // the listener on path now
	sockID fileID       // the socket file ln made
	lock   *os.File
	lockID fileID
	// state is what the lock file says the daemon is doing
	// (wire.LockStarting until Serving, then wire.LockServing): a hook
	// that hears nothing waits longer for a daemon that is starting.
	state string
	// stopped: no more accepting or healing; closed: the files are gone.
	stopped, closed bool
}

// fileID is a file's identity: a path that names another file is not ours.
type fileID struct{ dev, ino uint64 }

func idOf(fi fs.FileInfo) fileID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(st.Dev), uint64(st.Ino)}
	}
	return fileID{}
}

// listenFor listens on the socket opts names: a user's own (listen), or
// the system daemon's, which every local user may reach.
func listenFor(opts Options) (*listener, error) {
	if opts.System {
		return listenAs(true, opts.Socket, opts.Home)
	}
	return listen(opts.Socket, opts.Home)
}

// listen makes dir private, takes the socket's lock, replaces a stale
// socket file left by a crashed run, and listens with mode 0600.
func listen(socket string, privateDirs ...string) (*listener, error) {
	return listenAs(false, socket, privateDirs...)
}

// socketModes are the socket's mode and its folder's when it is made,
// for a user's daemon and for a shared (system) one.
func socketModes(shared bool) (sock, dir fs.FileMode) {
	if shared {
		return 0o666, 0o755
	}
	return 0o600, 0o700
}

func listenAs(shared bool, socket string, privateDirs ...string) (*listener, error) {
	sockMode, dirMode := socketModes(shared)
	for _, dir := range privateDirs {
		if err := ensurePrivateDir(dir); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(socket), dirMode); err != nil {
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
	lock, lockID, err := lockFile(paths.SocketLock(socket), wire.LockStarting)
	if err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another agentjail daemon is %w on %s: stop it first (`agentjail status` shows its pid), or set AGENTJAIL_SOCKET to run a second one", ErrAlreadyRunning, socket)
		}
		return nil, fmt.Errorf("locking %s.lock: %w", socket, err)
	}
	ok := false
	defer func() {
		if !ok {
			unlock(lock, lockID)
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
	ln, sockID, err := listenOn(socket, sockMode)
	if err != nil {
		return nil, err
	}
	ok = true
	return &listener{path: socket, dirs: privateDirs, shared: shared, ln: ln, sockID: sockID, lock: lock, lockID: lockID, state: wire.LockStarting}, nil
}

// listenOn listens on a free socket path with mode (0600 for a user's
// daemon), and returns the socket file's identity.
func listenOn(socket string, mode fs.FileMode) (net.Listener, fileID, error) {
	ln, err := net.Listen("unix", socket)
	if err != nil {
		return nil, fileID{}, fmt.Errorf("listening on %s: %w", socket, err)
	}
	// Close would remove the socket file, even one that is no longer
	// ours; we remove it ourselves, only while it is.
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	fi, err := os.Lstat(socket)
	if err == nil {
		err = os.Chmod(socket, mode)
	}
	if err != nil {
		ln.Close()
		os.Remove(socket)
		return nil, fileID{}, fmt.Errorf("making %s private: %w", socket, err)
	}
	return ln, idOf(fi), nil
}

// Accept waits for a connection on whichever listener is current: a
// listener replaced by heal ends its wait, and the new one takes over.
func (l *listener) Accept() (net.Conn, error) {
	for {
		l.mu.Lock()
		ln := l.ln
		l.mu.Unlock()
		conn, err := ln.Accept()
		if err == nil || !errors.Is(err, net.ErrClosed) {
			return conn, err
		}
		l.mu.Lock()
		swapped := l.ln != ln && !l.stopped
		l.mu.Unlock()
		if !swapped {
			return nil, err
		}
	}
}

// Serving records in the lock file that the daemon answers now: until
// then a hook whose call waits on the socket's backlog knows the daemon
// is starting (compiling its policies), not stuck.
func (l *listener) Serving() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.state = wire.LockServing
	writeHolder(l.lock, l.state)
}

// Close stops listening, removes the socket file and the lock file (each
// only while it is still ours), then releases the lock.
func (l *listener) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed, l.stopped = true, true
	err := l.ln.Close()
	removeIfSame(l.path, l.sockID)
	unlock(l.lock, l.lockID)
	return err
}

// stopListening closes the listener (Accept returns), leaving the files
// for Close.
func (l *listener) stopListening() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
	l.ln.Close()
}

// errLockLost says another daemon holds the socket's lock now (the lock
// file was removed under this one and a new daemon took a new one): this
// daemon must stop and leave the socket to it.
var errLockLost = errors.New("another agentjail daemon took over the socket's lock")

// heal puts back what was taken from under the daemon: the socket's
// folder (and the home), the lock file, the socket file. It returns what
// it repaired ("" for nothing), or errLockLost, or why it could not
// repair (it is tried again at the next check).
func (l *listener) heal() (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return "", nil
	}
	lockPath := paths.SocketLock(l.path)
	lockOK := sameFile(lockPath, l.lockID)
	sockOK := sameFile(l.path, l.sockID)
	if lockOK && sockOK {
		return "", nil // the usual case: two lstats
	}
	var did []string
	for _, dir := range l.dirs {
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			if err := ensurePrivateDir(dir); err != nil {
				return "", err
			}
			did = append(did, "recreated "+dir)
		}
	}
	dir := filepath.Dir(l.path)
	sockMode, dirMode := socketModes(l.shared)
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, dirMode); err != nil {
			return "", fmt.Errorf("recreating the socket's folder: %w", err)
		}
		did = append(did, "recreated the socket's folder "+dir)
	}
	if err := checkOwnFolder(dir); err != nil {
		return "", err
	}
	if !lockOK {
		// Whoever holds the lock at the path owns the socket. A free lock
		// file (or none) is taken again; one held means a new daemon
		// took over after ours was removed: it serves, this one goes.
		lock, id, err := lockFile(lockPath, l.state)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return "", errLockLost
		}
		if err != nil {
			return "", fmt.Errorf("taking the lock again: %w", err)
		}
		l.lock.Close() // its file is gone or not the lock any more: nothing to remove
		l.lock, l.lockID = lock, id
		did = append(did, "took the lock "+lockPath+" again")
	}
	if !sameFile(l.path, l.sockID) {
		if fi, err := os.Lstat(l.path); err == nil {
			if fi.Mode().Type() == fs.ModeSocket {
				// We hold the lock, so no live daemon owns it.
				if err := os.Remove(l.path); err != nil {
					return "", fmt.Errorf("removing the socket that replaced ours: %w", err)
				}
			} else {
				// Never delete what someone put there: move it aside.
				aside := fmt.Sprintf("%s.moved-%s", l.path, time.Now().UTC().Format("20060102T150405.000000000"))
				if err := os.Rename(l.path, aside); err != nil {
					return "", fmt.Errorf("%s is not a socket and cannot be moved away: %w", l.path, err)
				}
				did = append(did, fmt.Sprintf("moved the %v that replaced the socket to %s", fi.Mode().Type(), aside))
			}
		}
		ln, id, err := listenOn(l.path, sockMode)
		if err != nil {
			return "", err
		}
		old := l.ln
		l.ln, l.sockID = ln, id
		old.Close()
		did = append(did, "recreated the socket "+l.path)
	}
	return strings.Join(did, "; "), nil
}

// sameFile reports whether path names the file id (without following a
// symlink).
func sameFile(path string, id fileID) bool {
	fi, err := os.Lstat(path)
	return err == nil && idOf(fi) == id
}

// removeIfSame removes path if it still names the file id.
func removeIfSame(path string, id fileID) {
	if sameFile(path, id) {
		os.Remove(path)
	}
}

// unlock removes the lock file while still holding it (so no other
// daemon has it yet), then releases it. A daemon that opened the file
// before its removal and locks it after finds the path no longer names
// it, and tries again (see lockFile).
func unlock(lock *os.File, id fileID) {
	removeIfSame(lock.Name(), id)
	lock.Close()
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
var homeFiles = []string{paths.DecisionLogName, paths.DaemonLogName, paths.FailLogName, paths.ConfigName}

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

// lockWait bounds how long lockFile retries a lock another process holds
// for an instant: the hook and status test it with a shared lock they
// release at once.
const lockWait = 100 * time.Millisecond

// lockFile takes a non-blocking exclusive flock on path and returns the
// file and its identity. It never follows a symlink there (it would
// truncate the file it points to) and refuses anything but a regular
// file of ours. A lock held for longer than lockWait is EWOULDBLOCK.
func lockFile(path, state string) (*os.File, fileID, error) {
	for deadline := time.Now().Add(lockWait); ; {
		f, id, err := lockOnce(path, state)
		if err == nil || (!errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, errLockMoved)) || time.Now().After(deadline) {
			if errors.Is(err, errLockMoved) {
				err = syscall.EWOULDBLOCK
			}
			return f, id, err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// errLockMoved: the file was locked after its path came to name another
// (a daemon stopping removes it as it lets go).
var errLockMoved = errors.New("the lock file was replaced while it was taken")

func lockOnce(path, state string) (*os.File, fileID, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0o600)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fileID{}, fmt.Errorf("%s is a symlink: agentjail never follows symlinks for its lock, since it writes to it; remove it", path)
	}
	if err != nil {
		return nil, fileID{}, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (%v): remove it", path, fi.Mode().Type())
	} else if err == nil && ownerOf(fi) != os.Getuid() {
		err = fmt.Errorf("%s belongs to uid %d, not to you: remove it", path, ownerOf(fi))
	}
	if err != nil {
		f.Close()
		return nil, fileID{}, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fileID{}, err
	}
	id := idOf(fi)
	if !sameFile(path, id) {
		f.Close()
		return nil, fileID{}, errLockMoved
	}
	writeHolder(f, state)
	return f, id, nil
}

// writeHolder records in the lock who holds it and what it is doing
// ("pid time state", read by service.ProbeSocket), for the hook's
// patience and messages, status, and people debugging by hand.
func writeHolder(f *os.File, state string) {
	f.Truncate(0)
	// The time says since when, to the millisecond: a hook tells by it
	// whether its call was sent while this daemon was starting.
	f.WriteAt(fmt.Appendf(nil, "%d %s %s\n", os.Getpid(), time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00"), state), 0)
}
