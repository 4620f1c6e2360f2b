//go:build linux

package app

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// setIconsEarly: see runTray.
const setIconsEarly = true

// BusProbeTimeout bounds the session bus probe: `agentjail run` probes
// before it listens, so a bus that accepts and never answers (a stale
// address, a wedged bus) must not keep the daemon from serving.
const BusProbeTimeout = 2 * time.Second

// DesktopAvailable probes the session bus: without one the tray would do
// nothing (and fyne.io/systray panics on Quit), so `agentjail run` runs
// headless. A bus that does not finish the handshake within
// BusProbeTimeout counts as none.
func DesktopAvailable() bool {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return false
	}
	// The context is the connection's life: when it ends the connection
	// is closed, which ends a handshake still waiting.
	ctx, cancel := context.WithTimeout(context.Background(), BusProbeTimeout)
	defer cancel()
	conn, err := dbus.ConnectSessionBus(dbus.WithContext(ctx))
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// label escapes a menu title for dbusmenu, where "_" marks an access key
// (the panel would show git.force_push as git.forcepush).
func label(s string) string { return strings.ReplaceAll(s, "_", "__") }

// OpenPath opens a file or folder with the desktop's default application.
func OpenPath(path string) error { return exec.Command("xdg-open", path).Start() }

// notifyIcon: the desktop's default (the notification names agentjail).
func notifyIcon() any { return "" }
