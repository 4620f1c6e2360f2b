package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/wire"
)

// failRunCheck is how often the hook's failure log is looked at: one
// lstat, and a read only when it changed.
const failRunCheck = time.Second

// failRun is the last run of fail-opens: wire.FailOpenRunCount or more
// calls the hook let run unchecked within wire.FailOpenRunWindow. One
// fail-open is a hiccup the status line reports; a run of them is what an
// agent loading the daemon (or a daemon gone) looks like, and the user
// hears of it at once.
type failRun struct {
	mu   sync.Mutex
	run  *wire.FailOpenRun
	last time.Time // run.Last, parsed
	// size and mod are the log's when last read.
	size int64
	mod  time.Time
}

// watchFailOpens looks at the hook's failure log until ctx ends.
func (d *Daemon) watchFailOpens(ctx context.Context) {
	tick := time.NewTicker(failRunCheck)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			d.checkFailOpens(time.Now())
		}
	}
}

// checkFailOpens reads the failure log if it changed, and records (and
// notifies) a run of fail-opens within the window before now.
func (d *Daemon) checkFailOpens(now time.Time) {
	path := filepath.Join(d.opts.Home, paths.FailLogName)
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	r := &d.failRun
	r.mu.Lock()
	changed := fi.Size() != r.size || !fi.ModTime().Equal(r.mod)
	r.size, r.mod = fi.Size(), fi.ModTime()
	r.mu.Unlock()
	if !changed {
		return
	}
	fo := recentFailOpens(path, now.Add(-wire.FailOpenRunWindow))
	if fo.n < wire.FailOpenRunCount {
		return
	}
	first, err1 := time.Parse(time.RFC3339, fo.first.Time)
	last, err2 := time.Parse(time.RFC3339, fo.last.Time)
	if err1 != nil || err2 != nil {
		return
	}
	run := wire.FailOpenRun{Count: fo.n, First: fo.first.Time, Last: fo.last.Time, Causes: fo.causes}
	r.mu.Lock()
	// The same run goes on while its window starts no later than the
	// last record already seen; a run after a quiet spell is a new one.
	fresh := r.run == nil || first.After(r.last)
	if !fresh {
		run.First, run.Notified = r.run.First, r.run.Notified
		if r.run.Count > run.Count {
			run.Count = r.run.Count
		}
	} else if d.opts.OnFailOpenRun != nil {
		run.Notified = now.UTC().Format(time.RFC3339)
	}
	r.run, r.last = &run, last
	r.mu.Unlock()
	if fresh {
		d.log.Warn("calls ran unchecked one after another", "count", run.Count, "causes", strings.Join(run.Causes, ","), "last_error", fo.last.Error)
		if d.opts.OnFailOpenRun != nil {
			d.opts.OnFailOpenRun(run)
		}
	}
}

// fillFailRun reports the last run of fail-opens while it is recent.
func (d *Daemon) fillFailRun(st *wire.Status, now time.Time) {
	r := &d.failRun
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.run == nil || now.Sub(r.last) >= wire.ProblemWindow {
		return
	}
	run := *r.run
	st.FailOpenRun = &run
	var causes []string
	for _, c := range run.Causes {
		causes = append(causes, wire.CauseText(c))
	}
	st.Problems = append(st.Problems, wire.Problem{
		Kind:    "fail_open_run",
		Message: fmt.Sprintf("%s ran unchecked within %v of each other, the last at %s (%s): something kept agentjail from answering", plural.Of(run.Count, "call"), wire.FailOpenRunWindow, r.last.Local().Format(time.TimeOnly), strings.Join(causes, "; ")),
		Fix:     fmt.Sprintf("check what the agent ran then (`agentjail logs`, %s) and whether it loads the daemon (many `agentjail try` calls, connections to the socket that send nothing); this clears %v after the last one", filepath.Join(d.opts.Home, paths.FailLogName), wire.ProblemWindow),
	})
}
