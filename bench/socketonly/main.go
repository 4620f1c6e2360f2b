// Command socketonly is the benchmark ceiling for the daemon's
// throughput: a server on a Unix socket that does only the socket work
// of a decision (accept, read one request frame, write one fixed
// answer, close) and no evaluation. `make bench` reports the daemon's
// decisions per second as a share of its rate, measured in the same run
// with the same clients.
//
//	socketonly SOCKET
package main

import (
	"fmt"
	"net"
	"os"

	"github.com/agentjail/agentjail/internal/wire"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: socketonly SOCKET")
		os.Exit(2)
	}
	l, err := net.Listen("unix", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	answer := &wire.Response{Decision: &wire.Decision{Verdict: wire.Allow}}
	for {
		c, err := l.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		go func() {
			defer c.Close()
			if _, err := wire.ReadFrame(c); err == nil {
				wire.WriteFrame(c, answer)
			}
		}()
	}
}
