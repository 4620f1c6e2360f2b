package wire

import (
	"os"
	"path/filepath"
	"strconv"
)

// The hook links nothing but the standard library and this package, so
// the few locations it shares with the daemon are defined here;
// internal/paths re-exports them beside every other path.

// Home is $AGENTJAIL_HOME, or ~/.agentjail.
func Home() string {
	if h := os.Getenv("AGENTJAIL_HOME"); h != "" {
		return filepath.Clean(h)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		// No HOME: fall back to a per-user path that is still private.
		return filepath.Join(os.TempDir(), "agentjail-"+strconv.Itoa(os.Getuid()))
	}
	return filepath.Join(home, ".agentjail")
}

// SocketPath is $AGENTJAIL_SOCKET, or agentjail.sock in Home.
func SocketPath() string {
	if s := os.Getenv("AGENTJAIL_SOCKET"); s != "" {
		return filepath.Clean(s)
	}
	return filepath.Join(Home(), "agentjail.sock")
}

// FailLogPath is where the hook records every call it could not have
// checked (daemon unreachable, too slow, bad input), one JSON line each,
// so `agentjail status` can count fail-opens even while the daemon is down.
func FailLogPath() string {
	return filepath.Join(Home(), "hook-failures.jsonl")
}
