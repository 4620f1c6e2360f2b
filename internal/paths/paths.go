// Package paths names every file and folder agentjail uses. Everything
// lives under one home ($AGENTJAIL_HOME, default ~/.agentjail) so a test or
// a second install can point the whole program at a throwaway folder.
package paths

import (
	"os"
	"path/filepath"

	"github.com/agentjail/agentjail/internal/wire"
)

// Home is $AGENTJAIL_HOME, or ~/.agentjail.
func Home() string { return wire.Home() }

// Socket is the daemon's Unix socket ($AGENTJAIL_SOCKET overrides it).
func Socket() string { return wire.SocketPath() }

// SocketLock is held by the running daemon, so a second one on the same
// socket can tell and refuse to start.
func SocketLock(socket string) string { return wire.SocketLockPath(socket) }

// FailLog is the hook's record of calls it could not check.
func FailLog() string { return wire.FailLogPath() }

// Config is the user's config.yaml.
func Config() string { return filepath.Join(Home(), "config.yaml") }

// Policies is the folder of the user's own Rego, loaded beside the pack.
func Policies() string { return filepath.Join(Home(), "policies") }

// UserHome is the user's home directory, or "" when it cannot be found.
func UserHome() string {
	h, _ := os.UserHomeDir()
	return h
}
