package cli

import (
	"os"
	"syscall"

	"github.com/agentjail/agentjail/installer"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/wire"
)

// systemMode says the system daemon (`sudo agentjail install --system`)
// serves this machine, so status, try, reload, logs and the tray talk to
// it: install --system's record is there and root's, and neither
// AGENTJAIL_SOCKET nor AGENTJAIL_HOME points this command at a daemon of
// the user's own. A variable, so tests can choose.
var systemMode = func() bool {
	if os.Getenv("AGENTJAIL_SOCKET") != "" || os.Getenv("AGENTJAIL_HOME") != "" {
		return false
	}
	fi, err := os.Lstat(paths.System().Record)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == 0
}

// clientSocket is the socket the client commands ask.
func clientSocket() string {
	if systemMode() {
		return paths.SystemSocket()
	}
	return paths.Socket()
}

// newClient is a client of the daemon in force.
func newClient() *wire.Client { return &wire.Client{Socket: clientSocket()} }

// systemAgentOptions are the installer's options for checking the
// agents' machine-wide hooks in system mode, against what a system
// install writes from /etc/agentjail/config.yaml.
func systemAgentOptions() installer.Options {
	sys := paths.System()
	o := installer.Options{System: true, Home: sys.Config, UserHome: paths.UserHome(), Socket: sys.Socket}
	return withConfig(o, systemHookConfig())
}
