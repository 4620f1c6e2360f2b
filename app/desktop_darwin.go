//go:build darwin

package app

import (
	"os/exec"

	"github.com/agentjail/agentjail/assets"
)

// setIconsEarly: see runTray.
const setIconsEarly = false

// DesktopAvailable: a macOS user session always has a menu bar.
func DesktopAvailable() bool { return true }

// label: menu titles are shown as they are.
func label(s string) string { return s }

// OpenPath opens a file or folder with the default application.
func OpenPath(path string) error { return exec.Command("open", path).Start() }

// notifyIcon is AgentJail's icon, which terminal-notifier shows; the
// AppleScript fallback has no icon of its own to set.
func notifyIcon() any { return assets.AppIconPNG }
