package daemon

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"time"

	"github.com/agentjail/agentjail/internal/unixsock"
)

// listenPerson opens the person channel of the daemon serving socket: the
// abstract socket that takes a person's answers (see
// unixsock.PersonAddress). Where there is none, or it cannot be opened
// (another daemon on the same socket holds it), the socket itself takes
// them, as before, and the log says so.
func listenPerson(socket string, log *slog.Logger) net.Listener {
	address := unixsock.PersonAddress(socket)
	if address == "" {
		return nil
	}
	ln, err := net.Listen("unix", address)
	if err != nil {
		log.Warn("no person channel: answers to held calls are taken on the socket, where a tool call can reach them", "err", err)
		return nil
	}
	return ln
}

// servePerson serves the person channel as the socket is served: the
// same peer checks, handlers and bounds.
func (d *Daemon) servePerson(ctx context.Context) {
	for {
		conn, err := d.person.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(50 * time.Millisecond) // out of descriptors, say
			continue
		}
		d.conns.Go(func() { d.handle(ctx, conn, true) })
	}
}
