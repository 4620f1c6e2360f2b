// Package paths names every file and folder agentjail uses. Everything
// lives under one home ($AGENTJAIL_HOME, default ~/.agentjail) so a test or
// a second install can point the whole program at a throwaway folder.
// It imports only the standard library: the hook links it.
package paths

import (
	"os"
	"path/filepath"
)

// The files in an agentjail home, by name: the functions here join
// them to Home(), and the daemon, which is given its home, joins them to
// that.
const (
	SocketName      = "agentjail.sock"
	FailLogName     = "hook-failures.jsonl"
	HookStateName   = "hook.json"
	AutoStartName   = "autostart"
	DaemonLogName   = "agentjail.log"
	DecisionLogName = "decisions.jsonl"
	ConfigName      = "config.yaml"
	PoliciesName    = "policies"
	BinName         = "bin"
)

// SocketLock is the lock the running daemon holds for socket, so that a
// second daemon on the same socket refuses to start, and the hook and
// status can tell a daemon whose socket is gone from none at all.
func SocketLock(socket string) string { return socket + ".lock" }

// HookState is the daemon's state file for the hook (see
// internal/hookstate), in Home.
func HookState() string { return filepath.Join(Home(), HookStateName) }

// AutoStartMarker is the file a hook creates when it starts the daemon,
// so that hooks arriving at the same time do not start more; the daemon
// removes it once it serves, so the next hook to find none starts one.
func AutoStartMarker() string { return filepath.Join(Home(), AutoStartName) }

// DaemonLog is the detached daemon's log.
func DaemonLog() string { return filepath.Join(Home(), DaemonLogName) }

// InstalledBin is where install puts one of agentjail's binaries.
func InstalledBin(name string) string { return filepath.Join(Home(), BinName, name) }

// DecisionLog is the daemon's decision log.
func DecisionLog() string { return filepath.Join(Home(), DecisionLogName) }

// Config is the user's config.yaml.
func Config() string { return filepath.Join(Home(), ConfigName) }

// Policies is the folder of the user's own Rego, loaded beside the pack.
func Policies() string { return filepath.Join(Home(), PoliciesName) }

// UserHome is the user's home directory, or "" when it cannot be found.
func UserHome() string {
	h, _ := os.UserHomeDir()
	return h
}
