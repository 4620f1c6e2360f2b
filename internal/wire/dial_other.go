//go:build !unix

package wire

import (
	"net"
	"time"
)

// dialBlocking falls back to the netpoller where there is no Unix socket API.
func dialBlocking(socket string, deadline time.Time) (Conn, error) {
	return net.DialTimeout("unix", socket, time.Until(deadline))
}
