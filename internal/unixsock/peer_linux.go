//go:build linux

package unixsock

import "syscall"

// peerUID reads SO_PEERCRED: the uid the server had when it listened.
func peerUID(fd int) (int, error) {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}
