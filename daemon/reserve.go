package daemon

import (
	"bufio"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/wire"
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

// maxPerCaller bounds the connections one user holds at once on the
// system daemon, which serves every local user: an agent that floods the
// shared socket (idle connections, slow requests) reaches only its own
// user's limit, and every other user's hooks still find capacity. Its
// own calls past the limit are denied at once, as for a full daemon.
const maxPerCaller = maxInFlight / 4

// callers counts the connections each uid holds (system mode).
type callers struct {
	mu sync.Mutex
	n  map[int]int
}

// take reserves a connection for uid, or reports that uid holds its
// share already.
func (c *callers) take(uid int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[int]int{}
	}
	if c.n[uid] >= maxPerCaller {
		return false
	}
	c.n[uid]++
	return true
}

func (c *callers) release(uid int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[uid]--; c.n[uid] <= 0 {
		delete(c.n, uid)
	}
}

// overShareDecision is the answer to a call past its user's share.
func overShareDecision(started time.Time) *wire.Decision {
	msg := fmt.Sprintf("agentjail blocked this call because your user already holds %s to the system daemon at once; something is flooding it: see `agentjail status`", plural.Of(maxPerCaller, "connection"))
	return &wire.Decision{
		Verdict:    wire.Deny,
		Reason:     msg,
		Rules:      []wire.Rule{{Kind: wire.Deny, ID: "agentjail.busy", Msg: msg}},
		EvalMicros: time.Since(started).Microseconds(),
	}
}
