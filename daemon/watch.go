package daemon

import (
	"context"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settle is how long the watcher waits after the last change before it
// reloads, so an editor's write-rename-chmod burst causes one reload.
const settle = 150 * time.Millisecond

// watch reloads on changes to policy files or config.yaml and on Reload.
// Without a working file watcher it still serves Reload (SIGHUP).
func (d *Daemon) watch(ctx context.Context) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		d.log.Warn("cannot watch policy files; reload with SIGHUP or `agentjail reload`", "err", err)
	}
	var events chan fsnotify.Event
	var errs chan error
	watched := map[string]bool{}
	if w != nil {
		defer w.Close()
		events, errs = w.Events, w.Errors
		d.syncWatches(w, watched)
	}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-events:
			if d.decider.watchedFile(ev.Name) {
				timer.Reset(settle)
			}
		case err := <-errs:
			d.log.Warn("file watcher", "err", err)
		case <-timer.C:
			d.reloadNow(ctx, w, watched)
		case <-d.reload:
			d.reloadNow(ctx, w, watched)
		}
	}
}

func (d *Daemon) reloadNow(ctx context.Context, w *fsnotify.Watcher, watched map[string]bool) {
	d.decider.Load(ctx)
	d.logLoad()
	if w != nil {
		d.syncWatches(w, watched)
	}
}

// syncWatches watches config.yaml's folder and every policy folder in
// force, adding new ones and dropping ones no longer configured.
func (d *Daemon) syncWatches(w *fsnotify.Watcher, watched map[string]bool) {
	want := map[string]bool{d.configDir(): true}
	for _, dir := range d.decider.PolicyDirs() {
		want[dir] = true
	}
	for dir := range watched {
		if !want[dir] {
			w.Remove(dir)
			delete(watched, dir)
		}
	}
	for dir := range want {
		if watched[dir] {
			continue
		}
		if err := w.Add(dir); err == nil {
			watched[dir] = true
		}
	}
}
