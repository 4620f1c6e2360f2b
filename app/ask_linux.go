//go:build linux

package app

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/agentjail/agentjail/internal/approval"
	"github.com/agentjail/agentjail/internal/wire"
)

// The freedesktop notification service: a waiting call's notification is
// sent to it directly, with buttons (actions) where it shows them.
const (
	notifyName = "org.freedesktop.Notifications"
	notifyPath = "/org/freedesktop/Notifications"
)

// askBus is the session-bus connection the waiting calls' notifications
// go out on, and the notifications sent for calls still waiting.
type askBus struct {
	mu     sync.Mutex
	conn   *dbus.Conn
	cancel context.CancelFunc
	sent   map[uint32]sentAsk // by notification id
	byCall map[string]uint32  // notification id by call id
}

// sentAsk is one notification sent for a waiting call.
type sentAsk struct {
	p wire.Pending
	// server is the unique bus name that owned the notification service
	// when it was sent: only it may press its buttons.
	server  string
	buttons bool
}

func (b *askBus) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.conn != nil {
		b.cancel()
		b.conn = nil
	}
}

// connect returns the connection, making it (and the watch for the
// notifications' signals) at first use or after it was lost.
func (a *asker) connect(ctx context.Context) (*dbus.Conn, error) {
	b := &a.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.conn != nil {
		return b.conn, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	// The connection lives as long as ctx; the timer ends a handshake
	// the bus never answers.
	late := time.AfterFunc(busTimeout, cancel)
	conn, err := dbus.ConnectSessionBus(dbus.WithContext(ctx))
	if err == nil {
		// Every signal of the notification interface, whoever sends it:
		// the sender is checked for each signal (see invoked), in one
		// place, rather than trusted to a match rule.
		err = conn.AddMatchSignalContext(ctx, dbus.WithMatchInterface(notifyName), dbus.WithMatchObjectPath(notifyPath))
	}
	if !late.Stop() && err == nil {
		err = fmt.Errorf("the session bus did not answer within %v", busTimeout)
	}
	if err != nil {
		cancel()
		return nil, err
	}
	signals := make(chan *dbus.Signal, 16)
	conn.Signal(signals)
	b.conn, b.cancel = conn, cancel
	if b.sent == nil {
		b.sent, b.byCall = map[uint32]sentAsk{}, map[string]uint32{}
	}
	go a.listen(conn, signals)
	return conn, nil
}

// show notifies p: with buttons where the server shows them, else with
// where to answer.
func (a *asker) show(ctx context.Context, p wire.Pending) {
	at := a.o.Notifier.clock()
	conn, err := a.connect(ctx)
	if err != nil {
		a.o.Log.Debug("no session bus for an approval notification; sending it plain", "err", err)
		a.plain(p)
		return
	}
	qctx, cancel := context.WithTimeout(ctx, busTimeout)
	defer cancel()
	obj := conn.Object(notifyName, notifyPath)
	var caps []string
	var server string
	err = obj.CallWithContext(qctx, notifyName+".GetCapabilities", 0).Store(&caps)
	if err == nil {
		err = conn.BusObject().CallWithContext(qctx, "org.freedesktop.DBus.GetNameOwner", 0, notifyName).Store(&server)
	}
	if err != nil {
		a.o.Notifier.report(askTitle(p), fmt.Errorf("%s: %w", notifyName, err), at)
		return
	}
	buttons := slices.Contains(caps, "actions") && !a.o.TerminalOnly
	var actions []string
	how := a.where()
	if buttons {
		how = ""
		for _, act := range Actions(p) {
			if act.Enabled {
				actions = append(actions, act.Key, act.Title)
			}
		}
	}
	title, body := askText(p, how)
	// It lasts as long as the call waits (the server may end it sooner).
	expire := int32(-1)
	if d, err := time.Parse(time.RFC3339, p.Deadline); err == nil {
		expire = int32(min(max(time.Until(d), time.Second), time.Hour).Milliseconds())
	}
	var id uint32
	err = obj.CallWithContext(qctx, notifyName+".Notify", 0, "agentjail", uint32(0), "", title, body, actions,
		map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1))}, expire).Store(&id)
	if err != nil {
		err = fmt.Errorf("%s: %w", notifyName, err)
	}
	a.o.Notifier.report(title, err, at)
	if err != nil {
		return
	}
	a.bus.mu.Lock()
	a.bus.sent[id] = sentAsk{p: p, server: server, buttons: buttons}
	a.bus.byCall[p.ID] = id
	a.bus.mu.Unlock()
}

func askTitle(p wire.Pending) string { t, _ := askText(p, ""); return t }

// withdraw closes the notification of a call that stopped waiting.
func (a *asker) withdraw(ctx context.Context, callID string) {
	b := &a.bus
	b.mu.Lock()
	id, ok := b.byCall[callID]
	conn := b.conn
	if ok {
		delete(b.byCall, callID)
		delete(b.sent, id)
	}
	b.mu.Unlock()
	if !ok || conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, busTimeout)
	defer cancel()
	if err := conn.Object(notifyName, notifyPath).CallWithContext(ctx, notifyName+".CloseNotification", 0, id).Err; err != nil {
		a.o.Log.Debug("closing an approval notification", "id", id, "err", err)
	}
}

// listen hears the notification service's signals until the connection
// ends; then the next notification connects again.
func (a *asker) listen(conn *dbus.Conn, signals chan *dbus.Signal) {
	for s := range signals {
		if s.Path != notifyPath || len(s.Body) < 2 {
			continue
		}
		id, _ := s.Body[0].(uint32)
		switch s.Name {
		case notifyName + ".ActionInvoked":
			key, _ := s.Body[1].(string)
			a.invoked(conn, s.Sender, id, key)
		case notifyName + ".NotificationClosed":
			a.bus.mu.Lock()
			if n, ok := a.bus.sent[id]; ok && n.server == s.Sender {
				delete(a.bus.sent, id)
				delete(a.bus.byCall, n.p.ID)
			}
			a.bus.mu.Unlock()
		}
	}
	a.bus.mu.Lock()
	if a.bus.conn == conn {
		a.bus.conn = nil
		a.bus.cancel()
	}
	a.bus.mu.Unlock()
}

// invoked answers a call from its notification's button. Any program on
// the session bus can emit a signal named ActionInvoked: it is believed
// only from the bus name that owns the notification service now, and
// owned it when the notification was sent, and only for a notification
// sent for a call that still waits.
func (a *asker) invoked(conn *dbus.Conn, sender string, id uint32, key string) {
	ctx, cancel := context.WithTimeout(context.Background(), busTimeout)
	defer cancel()
	var owner string
	if err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetNameOwner", 0, notifyName).Store(&owner); err != nil || owner != sender {
		a.o.Log.Warn("ignored a notification button: the signal did not come from the notification service", "sender", sender, "service", owner)
		return
	}
	a.bus.mu.Lock()
	n, ok := a.bus.sent[id]
	a.bus.mu.Unlock()
	if !ok || n.server != sender || !n.buttons {
		a.o.Log.Debug("a button of a notification that is not a waiting call's", "id", id)
		return
	}
	for _, act := range Actions(n.p) {
		if act.Key != key || !act.Enabled {
			continue
		}
		done, err := a.o.Answer(act.Answer, approval.Answerer{Via: wire.ViaNotification, Trusted: true})
		if err != nil {
			a.o.Log.Warn("answering from a notification", "call", n.p.ID, "err", err)
			return
		}
		a.o.Log.Info("answered from a notification", "done", done)
		return
	}
	a.o.Log.Warn("ignored a notification button that its notification did not offer", "call", n.p.ID, "key", key)
}
