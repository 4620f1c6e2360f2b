package installer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"syscall"

	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/service"
	"github.com/agentjail/agentjail/systemd"
)

// systemUnitDir is where the system unit goes; the tray's user unit goes
// to systemUserUnitDir, for every user.
var (
	systemUnitDir     = "/etc/systemd/system"
	systemUserUnitDir = "/etc/systemd/user"
)

// ensureServiceUser makes the system account name (no home, no login
// shell, a group of its own) unless it exists, and reports whether it
// made it.
func ensureServiceUser(ctx context.Context, name string) (bool, error) {
	if _, err := user.Lookup(name); err == nil {
		return false, nil
	}
	shell := "/usr/sbin/nologin"
	if _, err := os.Stat(shell); err != nil {
		shell = "/bin/false"
	}
	err := run(ctx, "useradd", "--system", "--user-group", "--no-create-home",
		"--home-dir", paths.System().State, "--shell", shell, "--comment", "agentjail system daemon", name)
	return err == nil, err
}

// removeServiceUser removes the account install made.
func removeServiceUser(ctx context.Context, name string) error {
	return run(ctx, "userdel", name)
}

// systemdRunning: systemd is this machine's init (not a container's
// plain process tree), so a system unit will be kept alive.
func systemdRunning() bool {
	fi, err := os.Stat("/run/systemd/system")
	return err == nil && fi.IsDir()
}

func systemUnitPath() string { return filepath.Join(systemUnitDir, systemd.SystemName) }

func describeSystemService(o Options) string {
	sys := paths.System()
	if systemdRunning() && o.ServiceMode != service.ModeDetached {
		return fmt.Sprintf("write %s, run `systemctl enable --now %s` (as %s), and %s for every user's tray", systemUnitPath(), systemd.SystemName, o.ServiceUser, filepath.Join(systemUserUnitDir, systemd.TrayName))
	}
	return fmt.Sprintf("start `%s run --system` detached as %s (no systemd here), logging to %s", sys.Agentjail(), o.ServiceUser, systemLogFile(sys))
}

// startSystemService registers the system unit and starts it, or, where
// systemd is not init (containers, CI), starts the daemon detached as
// the service user.
func startSystemService(ctx context.Context, o Options, uid, gid int) (string, error) {
	sys := paths.System()
	stopDetached(ServiceOptions{Socket: sys.Socket})
	if !systemdRunning() || o.ServiceMode == service.ModeDetached {
		return service.ModeDetached, startDetachedAs(sys, uid, gid)
	}
	unit := systemd.SystemUnit(systemd.SystemOptions{
		Agentjail: sys.Agentjail(), User: o.ServiceUser,
		Config: sys.Config, State: sys.State, Log: sys.Log, Run: sys.Run,
	})
	if err := writeAtomic(systemUnitPath(), []byte(unit), 0o644); err != nil {
		return ModeSystemd, err
	}
	writeAtomic(filepath.Join(systemUserUnitDir, systemd.TrayName), []byte(systemd.TrayUnit(sys.Agentjail())), 0o644)
	run(ctx, "systemctl", "--global", "enable", systemd.TrayName)
	if err := run(ctx, "systemctl", "daemon-reload"); err != nil {
		return ModeSystemd, err
	}
	if err := run(ctx, "systemctl", "enable", "--now", systemd.SystemName); err != nil {
		return ModeSystemd, err
	}
	return ModeSystemd, run(ctx, "systemctl", "restart", systemd.SystemName)
}

// stopSystemService stops and unregisters the system daemon, in any mode.
func stopSystemService(ctx context.Context) error {
	sys := paths.System()
	var err error
	if _, statErr := os.Stat(systemUnitPath()); statErr == nil {
		if systemdRunning() {
			err = run(ctx, "systemctl", "disable", "--now", systemd.SystemName)
		}
		os.Remove(systemUnitPath())
		if systemdRunning() {
			run(ctx, "systemctl", "daemon-reload")
		}
	}
	tray := filepath.Join(systemUserUnitDir, systemd.TrayName)
	if _, statErr := os.Stat(tray); statErr == nil {
		run(ctx, "systemctl", "--global", "disable", systemd.TrayName)
		os.Remove(tray)
	}
	stopDetachedAndWait(sys.Socket)
	return err
}

// startDetachedAs starts `agentjail run --system` as the service user in
// its own session, its output in the log folder, and does not wait.
func startDetachedAs(sys paths.SystemLayout, uid, gid int) error {
	logPath := systemLogFile(sys)
	log, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NOFOLLOW, 0o640)
	if err != nil {
		return err
	}
	defer log.Close()
	if err := log.Chown(uid, gid); err != nil {
		return err
	}
	cmd := exec.Command(sys.Agentjail(), "run", "--system")
	cmd.Dir = "/"
	cmd.Env = []string{"HOME=" + sys.State, "PATH=/usr/local/bin:/usr/bin:/bin", "AGENTJAIL_MODE=" + service.ModeDetached}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setsid:     true,
		Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}},
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
