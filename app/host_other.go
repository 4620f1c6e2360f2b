//go:build !linux

package app

import "context"

// watchHost: outside Linux a built tray is always shown (the macOS menu
// bar), so there is no host to watch.
func (t *Tray) watchHost(context.Context) {}
