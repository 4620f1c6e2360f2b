//go:build unix

package policyset

import "golang.org/x/sys/unix"

// processGroup is this process's group and session.
func processGroup() (pgid, sid int) {
	sid, err := unix.Getsid(0)
	if err != nil {
		sid = 0
	}
	return unix.Getpgrp(), sid
}
