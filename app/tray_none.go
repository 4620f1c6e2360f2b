//go:build !linux && !(darwin && cgo)

package app

import "context"

// No tray in this build (a macOS build without cgo, other systems).
func runTray(context.Context, *Tray) error { return ErrNoTray }
