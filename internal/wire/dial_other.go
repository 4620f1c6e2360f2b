//go:build !unix

package wire

import (
	"context"
	"net"
	"time"
)

// dialBlocking falls back to the netpoller where there is no Unix socket API.
func dialBlocking(socket string, deadline time.Time) (Conn, error) {
	return net.DialTimeout("unix", socket, time.Until(deadline))
}

// dialNetpoll is a plain dial here: there are no peer credentials to check.
func dialNetpoll(ctx context.Context, socket string) (Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "unix", socket)
}
