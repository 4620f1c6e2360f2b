package daemon

import (
	"context"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settle is how long the watcher waits after the last change before it
// reloads, so an editor's write-rename-chmod burst causes one reload.
// maxWait bounds the wait from the first change of a burst: a stream of
// writes (a process touching a policy file over and over) must not hold
// off a reload, and so a new rule, forever.
const (
	settle  = 150 * time.Millisecond
	maxWait = time.Second
)

// watcher reloads on changes to policy files or config.yaml. It is set
// up in New, so a change made right after New returns is not missed.
type watcher struct {
	fs      *fsnotify.Watcher // nil when the system gives us none
	watched map[string]bool
}

func (d *Daemon) newWatcher() *watcher {
	w := &watcher{watched: map[string]bool{}}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		d.log.Warn("cannot watch policy files; reload with SIGHUP or `agentjail reload`", "err", err)
		return w
	}
	w.fs = fw
	d.syncWatches(w)
	return w
}

// watch reloads on file changes and on Reload until ctx ends.
func (d *Daemon) watch(ctx context.Context) {
	w := d.watcher
	var events chan fsnotify.Event
	var errs chan error
	if w.fs != nil {
		defer w.fs.Close()
		events, errs = w.fs.Events, w.fs.Errors
	}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var due time.Time // when the pending burst must be reloaded at the latest; zero: none pending
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-events:
			if !d.decider.watchedFile(ev.Name) {
				continue
			}
			now := time.Now()
			if due.IsZero() {
				due = now.Add(maxWait)
			}
			timer.Reset(min(settle, due.Sub(now)))
		case err := <-errs:
			d.log.Warn("file watcher", "err", err)
		case <-timer.C:
			due = time.Time{}
			d.reloadNow(ctx)
		case <-d.reload:
			d.reloadNow(ctx)
		}
	}
}

func (d *Daemon) reloadNow(ctx context.Context) {
	d.decider.Load(ctx)
	d.logLoad()
	d.syncWatches(d.watcher)
}

// syncWatches watches config.yaml's folder and every policy folder in
// force, adding new ones and dropping ones no longer configured.
func (d *Daemon) syncWatches(w *watcher) {
	if w.fs == nil {
		return
	}
	want := map[string]bool{d.configDir(): true}
	for _, dir := range d.decider.PolicyDirs() {
		want[dir] = true
	}
	for dir := range w.watched {
		if !want[dir] {
			w.fs.Remove(dir)
			delete(w.watched, dir)
		}
	}
	for dir := range want {
		if w.watched[dir] {
			continue
		}
		if err := w.fs.Add(dir); err == nil {
			w.watched[dir] = true
		}
	}
}
