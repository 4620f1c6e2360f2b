package daemon

import "sync"

// workers runs evaluations on a few long-lived goroutines. OPA's
// evaluator recurses deeply; on a fresh goroutine per connection every
// decision would first grow a small stack several times (copying it each
// time), which measured as a fifth of the daemon's CPU. Evaluation is
// CPU-bound, so a handful of workers loses no throughput.
type workers struct {
	jobs chan func()
	wg   sync.WaitGroup
}

func newWorkers(n int) *workers {
	w := &workers{jobs: make(chan func())}
	for range n {
		w.wg.Go(func() {
			for job := range w.jobs {
				job()
			}
		})
	}
	return w
}

// do runs f on a worker and waits for it.
func (w *workers) do(f func()) {
	done := make(chan struct{})
	w.jobs <- func() {
		defer close(done)
		f()
	}
	<-done
}

// stop ends the workers once no more jobs will come.
func (w *workers) stop() {
	close(w.jobs)
	w.wg.Wait()
}
