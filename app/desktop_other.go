//go:build !linux && !darwin

package app

import "errors"

const setIconsEarly = false

// DesktopAvailable: no desktop integration here.
func DesktopAvailable() bool { return false }

func label(s string) string { return s }

// OpenPath is not supported here.
func OpenPath(string) error { return errors.New("opening files is not supported on this system") }

func notifyIcon() any { return "" }
