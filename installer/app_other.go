//go:build !darwin

package installer

import "io"

// The app bundle is macOS's: elsewhere install writes none.
func installApp(Options, io.Writer) error { return nil }

func uninstallApp(Options, io.Writer) error { return nil }
