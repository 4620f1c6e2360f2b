package daemon

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/agentjail/agentjail/internal/paths"
)

// socketCheck is how often the daemon checks that its socket, its lock
// and their folder are still in place (two lstats), besides checking at
// once when the folder's watcher reports a change there. A hook that
// finds the socket gone while a daemon holds the lock waits for it
// within its deadline, so this stays well below the default hook
// timeout.
const socketCheck = time.Second

// guardSocket keeps the socket reachable until ctx ends: a socket, lock
// or folder removed or replaced under the daemon is put back (see
// listener.heal). If another daemon took the lock over, this one stops
// serving (stop) and leaves the socket to it.
func (d *Daemon) guardSocket(ctx context.Context, stop context.CancelFunc) {
	dir := filepath.Dir(d.opts.Socket)
	lockPath := paths.SocketLock(d.opts.Socket)
	var events chan fsnotify.Event
	var errs chan error
	fw, err := fsnotify.NewWatcher()
	if err == nil {
		defer fw.Close()
		fw.Add(dir)
		events, errs = fw.Events, fw.Errors
	}
	tick := time.NewTicker(socketCheck)
	defer tick.Stop()
	lastErr := ""
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-events:
			if ev.Name != d.opts.Socket && ev.Name != lockPath && ev.Name != dir {
				continue
			}
		case <-errs:
			continue
		case <-tick.C:
		}
		did, err := d.ln.heal()
		switch {
		case errors.Is(err, errLockLost):
			d.log.Error("another agentjail daemon holds the socket's lock now (this one's lock file was removed); this daemon stops and leaves the socket to it", "socket", d.opts.Socket)
			stop()
			return
		case err != nil:
			if err.Error() != lastErr { // said once, not every second
				d.log.Error("the socket was taken away and cannot be recreated yet; calls are not checked until it is", "socket", d.opts.Socket, "err", err)
			}
			lastErr = err.Error()
		case did != "":
			lastErr = ""
			d.log.Warn("the socket was taken away under the daemon and is back", "socket", d.opts.Socket, "repaired", did)
			if fw != nil {
				fw.Add(dir) // a removed folder's watch went with it
			}
			if strings.Contains(did, "recreated "+d.opts.Home) {
				d.Reload() // rewrites hook.json and watches the new folders
			}
		}
	}
}
