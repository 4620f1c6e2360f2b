package app

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gen2brain/beeep"

	"github.com/agentjail/agentjail/internal/decisionlog"
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
}

// NewNotifier sends through send; onError hears about the first failure
// (a desktop without a notification server), which is never fatal.
func NewNotifier(send func(title, body string) error, onError func(error)) *Notifier {
	return &Notifier{send: send, onError: onError, now: time.Now}
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
		go n.deliver(title, body)
		return
	}
	n.pending++
	if n.timer == nil {
		n.timer = time.AfterFunc(CoalesceWindow-now.Sub(n.last), n.flush)
	}
}

func (n *Notifier) flush() {
	n.mu.Lock()
	count := n.pending
	n.pending, n.timer, n.last = 0, nil, n.now()
	n.mu.Unlock()
	if count > 0 {
		go n.deliver("agentjail", fmt.Sprintf("and %d more blocked", count))
	}
}

func (n *Notifier) deliver(title, body string) {
	if err := n.send(title, body); err != nil {
		n.mu.Lock()
		first := !n.failed
		n.failed = true
		n.mu.Unlock()
		if first && n.onError != nil {
			n.onError(err)
		}
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
