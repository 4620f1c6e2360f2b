//go:build unix

package unixsock

import (
	"context"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
)

// Dial connects to the daemon's socket with a plain blocking socket
// whose reads and writes are bounded by SO_RCVTIMEO/SO_SNDTIMEO set to
// ctx's deadline (none without one; the caller then ends the connection
// if ctx is cancelled). The hook makes exactly one call per process;
// with a blocking descriptor the kernel wakes the one waiting thread
// directly instead of going through Go's netpoller and scheduler, which
// saves the hook several thread wake-ups per call, and package net is
// not linked at all.
//
// Before it sends anything it checks that the server is the user's own
// (see checkFolder and checkPeer): one stat and one getsockopt.
func Dial(ctx context.Context, socket string) (Conn, error) {
	return dial(ctx, socket, socket)
}

// DialPerson connects to the person channel of the daemon serving socket
// (see PersonAddress), with the same checks of the daemon as Dial.
func DialPerson(ctx context.Context, socket string) (Conn, error) {
	address := PersonAddress(socket)
	if address == "" {
		return Dial(ctx, socket)
	}
	return dial(ctx, socket, address)
}

// dial connects to address, a socket of the daemon that serves socket.
func dial(ctx context.Context, socket, address string) (Conn, error) {
	system := paths.IsSystemSocket(socket)
	owner := -1
	var err error
	if system {
		owner, err = checkSystemFolder(socket)
	} else {
		err = checkFolder(socket)
	}
	if err != nil {
		return nil, err
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	syscall.CloseOnExec(fd)
	c := &blockingConn{fd: fd}
	if deadline, ok := ctx.Deadline(); ok {
		if err := c.SetDeadline(deadline); err != nil {
			c.Close()
			return nil, err
		}
	}
	for {
		err = syscall.Connect(fd, &syscall.SockaddrUnix{Name: address})
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		c.Close()
		if err == syscall.EAGAIN || err == syscall.EWOULDBLOCK {
			return nil, errTimeout
		}
		return nil, os.NewSyscallError("connect", err)
	}
	if system {
		err = checkSystemPeer(socket, fd, owner)
	} else {
		err = checkPeer(socket, fd)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

type blockingConn struct {
	fd int
	// mu orders Close and an expiry from another goroutine, so that a
	// shutdown never reaches a descriptor number already reused.
	mu      sync.Mutex
	closed  bool
	expired atomic.Bool // a past deadline ended the connection
}

// timeoutError is what a read or write past the deadline returns; it
// satisfies net.Error's Timeout like the netpoller's error does.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

var errTimeout error = timeoutError{}

func (c *blockingConn) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(c.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN || err == syscall.EWOULDBLOCK || c.expired.Load():
			return 0, errTimeout
		case err != nil:
			return 0, os.NewSyscallError("read", err)
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (c *blockingConn) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		n, err := syscall.Write(c.fd, p[written:])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN || err == syscall.EWOULDBLOCK || err != nil && c.expired.Load():
			return written, errTimeout
		case err != nil:
			return written, os.NewSyscallError("write", err)
		}
		written += n
	}
	return written, nil
}

func (c *blockingConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return os.ErrClosed
	}
	c.closed = true
	return syscall.Close(c.fd)
}

// SetDeadline bounds every later read and write to the time left until t.
// A t already past ends the connection at once, as on a net.Conn: a read
// or write under way, or any later one, fails with a timeout.
func (c *blockingConn) SetDeadline(t time.Time) error {
	var tv syscall.Timeval
	if !t.IsZero() {
		left := time.Until(t)
		if left <= 0 {
			c.expire()
			return errTimeout
		}
		tv = syscall.NsecToTimeval(left.Nanoseconds())
		if tv.Sec == 0 && tv.Usec == 0 {
			tv.Usec = 1 // zero would mean "no timeout"
		}
	}
	for _, opt := range []int{syscall.SO_RCVTIMEO, syscall.SO_SNDTIMEO} {
		if err := syscall.SetsockoptTimeval(c.fd, syscall.SOL_SOCKET, opt, &tv); err != nil {
			return os.NewSyscallError("setsockopt", err)
		}
	}
	return nil
}

// expire shuts the socket down, which wakes a read or write blocked on it.
func (c *blockingConn) expire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.expired.Store(true)
	if !c.closed {
		syscall.Shutdown(c.fd, syscall.SHUT_RDWR)
	}
}
