// Package unixsock dials the daemon's Unix socket and decides whether
// the server on it may be believed: the socket's folder and the peer
// must be the user's own (or, for the system socket, the service
// user's). It imports only the standard library and packages that do,
// because the hook links it.
package unixsock

import (
	"io"
	"time"
)

// Conn is a connection Dial returns; a net.Conn is one.
type Conn interface {
	io.ReadWriteCloser
	SetDeadline(time.Time) error
}
