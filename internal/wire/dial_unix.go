//go:build unix

package wire

import (
	"context"
	"io"
	"net"
	"os"
	"syscall"
	"time"
)

// dialBlocking connects with a plain blocking socket whose reads and
// writes are bounded by SO_RCVTIMEO/SO_SNDTIMEO. The hook makes exactly
// one call per process; with a blocking descriptor the kernel wakes the
// one waiting thread directly instead of going through Go's netpoller and
// scheduler, which saves the hook several thread wake-ups per call.
//
// Before it sends anything it checks that the server is the user's own
// (see checkFolder and checkPeer): one stat and one getsockopt.
func dialBlocking(socket string, deadline time.Time) (Conn, error) {
	if err := checkFolder(socket); err != nil {
		return nil, err
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	syscall.CloseOnExec(fd)
	c := &blockingConn{fd: fd}
	if err := c.SetDeadline(deadline); err != nil {
		c.Close()
		return nil, err
	}
	for {
		err = syscall.Connect(fd, &syscall.SockaddrUnix{Name: socket})
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
	if err := checkPeer(socket, fd); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// dialNetpoll connects through Go's netpoller (no deadline to bound a
// blocking socket) with the same checks as dialBlocking.
func dialNetpoll(ctx context.Context, socket string) (Conn, error) {
	if err := checkFolder(socket); err != nil {
		return nil, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return nil, err
	}
	raw, err := conn.(*net.UnixConn).SyscallConn()
	if err != nil {
		conn.Close()
		return nil, err
	}
	var peerErr error
	if err := raw.Control(func(fd uintptr) { peerErr = checkPeer(socket, int(fd)) }); err != nil {
		peerErr = err
	}
	if peerErr != nil {
		conn.Close()
		return nil, peerErr
	}
	return conn, nil
}

type blockingConn struct{ fd int }

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
		case err == syscall.EAGAIN || err == syscall.EWOULDBLOCK:
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
		case err == syscall.EAGAIN || err == syscall.EWOULDBLOCK:
			return written, errTimeout
		case err != nil:
			return written, os.NewSyscallError("write", err)
		}
		written += n
	}
	return written, nil
}

func (c *blockingConn) Close() error { return syscall.Close(c.fd) }

// SetDeadline bounds every later read and write to the time left until t.
func (c *blockingConn) SetDeadline(t time.Time) error {
	var tv syscall.Timeval
	if !t.IsZero() {
		left := time.Until(t)
		if left <= 0 {
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
