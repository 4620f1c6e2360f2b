//go:build darwin

package installer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/agentjail/agentjail/launchd"
)

func plistPath(o ServiceOptions) string { return launchAgentPath(o.UserHome) }

func guiDomain() string { return "gui/" + strconv.Itoa(os.Getuid()) }

// launchdReachable: the user's GUI domain exists (not over plain ssh).
func launchdReachable(ctx context.Context) bool {
	return run(ctx, "launchctl", "print", guiDomain()) == nil
}

func describeManaged(o ServiceOptions) (string, bool) {
	if !launchdReachable(context.Background()) {
		return "", false
	}
	return fmt.Sprintf("write %s and load it with `launchctl bootstrap %s` (it runs %s)", plistPath(o), guiDomain(), AppExecutable(AppPath(o.UserHome))), true
}

func startManaged(ctx context.Context, o ServiceOptions) (string, bool, error) {
	if !launchdReachable(ctx) {
		return "", false, nil
	}
	stopDetached(o)
	data, err := launchd.Plist(launchAgent(o))
	if err != nil {
		return ModeLaunchd, true, err
	}
	if err := writeAtomic(plistPath(o), data, 0o644); err != nil {
		return ModeLaunchd, true, err
	}
	// Re-install: unload the old agent first; an error means none was loaded.
	run(ctx, "launchctl", "bootout", guiDomain()+"/"+launchd.Label)
	return ModeLaunchd, true, run(ctx, "launchctl", "bootstrap", guiDomain(), plistPath(o))
}

func stopManaged(ctx context.Context, o ServiceOptions) error {
	path := plistPath(o)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	run(ctx, "launchctl", "bootout", guiDomain()+"/"+launchd.Label)
	return os.Remove(path)
}

// holdsLock cannot name the holder of a flock on macOS without lsof; the
// caller has seen the lock held, and isAgentjailDaemon checks the pid.
func holdsLock(string, int) (bool, error) { return true, nil }

// isAgentjailDaemon asks ps: the process is ours and runs `agentjail run`.
func isAgentjailDaemon(pid int) error {
	p := strconv.Itoa(pid)
	uidOut, err := exec.Command("ps", "-p", p, "-o", "uid=").Output()
	if err != nil {
		return fmt.Errorf("pid %d: %w", pid, err)
	}
	if strings.TrimSpace(string(uidOut)) != strconv.Itoa(os.Getuid()) {
		return fmt.Errorf("pid %d is not yours", pid)
	}
	comm, err := exec.Command("ps", "-p", p, "-o", "comm=").Output()
	if err != nil {
		return fmt.Errorf("pid %d: %w", pid, err)
	}
	args, err := exec.Command("ps", "-p", p, "-o", "args=").Output()
	if err != nil {
		return fmt.Errorf("pid %d: %w", pid, err)
	}
	exe := strings.TrimSpace(string(comm))
	// args is argv joined by spaces; argv[0] may itself hold spaces (a
	// home folder named "John Smith"), so it is cut off by comm's length.
	rest := strings.TrimPrefix(strings.TrimSpace(string(args)), exe)
	if !isDaemonCommand(exe, append([]string{exe}, strings.Fields(rest)...)) {
		return fmt.Errorf("pid %d runs %q, not `agentjail run`", pid, strings.TrimSpace(string(args)))
	}
	return nil
}
