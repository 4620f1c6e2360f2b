// Package service is what agentjail knows of its daemon as a service
// outside a terminal: the service names install registers, how the
// detached daemon is started, why nothing answers on a socket, and what
// starts the daemon again. It imports only the standard library and
// packages that do, because the hook links it.
package service

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/agentjail/agentjail/internal/paths"
)

// The detached daemon, as both `agentjail install` (where no service
// manager is reachable) and the hook (when it finds no daemon at all)
// start it: `agentjail run --headless` in a session of its own, with
// AGENTJAIL_MODE=detached so status names the mode, logging to
// paths.DaemonLog.
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

// StartAdvice says what starts the daemon again on this machine: the
// service manager install registered it with, install itself for a
// detached daemon, or, where agentjail was never installed, that it is
// not installed. `agentjail run` alone is never the advice: it is a
// foreground process that dies with its terminal.
func StartAdvice() string { return StartAdviceFor(paths.Socket()) }

// StartAdviceFor is StartAdvice for the daemon on socket: the system
// daemon's is the administrator's to start (systemStartAdvice).
func StartAdviceFor(socket string) string {
	if paths.IsSystemSocket(socket) {
		return systemStartAdvice
	}
	bin := paths.InstalledBin("agentjail")
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
