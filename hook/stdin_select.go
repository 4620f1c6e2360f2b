//go:build linux || darwin

package hook

import (
	"syscall"
	"time"
	"unsafe"
)

// fdSetBits is how many descriptors a syscall.FdSet word holds.
const fdSetBits = 8 * int(unsafe.Sizeof(syscall.FdSet{}.Bits[0]))

// canWait reports whether waitReadable can wait on fd: select(2) takes
// descriptors below FD_SETSIZE.
func canWait(fd int) bool {
	return fd >= 0 && fd < len(syscall.FdSet{}.Bits)*fdSetBits
}

// waitReadable waits until fd has data or EOF to read, for at most
// timeout; it reports false when the time ran out first.
func waitReadable(fd int, timeout time.Duration) (bool, error) {
	word, bit := fd/fdSetBits, uint(fd%fdSetBits)
	for timeout > 0 {
		var set syscall.FdSet
		set.Bits[word] |= 1 << bit
		tv := syscall.NsecToTimeval(timeout.Nanoseconds())
		started := time.Now()
		switch err := selectRead(fd+1, &set, &tv); err {
		case nil:
			return set.Bits[word]&(1<<bit) != 0, nil
		case syscall.EINTR:
			timeout -= time.Since(started)
		default:
			return false, err
		}
	}
	return false, nil
}

// readOnce is one read(2) of fd, retried on EINTR. again is true when a
// non-blocking stdin had nothing after all (select can say readable
// early); nothing was read then.
func readOnce(fd int, p []byte) (n int, again bool, err error) {
	for {
		n, err := syscall.Read(fd, p)
		switch err {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return 0, true, nil
		}
		return n, false, err
	}
}
