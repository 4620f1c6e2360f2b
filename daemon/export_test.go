package daemon

import (
	"context"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
)

// SetDecideHook makes every decision run f after deriving the input and
// before evaluating it, until the test ends.
func SetDecideHook(t testing.TB, f func(*wire.Request)) {
	testHookDecide.Store(&f)
	t.Cleanup(func() { testHookDecide.Store(nil) })
}

// Workers is how many decisions run at once.
func (d *Daemon) Workers() int { return d.workers.n }

// NewReferenceDecider is NewDecider whose decisions take the engine's
// reference path (no direct input conversion, no decision cache).
func NewReferenceDecider(ctx context.Context, opts DeciderOptions) (*Decider, error) {
	d, err := NewDecider(ctx, opts)
	if d != nil {
		d.reference = true
	}
	return d, err
}
