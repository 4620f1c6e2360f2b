// Package paths names every file and folder agentjail uses. Everything
// lives under one home ($AGENTJAIL_HOME, default ~/.agentjail) so a test or
// a second install can point the whole program at a throwaway folder.
// It imports only the standard library: the hook links it.
package paths

import (
	"os"
	"path/filepath"
)

// SocketLock is the lock the running daemon holds for socket, so that a
// second daemon on the same socket refuses to start, and the hook and
// status can tell a daemon whose socket is gone from none at all.
func SocketLock(socket string) string { return socket + ".lock" }

// HookState is the daemon's state file for the hook (see
// internal/hookstate), in Home.
func HookState() string { return filepath.Join(Home(), "hook.json") }

// AutoStartMarker is the file a hook creates when it starts the daemon,
// so that hooks arriving at the same time do not start more; the daemon
// removes it once it serves, so the next hook to find none starts one.
func AutoStartMarker() string { return filepath.Join(Home(), "autostart") }

// DaemonLog is the detached daemon's log.
func DaemonLog() string { return filepath.Join(Home(), "agentjail.log") }

// InstalledBin is where install puts one of agentjail's binaries.
func InstalledBin(name string) string { return filepath.Join(Home(), "bin", name) }

// Config is the user's config.yaml.
func Config() string { return filepath.Join(Home(), "config.yaml") }

// Policies is the folder of the user's own Rego, loaded beside the pack.
func Policies() string { return filepath.Join(Home(), "policies") }

// UserHome is the user's home directory, or "" when it cannot be found.
func UserHome() string {
	h, _ := os.UserHomeDir()
	return h
}
