package hook

import (
	"context"
	"sync"
	"time"
)

// withDeadline is context.WithDeadline, except that when parent can never
// be cancelled (the hook's own background context) it starts no timer
// until something waits on Done or asks Err. A runtime timer makes Go
// start its network poller and a thread to wait in it; the checked path
// never waits on the context, since its stdin read and its socket are
// bounded by the deadline itself, so it would pay for that for nothing.
func withDeadline(parent context.Context, at time.Time) (context.Context, context.CancelFunc) {
	if parent.Done() != nil {
		return context.WithDeadline(parent, at)
	}
	c := &lazyDeadline{Context: parent, at: at}
	return c, c.cancel
}

type lazyDeadline struct {
	context.Context
	at    time.Time
	once  sync.Once
	timed context.Context // the real one, once needed
	stop  context.CancelFunc
}

func (c *lazyDeadline) Deadline() (time.Time, bool) { return c.at, true }
func (c *lazyDeadline) Done() <-chan struct{}       { return c.started().Done() }
func (c *lazyDeadline) Err() error                  { return c.started().Err() }

func (c *lazyDeadline) started() context.Context {
	c.once.Do(func() { c.timed, c.stop = context.WithDeadline(c.Context, c.at) })
	return c.timed
}

// cancel ends the context; one never started needs no timer to end.
func (c *lazyDeadline) cancel() {
	c.once.Do(func() { c.timed, c.stop = context.WithCancel(c.Context) })
	c.stop()
}
