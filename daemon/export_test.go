package daemon

import (
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
