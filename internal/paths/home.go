package paths

import (
	"os"
	"path/filepath"
	"strconv"
)

// HomeName is agentjail's folder in a user's home, where
// $AGENTJAIL_HOME is unset.
const HomeName = ".agentjail"

// Home is $AGENTJAIL_HOME, or ~/.agentjail.
func Home() string {
	if h := os.Getenv("AGENTJAIL_HOME"); h != "" {
		return filepath.Clean(h)
	}
	home, err := os.UserHomeDir()
	if err == nil {
		return filepath.Join(home, HomeName)
	}
	return fallbackHome()
}

// fallbackHome is the home when HOME is unset. XDG_RUNTIME_DIR comes
// first: the login manager creates it for this user alone (0700), so no
// other user can have made an agentjail folder in it beforehand. Without
// it, a per-user folder in the temp folder is the last resort; another
// user could create that name first in a shared /tmp, so the daemon
// refuses a folder there that is not its user's own (or is their symlink)
// and the hook refuses a socket in it (see checkFolder): they fail safe,
// and say why, rather than use it.
func fallbackHome() string {
	if rt := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		return filepath.Join(rt, "agentjail")
	}
	return filepath.Join(os.TempDir(), "agentjail-"+strconv.Itoa(os.Getuid()))
}

// Socket is the daemon's Unix socket: $AGENTJAIL_SOCKET, or
// agentjail.sock in Home.
func Socket() string {
	if s := os.Getenv("AGENTJAIL_SOCKET"); s != "" {
		return filepath.Clean(s)
	}
	return filepath.Join(Home(), SocketName)
}

// FailLog is where the hook records every call it could not have
// checked (daemon unreachable, too slow, bad input), one JSON line each,
// so `agentjail status` can count fail-opens even while the daemon is down.
func FailLog() string {
	return filepath.Join(Home(), FailLogName)
}
