package wire

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// The detached daemon, as both `agentjail install` (where no service
// manager is reachable) and the hook (when it finds no daemon at all)
// start it: `agentjail run --headless` in a session of its own, with
// AGENTJAIL_MODE=detached so status names the mode, logging to
// DaemonLogPath.
var DetachedArgs = []string{"run", "--headless"}

// ModeDetached is AGENTJAIL_MODE's value for a detached daemon.
const ModeDetached = "detached"

// The service names install registers, for advice the hook gives
// without linking the installer (a test keeps them equal to
// systemd.Name and launchd.Label).
const (
	SystemdUnit  = "agentjail.service"
	LaunchdLabel = "dev.agentjail.agent"
)

// AutoStartMarker is the file a hook creates when it starts the daemon,
// so that hooks arriving at the same time do not start more; the daemon
// removes it once it serves, so the next hook to find none starts one.
func AutoStartMarker() string { return filepath.Join(Home(), "autostart") }

// DaemonLogPath is the detached daemon's log.
func DaemonLogPath() string { return filepath.Join(Home(), "agentjail.log") }

// InstalledBin is where install puts one of agentjail's binaries.
func InstalledBin(name string) string { return filepath.Join(Home(), "bin", name) }

// StartAdvice says what starts the daemon again on this machine: the
// service manager install registered it with, install itself for a
// detached daemon, or, where agentjail was never installed, that it is
// not installed. `agentjail run` alone is never the advice: it is a
// foreground process that dies with its terminal.
func StartAdvice() string { return StartAdviceFor(SocketPath()) }

// StartAdviceFor is StartAdvice for the daemon on socket: the system
// daemon's is the administrator's to start (systemStartAdvice).
func StartAdviceFor(socket string) string {
	if isSystemSocket(socket) {
		return systemStartAdvice
	}
	bin := InstalledBin("agentjail")
	if _, err := os.Stat(bin); err != nil {
		return fmt.Sprintf("agentjail is not installed here (no %s): install it with `agentjail install` (from a checkout: `make install`); `agentjail run` in a terminal guards only while that terminal lives", bin)
	}
	if home, err := os.UserHomeDir(); err == nil {
		if _, err := os.Stat(filepath.Join(home, ".config", "systemd", "user", SystemdUnit)); err == nil {
			return "start it with `systemctl --user start agentjail` (or run `agentjail install` again)"
		}
		if _, err := os.Stat(filepath.Join(home, "Library", "LaunchAgents", LaunchdLabel+".plist")); err == nil {
			return fmt.Sprintf("start it with `launchctl kickstart gui/%s/%s` (or run `agentjail install` again)", strconv.Itoa(os.Getuid()), LaunchdLabel)
		}
	}
	return "start it with `agentjail install` (it runs the daemon detached; the installed hook also starts it by itself when it finds none)"
}
