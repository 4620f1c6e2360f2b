//go:build linux

package app

import "fyne.io/systray"

// setTrayIcon shows a state's icon; see panelIcon.
func setTrayIcon(state string) { systray.SetIcon(panelIcon(state)) }
