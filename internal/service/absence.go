package service

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/wire"
)

// Absence is why nothing answers on a socket, as far as its folder, the
// socket file and the daemon's lock show. The hook reads it when it
// cannot connect, to say what happened and to choose between waiting
// for a running daemon to recreate its socket and starting one.
type Absence struct {
	// Cause is one of wire's Cause constants: CauseNoDaemon,
	// CauseSocketGone, CauseSocketFolderGone, CauseNotSocket or
	// CauseNotListening.
	Cause string
	// PID is the daemon holding the lock (as it wrote it), when one does.
	PID int
	// Held says a daemon holds the socket's lock: it is running.
	Held bool
	// Starting says that daemon has not begun to answer: it is
	// compiling its policies (its lock says wire.LockStarting).
	Starting bool
}

// ProbeSocket says why nothing answers on socket. It only looks: the
// lock is tested with a shared, non-blocking flock released at once (a
// daemon starting at that instant retries its own lock briefly).
func ProbeSocket(socket string) Absence {
	var a Absence
	var h holder
	a.Held, h = lockHeld(paths.SocketLock(socket))
	a.PID = h.pid
	a.Starting = a.Held && h.state == wire.LockStarting
	if _, err := os.Stat(filepath.Dir(socket)); errors.Is(err, fs.ErrNotExist) {
		a.Cause = wire.CauseSocketFolderGone
		return a
	}
	fi, err := os.Lstat(socket)
	switch {
	case errors.Is(err, fs.ErrNotExist) && a.Held:
		a.Cause = wire.CauseSocketGone
	case err != nil:
		a.Cause = wire.CauseNoDaemon
	case fi.Mode().Type() != fs.ModeSocket:
		a.Cause = wire.CauseNotSocket
	case a.Held:
		a.Cause = wire.CauseNotListening
	default:
		a.Cause = wire.CauseNoDaemon // a socket left by a daemon that crashed
	}
	return a
}

// holder is what the daemon holding a socket's lock wrote into it: its
// pid, its state (wire.LockStarting, wire.LockServing, or "" from an
// older daemon) and since when it has been in that state.
type holder struct {
	pid   int
	state string
	since time.Time
}

// StartedDuring reports whether the daemon serving socket is running
// and was starting at some moment since sent: it has not begun to answer
// yet, or began only after sent. A hook whose call, sent then, it has not
// answered waits for it, up to wire.StartGrace more: the call waited on
// the backlog while the daemon compiled its policies, and the daemon
// gives such a call that grace too.
func StartedDuring(socket string, sent time.Time) bool {
	held, h := lockHeld(paths.SocketLock(socket))
	if !held {
		return false
	}
	return h.state == wire.LockStarting || h.state == wire.LockServing && h.since.After(sent)
}

// Describe says in words what a says about socket.
func (a Absence) Describe(socket string) string {
	daemon := "a running agentjail daemon"
	if a.PID > 0 {
		daemon = fmt.Sprintf("the agentjail daemon (pid %d)", a.PID)
	}
	switch a.Cause {
	case wire.CauseSocketGone:
		return fmt.Sprintf("%s runs but its socket %s is gone (something removed it)", daemon, socket)
	case wire.CauseSocketFolderGone:
		if a.Held {
			return fmt.Sprintf("the socket's folder %s is gone (something removed it) while %s runs", filepath.Dir(socket), daemon)
		}
		return fmt.Sprintf("the socket's folder %s is gone (something removed it, or no agentjail daemon ever ran here)", filepath.Dir(socket))
	case wire.CauseNotSocket:
		return fmt.Sprintf("%s is not a socket (something replaced it)", socket)
	case wire.CauseNotListening:
		return fmt.Sprintf("%s runs but does not listen on %s (it is starting or stopping, or its socket was replaced)", daemon, socket)
	}
	return fmt.Sprintf("no agentjail daemon is running (nothing listens on %s)", socket)
}
