//go:build !linux && !(darwin && cgo)

package app

import "context"

// TrayBuilt: this build has no tray (a macOS build without cgo, other
// systems).
const TrayBuilt = false

// runTray says so loudly, once, at start: on macOS the menu bar is the
// product, and a build without it looks like an app that does nothing.
func runTray(_ context.Context, t *Tray) error {
	if t.opts.Log != nil {
		t.opts.Log.Error("NO MENU BAR: this agentjail was built without cgo, so it has no tray; " +
			"decisions and notifications still work. To get the menu bar, build on a Mac with Xcode's command-line tools " +
			"(xcode-select --install), then: make install")
	}
	return ErrNoTray
}
