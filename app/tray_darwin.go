//go:build darwin && cgo

package app

import "fyne.io/systray"

// setTrayIcon shows a state's icon as a template image: macOS draws it
// black on a light menu bar and white on a dark one.
func setTrayIcon(state string) {
	systray.SetTemplateIcon(templateIcon(state), templateIcon(state))
}
