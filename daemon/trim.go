package daemon

import (
	"context"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// trimAfter is how long the daemon must have been quiet, after a run of
// decisions, before it gives the memory they used back to the system.
const trimAfter = 10 * time.Second

// memTrim gives memory back once the daemon goes quiet. Under load the
// garbage collector lets the heap grow to twice what is live, and the
// runtime returns what is free to the system only slowly: a menu-bar
// daemon, idle most of the day, would hold its busiest minute's memory
// for long after. A soft memory limit would bound that under load too,
// but costs more than twice the CPU per decision there (BENCHMARKS.md).
type memTrim struct {
	last    atomic.Int64 // unix nanoseconds of the latest decision
	trimmed atomic.Bool  // given back since it
}

// busy notes a decision.
func (m *memTrim) busy(now time.Time) {
	m.last.Store(now.UnixNano())
	if m.trimmed.Load() {
		m.trimmed.Store(false)
	}
}

// run trims once per quiet spell until ctx ends.
func (m *memTrim) run(ctx context.Context) {
	tick := time.NewTicker(trimAfter / 2)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			if m.quiet(now) {
				debug.FreeOSMemory()
				dropBinaryPages()
			}
		}
	}
}

// quiet reports whether a run of decisions ended trimAfter ago and its
// memory is not given back yet, and marks it given back.
func (m *memTrim) quiet(now time.Time) bool {
	last := m.last.Load()
	if last == 0 || m.trimmed.Load() || now.Sub(time.Unix(0, last)) < trimAfter {
		return false
	}
	m.trimmed.Store(true)
	return true
}
