package daemon

import (
	"context"
	"sync"
)

// workers runs evaluations on a few long-lived goroutines. OPA's
// evaluator recurses deeply; on a fresh goroutine per connection every
// decision would first grow a small stack several times (copying it each
// time), which measured as a fifth of the daemon's CPU. Evaluation is
// CPU-bound, so a handful of workers loses no throughput.
type workers struct {
	jobs chan func()
	n    int
	wg   sync.WaitGroup
}

func newWorkers(n int) *workers {
	w := &workers{jobs: make(chan func()), n: n}
	for range n {
		w.wg.Go(func() {
			for job := range w.jobs {
				job()
			}
		})
	}
	return w
}

// submit hands f to a free worker, waiting for one no longer than ctx
// allows, and reports whether a worker took it. It does not wait for f:
// the caller waits for f's result with its own deadline, so a job that
// cannot be interrupted never makes an answer late. Waiting is bounded
// because every worker may be busy with slow rules; an unbounded wait
// would let the hook time out, and a hook that times out lets the call run.
func (w *workers) submit(ctx context.Context, f func()) bool {
	if ctx.Err() != nil {
		return false
	}
	select {
	case w.jobs <- f:
		return true
	case <-ctx.Done():
		return false
	}
}

// stop ends the workers once no more jobs will come.
func (w *workers) stop() {
	close(w.jobs)
	w.wg.Wait()
}
