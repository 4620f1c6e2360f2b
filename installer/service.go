package installer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/service"
	"github.com/agentjail/agentjail/internal/wire"
)

// Service modes, as `agentjail status` names them (and
// service.ModeDetached, the one the hook starts too).
const (
	ModeLaunchd = "launchd"
	ModeSystemd = "systemd"
)

// ServiceOptions say what to run and where.
type ServiceOptions struct {
	Agentjail string // the installed agentjail binary
	Home      string // $AGENTJAIL_HOME
	UserHome  string // the user's home directory
	Socket    string // the daemon's socket
	Log       string // the daemon's log file
	// Mode forces a mode; "" picks launchd or systemd where reachable and
	// detached otherwise. AGENTJAIL_SERVICE=detached sets it too.
	Mode string
}

// DetachedNote is what install tells a user whose daemon runs detached.
const DetachedNote = `  detached: no service manager (launchd, systemd --user) is reachable here, so
  nothing restarts the daemon after a reboot, a logout or a crash. The
  installed hook starts it again by itself when it finds none running; the
  call that starts it is checked if the daemon is up within the hook's
  timeout, else it goes by fail_mode. Check it with ` + "`agentjail status`" + `.
`

// StartService registers the daemon with the service manager (or starts
// it detached where there is none), replacing a running one, and returns
// the mode it used. DescribeService says what it would do.
func StartService(ctx context.Context, o ServiceOptions) (string, error) {
	if o.Mode != service.ModeDetached {
		if mode, ok, err := startManaged(ctx, o); ok {
			return mode, err
		}
	}
	stopDetached(o)
	return service.ModeDetached, startDetached(o)
}

// StopService stops the daemon and unregisters it, in any mode.
func StopService(ctx context.Context, o ServiceOptions) error {
	err := stopManaged(ctx, o)
	stopDetached(o)
	return err
}

// DescribeService is what StartService would do, for --dry-run.
func DescribeService(o ServiceOptions) string {
	if o.Mode != service.ModeDetached {
		if d, ok := describeManaged(o); ok {
			return d
		}
	}
	return fmt.Sprintf("start `%s run --headless` detached (no service manager reachable), logging to %s", o.Agentjail, o.Log)
}

// startDetached starts `agentjail run --headless` in its own session,
// logging to o.Log, and returns without waiting for it. The hook starts
// it the same way when it finds no daemon (service.StartDetached).
func startDetached(o ServiceOptions) error {
	return service.StartDetached(o.Agentjail, o.Home, o.Log)
}

// stopDetached stops a daemon that holds the socket lock, if any, and
// waits (briefly) for it to go. The pid in the lock file is only a hint:
// a daemon that crashed leaves it behind, and the pid may since belong
// to any process. It is signalled only when it is ours, holds the lock
// now and is an agentjail daemon (see checkDaemon).
func stopDetached(o ServiceOptions) {
	pid := lockHolder(o.Socket)
	if pid <= 0 || pid == os.Getpid() {
		return
	}
	if checkDaemon(paths.SocketLock(o.Socket), pid) != nil {
		return
	}
	if syscall.Kill(pid, syscall.SIGTERM) != nil {
		return
	}
	// The daemon releases its lock as it stops. (Waiting for the process
	// itself would wait for init to reap it.)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if lockFree(paths.SocketLock(o.Socket)) || syscall.Kill(pid, 0) != nil {
			return
		}
	}
}

// checkDaemon says why pid must not be signalled as the daemon holding
// the lock at lockPath, or nil when it may.
func checkDaemon(lockPath string, pid int) error {
	if lockFree(lockPath) {
		return fmt.Errorf("no process holds %s: the pid in it is stale", lockPath)
	}
	holds, err := holdsLock(lockPath, pid)
	if err != nil {
		return err
	}
	if !holds {
		return fmt.Errorf("pid %d does not hold %s", pid, lockPath)
	}
	return isAgentjailDaemon(pid)
}

// daemonName is the executable a daemon runs as: `agentjail run`.
const daemonName = "agentjail"

// isDaemonCommand reports whether an executable path and its arguments
// are `agentjail run ...`. An upgrade may have replaced the binary under
// a running daemon (Linux then calls it "PATH (deleted)"), and a package
// manager may link agentjail to a versioned file, so argv[0] counts too.
func isDaemonCommand(exe string, args []string) bool {
	if len(args) < 2 || args[1] != "run" {
		return false
	}
	exe = strings.TrimSuffix(exe, " (deleted)")
	return filepath.Base(exe) == daemonName || filepath.Base(args[0]) == daemonName
}

// lockFree reports whether no daemon holds the socket lock.
func lockFree(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return true
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return true
}

// lockHolder reads the pid the daemon wrote into its socket lock file.
func lockHolder(socket string) int {
	b, err := os.ReadFile(paths.SocketLock(socket))
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return 0
	}
	pid, _ := strconv.Atoi(fields[0])
	return pid
}

// WaitReady waits until the daemon answers on its socket.
func WaitReady(ctx context.Context, socket string, within time.Duration) (*wire.Status, error) {
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	client := &wire.Client{Socket: socket}
	for {
		attempt, stop := context.WithTimeout(ctx, 500*time.Millisecond)
		st, err := client.Status(attempt)
		stop()
		if err == nil {
			return st, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the daemon did not answer on %s within %v: %w", socket, within, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func run(ctx context.Context, name string, args ...string) error {
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

func userUnitDir(userHome string) string {
	return filepath.Join(userHome, ".config", "systemd", "user")
}
