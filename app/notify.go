package app

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gen2brain/beeep"

	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// CoalesceWindow is the least time between two notifications: denies in
// between are counted and reported as "and N more blocked".
const CoalesceWindow = 3 * time.Second

// Notifier shows a desktop notification for denies, coalescing bursts.
type Notifier struct {
	send    func(title, body string) error
	onError func(error) // called once, for the first failure

	mu          sync.Mutex
	last        time.Time
	pending     int
	timer       *time.Timer
	pausedUntil time.Time
	failed      bool
	now         func() time.Time
	// result is the fate of the last notification sent, for status;
	// resultAt when it was sent.
	result   wire.NotifyStatus
	resultAt time.Time
}

// ErrOff is what a send function returns for a notification it did not
// send because notifications are switched off: not a failure.
var ErrOff = errors.New("notifications are off")

// NewNotifier sends through send; onError hears about the first failure
// (a desktop without a notification server), which is never fatal.
func NewNotifier(send func(title, body string) error, onError func(error)) *Notifier {
	return &Notifier{send: send, onError: onError, now: time.Now, result: wire.NotifyStatus{State: wire.NotifyNone}}
}

// Status is the fate of the last notification: delivered, or failed and
// why, and when.
func (n *Notifier) Status() *wire.NotifyStatus {
	n.mu.Lock()
	defer n.mu.Unlock()
	r := n.result
	return &r
}

// Pause silences notifications until t.
func (n *Notifier) Pause(until time.Time) {
	n.mu.Lock()
	n.pausedUntil = until
	n.mu.Unlock()
}

// PausedUntil is when notifications resume.
func (n *Notifier) PausedUntil() time.Time {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.pausedUntil
}

// now is the notifier's clock, read under its lock.
func (n *Notifier) clock() time.Time {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.now()
}

// Deny notifies about one denied call, or counts it into the next
// "more blocked" notification if one was shown moments ago.
func (n *Notifier) Deny(r decisionlog.Record) {
	n.mu.Lock()
	defer n.mu.Unlock()
	now := n.now()
	if now.Before(n.pausedUntil) {
		return
	}
	if now.Sub(n.last) >= CoalesceWindow && n.pending == 0 {
		n.last = now
		rule := strings.Join(r.RuleIDs, ", ")
		title := fmt.Sprintf("agentjail blocked %s (%s)", short(r.Tool, 40), short(rule, 60))
		body := short(r.Summary, 80) + "\n" + short(strings.Join(r.Reasons, " "), 200)
		go n.deliver(title, body, now)
		return
	}
	n.pending++
	if n.timer == nil {
		n.timer = time.AfterFunc(CoalesceWindow-now.Sub(n.last), n.flush)
	}
}

// Alert notifies at once, outside the coalescing of denies and any
// pause: calls that ran unchecked are what the user must hear of.
func (n *Notifier) Alert(title, body string) {
	n.mu.Lock()
	at := n.now()
	n.mu.Unlock()
	go n.deliver(title, body, at)
}

func (n *Notifier) flush() {
	n.mu.Lock()
	count := n.pending
	at := n.now()
	n.pending, n.timer, n.last = 0, nil, at
	n.mu.Unlock()
	if count > 0 {
		go n.deliver("agentjail", fmt.Sprintf("and %d more blocked", count), at)
	}
}

// maxErrorText bounds the reason a failure is reported with (beeep joins
// the errors of every way it tried).
const maxErrorText = 400

// deliver sends one notification; at is when it was asked for, read
// under the lock by the caller (now is the test's to change).
func (n *Notifier) deliver(title, body string, at time.Time) {
	n.report(title, n.send(title, body), at)
}

// report records the fate of a notification asked for at at, sent by
// deliver or on the session bus directly (a waiting call's, with
// buttons): for status, and the first failure for onError.
func (n *Notifier) report(title string, err error, at time.Time) {
	if errors.Is(err, ErrOff) {
		return
	}
	n.mu.Lock()
	if !at.Before(n.resultAt) { // deliveries run apart: an older one finishing late is not the last
		n.resultAt = at
		n.result = wire.NotifyStatus{State: wire.NotifyDelivered, At: at.UTC().Format(time.RFC3339), Title: title}
		if err != nil {
			n.result.State, n.result.Error = wire.NotifyFailed, short(err.Error(), maxErrorText)
		}
	}
	first := err != nil && !n.failed
	if err != nil {
		n.failed = true
	}
	n.mu.Unlock()
	if first && n.onError != nil {
		n.onError(err)
	}
}

// The name notifications are grouped under (set once: beeep reads it from
// the goroutines that deliver them).
func init() { beeep.AppName = "agentjail" }

// SendDesktop shows one desktop notification through beeep: DBus on
// Linux; on macOS terminal-notifier when installed (with AgentJail's
// icon), else AppleScript's `display notification`.
func SendDesktop(title, body string) error {
	return beeep.Notify(title, body, notifyIcon())
}
