//go:build linux

package app

import (
	"os"
	"os/exec"
	"strings"

	"github.com/godbus/dbus/v5"
)

// setIconsEarly: see runTray.
const setIconsEarly = true

// DesktopAvailable probes the session bus: without one the tray would do
// nothing (and fyne.io/systray panics on Quit), so `agentjail run` runs
// headless.
func DesktopAvailable() bool {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return false
	}
	conn, err := dbus.ConnectSessionBus()
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
