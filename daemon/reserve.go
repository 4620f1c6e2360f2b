package daemon

import (
	"bufio"
	"context"
)

// Capacity kept for the agents' hooks. An agent can load the daemon from
// its own side: many `agentjail try` calls at once, or clients that open
// the socket and send nothing. Neither may leave a hook's call without an
// answer, since a hook that hears nothing lets the call run.
const (
	// maxWaiting bounds the connections waiting for their request's first
	// bytes. Past it a connection takes a request slot at once, as every
	// connection did before.
	maxWaiting = 4096
	// hookReserve is how many of maxInFlight's slots a try, status or
	// reload request never takes.
	hookReserve = maxInFlight / 4
)

// tryWorkerCap is how many of n workers tries may use at once: never the
// last quarter (and never the last one).
func tryWorkerCap(n int) int {
	return max(1, n-max(1, n/4))
}

// awaitRequest waits until the request's first bytes arrive (or the read
// deadline passes), holding a waiting slot rather than a request slot.
func (d *Daemon) awaitRequest(br *bufio.Reader) error {
	select {
	case d.waiting <- struct{}{}:
	default:
		return nil // too many waiting: read it under a request slot
	}
	defer func() { <-d.waiting }()
	_, err := br.Peek(1)
	return err
}

// takeOther takes a slot for a try, status or reload request, without
// waiting: when none is free the caller is told the daemon is busy.
func (d *Daemon) takeOther() bool {
	select {
	case d.others <- struct{}{}:
		return true
	default:
		return false
	}
}

func (d *Daemon) releaseOther() { <-d.others }

// takeTryWorker takes one of the workers tries may use, waiting no
// longer than ctx allows.
func (d *Daemon) takeTryWorker(ctx context.Context) bool {
	select {
	case d.tryWorkers <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (d *Daemon) releaseTryWorker() { <-d.tryWorkers }
