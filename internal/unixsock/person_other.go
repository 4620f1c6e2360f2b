//go:build !linux

package unixsock

// PersonAddress is "": only Linux has abstract sockets, so approvals are
// answered on the daemon's socket itself.
func PersonAddress(string) string { return "" }
