package policyset

import (
	"context"
	"log/slog"
	"path/filepath"
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

// Watcher reloads a Decider on changes to policy files or config.yaml.
// The daemon makes it as it starts, so a change made right after the
// daemon's New returns is not missed.
type Watcher struct {
	d       *Decider
	log     *slog.Logger
	fs      *fsnotify.Watcher // nil when the system gives us none
	watched map[string]bool
}

// NewWatcher starts watching the folders of d's config.yaml and of
// every policy folder in force; log hears what goes wrong.
func NewWatcher(d *Decider, log *slog.Logger) *Watcher {
	w := &Watcher{d: d, log: log, watched: map[string]bool{}}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		log.Warn("cannot watch policy files; reload with SIGHUP or `agentjail reload`", "err", err)
		return w
	}
	w.fs = fw
	w.sync()
	return w
}

// Run reloads on file changes and whenever reload receives, until ctx
// ends; after each load it calls loaded.
func (w *Watcher) Run(ctx context.Context, reload <-chan struct{}, loaded func()) {
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
			if !w.d.watchedFile(ev.Name) {
				continue
			}
			now := time.Now()
			if due.IsZero() {
				due = now.Add(maxWait)
			}
			timer.Reset(min(settle, due.Sub(now)))
		case err := <-errs:
			w.log.Warn("file watcher", "err", err)
		case <-timer.C:
			due = time.Time{}
			w.reloadNow(ctx, loaded)
		case <-reload:
			w.reloadNow(ctx, loaded)
		}
	}
}

func (w *Watcher) reloadNow(ctx context.Context, loaded func()) {
	w.d.Load(ctx)
	loaded()
	w.sync()
}

// sync watches config.yaml's folder and every policy folder in force,
// adding new ones and dropping ones no longer configured.
func (w *Watcher) sync() {
	if w.fs == nil {
		return
	}
	want := map[string]bool{filepath.Dir(w.d.ConfigPath()): true}
	for _, dir := range w.d.PolicyDirs() {
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
