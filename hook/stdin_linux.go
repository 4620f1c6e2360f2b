//go:build linux

package hook

import "syscall"

// selectRead is select(2) on the read set only.
func selectRead(nfd int, set *syscall.FdSet, tv *syscall.Timeval) error {
	_, err := syscall.Select(nfd, set, nil, nil, tv)
	return err
}
