//go:build linux

package app

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// On Linux the tray is a StatusNotifierItem: it registers with the
// StatusNotifierWatcher, and a tray host (a panel: plasmashell, waybar,
// GNOME Shell's AppIndicator extension) shows what the watcher lists.
// With no watcher on the session bus nobody shows the icon, though the
// item runs; status must say so rather than "running".
const watcherName = "org.kde.StatusNotifierWatcher"

// hostPrefixes begin the names tray hosts own on the bus (the spec's
// org.freedesktop name and KDE's own).
var hostPrefixes = []string{"org.kde.StatusNotifierHost-", "org.freedesktop.StatusNotifierHost-"}

// busTimeout bounds each question asked on the bus: a watcher that never
// answers must not stop the watch.
const busTimeout = 2 * time.Second

// watchHost finds who shows the tray now, and again whenever a watcher
// or a host appears on or leaves the session bus (the bus's
// NameOwnerChanged signal; systray registers the item again itself when
// a watcher appears). It returns when ctx ends; a bus that does not
// answer leaves the state unknown ("running"), never the tray stuck.
func (t *Tray) watchHost(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The connection closes when ctx ends, which also ends a handshake
	// still waiting: the timer ends it unless the watch is set up in time.
	late := time.AfterFunc(busTimeout, cancel)
	conn, err := dbus.ConnectSessionBus(dbus.WithContext(ctx))
	if err == nil {
		defer conn.Close()
		err = conn.AddMatchSignalContext(ctx,
			dbus.WithMatchSender("org.freedesktop.DBus"),
			dbus.WithMatchInterface("org.freedesktop.DBus"),
			dbus.WithMatchMember("NameOwnerChanged"),
		)
	}
	if !late.Stop() && err == nil {
		err = fmt.Errorf("the session bus did not answer within %v", busTimeout)
	}
	if err != nil {
		t.logger().Warn("cannot watch for a tray host; status cannot tell whether the icon is shown", "err", err)
		return
	}
	signals := make(chan *dbus.Signal, 16)
	conn.Signal(signals)
	t.findHost(ctx, conn)
	for {
		select {
		case <-ctx.Done():
			return
		case s, ok := <-signals:
			if !ok {
				return
			}
			if len(s.Body) > 0 {
				if name, _ := s.Body[0].(string); strings.Contains(name, "StatusNotifier") {
					t.findHost(ctx, conn)
				}
			}
		}
	}
}

// findHost asks the bus who shows the tray and records the answer. A
// question the bus does not answer leaves the last answer in place.
func (t *Tray) findHost(ctx context.Context, conn *dbus.Conn) {
	ctx, cancel := context.WithTimeout(ctx, busTimeout)
	defer cancel()
	var names []string
	if err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.ListNames", 0).Store(&names); err != nil {
		t.logger().Warn("cannot list the session bus's names; status cannot tell whether the icon is shown", "err", err)
		return
	}
	t.setHost(hostOf(ctx, conn, names))
}

// hostOf is who shows the tray, given the names on the bus: the programs
// owning a host name; else the watcher's program, unless the watcher
// says no host registered with it (a watcher without that property is
// taken to be its own host, as panels that own the watcher are).
func hostOf(ctx context.Context, conn *dbus.Conn, names []string) hostState {
	if !slices.Contains(names, watcherName) {
		return hostState{line: TrayNoHost}
	}
	var hosts []string
	for _, n := range names {
		for _, p := range hostPrefixes {
			if strings.HasPrefix(n, p) {
				if prog := program(ctx, conn, n); !slices.Contains(hosts, prog) {
					hosts = append(hosts, prog)
				}
			}
		}
	}
	if len(hosts) > 0 {
		return hostState{line: "shown by " + strings.Join(hosts, ", "), shown: true}
	}
	watcher := program(ctx, conn, watcherName)
	var registered dbus.Variant
	err := conn.Object(watcherName, "/StatusNotifierWatcher").CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", 0,
		watcherName, "IsStatusNotifierHostRegistered").Store(&registered)
	if reg, ok := registered.Value().(bool); err == nil && ok && !reg {
		return hostState{line: fmt.Sprintf("no tray host has registered with the StatusNotifierWatcher (%s): nothing shows the icon", watcher)}
	}
	return hostState{line: "shown by " + watcher, shown: true}
}

// program names the process owning a bus name (its /proc comm), else
// the name's owner as the bus knows it.
func program(ctx context.Context, conn *dbus.Conn, name string) string {
	var pid uint32
	if conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetConnectionUnixProcessID", 0, name).Store(&pid) == nil && pid > 0 {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); err == nil {
			if comm := strings.TrimSpace(string(b)); comm != "" {
				return short(comm, 64)
			}
		}
	}
	var owner string
	if conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetNameOwner", 0, name).Store(&owner) == nil {
		return short(owner, 64)
	}
	return short(name, 64)
}
