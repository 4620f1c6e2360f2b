//go:build !unix

package unixsock

import (
	"context"
	"net"
)

// Dial uses the netpoller where there is no Unix socket API, bounded by
// ctx's deadline; there are no peer credentials to check.
func Dial(ctx context.Context, socket string) (Conn, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return nil, err
	}
	if deadline, ok := ctx.Deadline(); ok {
		conn.SetDeadline(deadline)
	}
	return conn, nil
}

// DialPerson is Dial: this system has no person channel.
func DialPerson(ctx context.Context, socket string) (Conn, error) { return Dial(ctx, socket) }
