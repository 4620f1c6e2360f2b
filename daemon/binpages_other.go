//go:build !linux

package daemon

// dropBinaryPages does nothing here: macOS counts a process's clean file
// pages apart from its own memory already.
func dropBinaryPages() {}
