//go:build linux

package installer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/agentjail/agentjail/systemd"
)

// systemdReachable: a systemd --user instance answers.
func systemdReachable(ctx context.Context) bool {
	return run(ctx, "systemctl", "--user", "show-environment") == nil
}

func unitPath(o ServiceOptions) string {
	return filepath.Join(userUnitDir(o.UserHome), systemd.Name)
}

func describeManaged(o ServiceOptions) (string, bool) {
	if !systemdReachable(context.Background()) {
		return "", false
	}
	return fmt.Sprintf("write %s and run `systemctl --user daemon-reload` and `enable --now %s`", unitPath(o), systemd.Name), true
}

func startManaged(ctx context.Context, o ServiceOptions) (string, bool, error) {
	if !systemdReachable(ctx) {
		return "", false, nil
	}
	stopDetached(o) // a detached daemon from an earlier install holds the socket
	if err := writeAtomic(unitPath(o), []byte(systemd.Unit(o.Agentjail, o.Home)), 0o644); err != nil {
		return ModeSystemd, true, err
	}
	if err := run(ctx, "systemctl", "--user", "daemon-reload"); err != nil {
		return ModeSystemd, true, err
	}
	if err := run(ctx, "systemctl", "--user", "enable", "--now", systemd.Name); err != nil {
		return ModeSystemd, true, err
	}
	// On an upgrade the unit was already running the old binary.
	return ModeSystemd, true, run(ctx, "systemctl", "--user", "restart", systemd.Name)
}

func stopManaged(ctx context.Context, o ServiceOptions) error {
	path := unitPath(o)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if systemdReachable(ctx) {
		run(ctx, "systemctl", "--user", "disable", "--now", systemd.Name)
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	if systemdReachable(ctx) {
		return run(ctx, "systemctl", "--user", "daemon-reload")
	}
	return nil
}

// holdsLock reads /proc/locks, where the kernel lists every flock with
// the pid that took it and the file's inode: pid holds lockPath's lock
// when a FLOCK line names both.
func holdsLock(lockPath string, pid int) (bool, error) {
	fi, err := os.Stat(lockPath)
	if err != nil {
		return false, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false, fmt.Errorf("no inode for %s", lockPath)
	}
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		return false, fmt.Errorf("reading /proc/locks to see who holds %s: %w", lockPath, err)
	}
	ino := ":" + strconv.FormatUint(st.Ino, 10)
	want := strconv.Itoa(pid)
	for _, line := range strings.Split(string(b), "\n") {
		// "1: FLOCK  ADVISORY  WRITE 14572 fe:00:9981659 0 EOF"; a waiter
		// has "->" after the number and holds nothing.
		f := strings.Fields(line)
		if len(f) >= 6 && f[1] == "FLOCK" && f[4] == want && strings.HasSuffix(f[5], ino) {
			return true, nil
		}
	}
	return false, nil
}

// isAgentjailDaemon checks /proc/PID: the process is ours and runs
// `agentjail run`.
func isAgentjailDaemon(pid int) error {
	dir := "/proc/" + strconv.Itoa(pid)
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	// Root stops the system daemon, which runs as its service user.
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || (int(st.Uid) != os.Getuid() && os.Getuid() != 0) {
		return fmt.Errorf("pid %d is not yours", pid)
	}
	exe, err := os.Readlink(dir + "/exe")
	if err != nil {
		return err
	}
	cmdline, err := os.ReadFile(dir + "/cmdline")
	if err != nil {
		return err
	}
	args := strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00")
	if !isDaemonCommand(exe, args) {
		return fmt.Errorf("pid %d runs %s %q, not `agentjail run`", pid, exe, args)
	}
	return nil
}
