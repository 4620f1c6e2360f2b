package app

import (
	"context"
	"log/slog"
	"strings"

	"github.com/agentjail/agentjail/internal/approval"
	"github.com/agentjail/agentjail/internal/wire"
)

// A call that waits for the person is notified as it opens: on Linux a
// notification with buttons (Allow once, for this session, always in this
// project, Deny) sent on the session bus, whose button answers it as the
// tray's click does; where the notification server shows no buttons, and
// on macOS (beeep's notifications have none), a plain notification that
// says where to answer. The notification is withdrawn when the call stops
// waiting.

// askOptions configure an asker.
type askOptions struct {
	// Enabled says whether to notify now (config.yaml's notifications
	// key, and no pause).
	Enabled func() bool
	// Answer answers a call (approval.Store.Answer).
	Answer func(wire.ApprovalAnswer, approval.Answerer) (string, error)
	// Notifier sends the plain notifications and keeps the fate of every
	// one for status.
	Notifier *Notifier
	Log      *slog.Logger
	// TerminalOnly sends no buttons: the answer is a terminal's (a
	// confined call could press buttons through the session bus).
	TerminalOnly bool
}

// askQueue bounds the openings and closings waiting to be notified: past
// it they are dropped (the menu still lists every waiting call).
const askQueue = 2 * approval.MaxPending

// asker notifies the calls that wait, one at a time in the order they
// opened and closed, off the store's lock.
type asker struct {
	o   askOptions
	ops chan askOp
	bus askBus // the platform's part
}

type askOp struct {
	open bool
	p    wire.Pending
}

func newAsker(o askOptions) *asker {
	return &asker{o: o, ops: make(chan askOp, askQueue)}
}

// opened and closed queue a call's notification and its withdrawal;
// they never block (the store calls them under its watch).
func (a *asker) opened(p wire.Pending) { a.queue(askOp{open: true, p: p}) }
func (a *asker) closed(p wire.Pending) { a.queue(askOp{p: p}) }

func (a *asker) queue(op askOp) {
	select {
	case a.ops <- op:
	default:
		a.o.Log.Warn("too many approval notifications queued; this one is dropped (the menu lists the call)", "call", op.p.ID)
	}
}

// run notifies until ctx ends.
func (a *asker) run(ctx context.Context) {
	defer a.bus.stop()
	for {
		select {
		case <-ctx.Done():
			return
		case op := <-a.ops:
			if op.open {
				if a.o.Enabled() {
					a.show(ctx, op.p)
				}
			} else {
				a.withdraw(ctx, op.p.ID)
			}
		}
	}
}

// askText is a waiting call's notification: the agent, the exact
// command, the project, why the policies ask, and the code; how says
// where to answer when the notification has no buttons.
func askText(p wire.Pending, how string) (title, body string) {
	title = "agentjail: " + short(p.Agent, 30) + " waits for you"
	lines := []string{short(p.Summary, 200), "in " + short(p.Project, 120)}
	if len(p.Reasons) > 0 {
		lines = append(lines, short(strings.Join(p.Reasons, "; "), 240))
	}
	if p.Code != "" {
		lines = append(lines, "code "+p.Code)
	}
	if how != "" {
		lines = append(lines, how)
	}
	return title, strings.Join(lines, "\n")
}

// answerWhere is what a notification without buttons says.
const answerWhere = "Answer in agentjail's menu bar, or in a terminal: agentjail pending"

// answerInTerminal is what it says where only a terminal may answer.
const answerInTerminal = "Answer in a terminal: agentjail pending"

// where is what a's notifications without buttons say.
func (a *asker) where() string {
	if a.o.TerminalOnly {
		return answerInTerminal
	}
	return answerWhere
}

// plain sends a waiting call's notification without buttons, through
// the Notifier (its send follows the notifications switch).
func (a *asker) plain(p wire.Pending) {
	title, body := askText(p, a.where())
	a.o.Notifier.deliver(title, body, a.o.Notifier.clock())
}
