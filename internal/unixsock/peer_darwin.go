//go:build darwin

package unixsock

import (
	"syscall"
	"unsafe"
)

// xucred is struct xucred from <sys/ucred.h>, what LOCAL_PEERCRED fills.
type xucred struct {
	Version uint32
	UID     uint32
	NGroups int16
	_       int16
	Groups  [16]uint32
}

const (
	solLocal      = 0 // SOL_LOCAL
	localPeercred = 1 // LOCAL_PEERCRED, what getpeereid(3) reads
	xucredVersion = 0 // XUCRED_VERSION
)

// peerUID reads LOCAL_PEERCRED with a raw getsockopt: the hook links the
// standard library only, whose syscall package has no xucred.
func peerUID(fd int) (int, error) {
	var cred xucred
	n := uint32(unsafe.Sizeof(cred))
	_, _, errno := syscall.Syscall6(syscall.SYS_GETSOCKOPT, uintptr(fd), solLocal, localPeercred,
		uintptr(unsafe.Pointer(&cred)), uintptr(unsafe.Pointer(&n)), 0)
	if errno != 0 {
		return -1, errno
	}
	if cred.Version != xucredVersion {
		return -1, syscall.EINVAL
	}
	return int(cred.UID), nil
}
