package hook

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/privatefile"
	"github.com/agentjail/agentjail/internal/service"
	"github.com/agentjail/agentjail/internal/wire"
)

// notRunning reports whether err says no daemon runs at all: no socket,
// or nothing listening on it. A daemon that is running but slow, or a
// socket that is not ours, is not that.
func notRunning(err error) bool {
	var derr *wire.DialError
	return errors.As(err, &derr) && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED))
}

// startWindow is how long one hook's start of the daemon keeps others
// from starting another: the daemon's own lock refuses a second one
// anyway, but fifty tool calls at once must not spawn fifty processes.
const startWindow = 10 * time.Second

// startDaemon starts the installed daemon, detached, unless another hook
// did so within startWindow, and returns the binary it started (or found
// being started); "" when there is none to start.
func startDaemon(opts Options) string {
	bin := opts.AutoStart
	switch bin {
	case "-":
		return ""
	case "":
		if bin = installedDaemon(); bin == "" {
			return ""
		}
	}
	if err := privatefile.Check(bin); err != nil {
		return "" // never run a binary another user could have put there
	}
	if !claimStart(paths.AutoStartMarker()) {
		return bin // another hook is starting it: just ask again
	}
	if service.StartDetached(bin, paths.Home(), paths.DaemonLog()) != nil {
		return ""
	}
	return bin
}

// installedDaemon is the agentjail installed beside this hook, when this
// hook is the installed one ($AGENTJAIL_HOME/bin): a hook run from a
// build folder or a test never starts daemons.
func installedDaemon() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	exe, err = filepath.EvalSymlinks(exe)
	if err != nil {
		return ""
	}
	binDir := filepath.Dir(paths.InstalledBin("agentjail"))
	if real, err := filepath.EvalSymlinks(binDir); err == nil {
		binDir = real
	}
	if filepath.Dir(exe) != binDir {
		return ""
	}
	return filepath.Join(filepath.Dir(exe), "agentjail")
}

// claimStart creates the marker at path, or takes it over when it is
// older than startWindow (a start that failed). It reports false only
// when another hook started the daemon within startWindow; a marker that
// cannot be written does not stop a start (the daemon's lock still
// refuses a second daemon).
func claimStart(path string) bool {
	for range 2 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|privatefile.NoFollow, 0o600)
		if err == nil {
			f.Close()
			return true
		}
		if !errors.Is(err, fs.ErrExist) {
			return true
		}
		fi, err := os.Lstat(path)
		if err != nil || time.Since(fi.ModTime()) < startWindow {
			return false
		}
		os.Remove(path) // stale; whoever recreates it first starts the daemon
	}
	return false
}

// retry asks again until the started daemon answers or ctx ends, with
// short sleeps while there is still nothing listening.
func retry(ctx context.Context, client *wire.Client, req *wire.Request) (*wire.Decision, error) {
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		dec, err := client.DecideBrief(ctx, req)
		if !notRunning(err) {
			return dec, err
		}
	}
}

// patientClient is the client this call asks the daemon through: one
// that, when no answer has come by the hook's deadline, waits up to
// wire.StartGrace more for a daemon whose lock says it is starting, or
// began to serve only after this call was sent (the call waited on its
// backlog while it compiled its policies, and is answered after it),
// rather than failing open. *waited reports that it did.
func patientClient(opts Options, start time.Time) (*wire.Client, *bool) {
	c := wire.Client{}
	if opts.Client != nil {
		c = *opts.Client
	}
	waited := new(bool)
	if c.Patience == nil {
		socket := c.SocketPath()
		c.Patience = func() time.Time {
			if !service.StartedDuring(socket, start) {
				return time.Time{} // stuck, not starting: the fail mode decides
			}
			*waited = true
			return start.Add(opts.Timeout + wire.StartGrace)
		}
	}
	return &c, waited
}

// retryStarting is retry for a daemon that is starting (this hook
// started it, or its lock says so), within patient: the hook's deadline
// plus wire.StartGrace, as patientClient waits once it listens.
func retryStarting(patient context.Context, client *wire.Client, req *wire.Request, waited *bool) (*wire.Decision, error) {
	*waited = true
	return retry(patient, client, req)
}
