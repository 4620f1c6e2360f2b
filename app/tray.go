package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentjail/agentjail/internal/approval"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/safetext"
	"github.com/agentjail/agentjail/internal/wire"
)

// Daemon is what the tray needs from the daemon.
type Daemon interface {
	Status() *wire.Status
	RecentDenies(n int) []decisionlog.Record
	Reload()
}

// Approvals is what the tray needs of the calls that wait for a person
// (approval.Store).
type Approvals interface {
	// Pending lists the calls waiting for uid, oldest first; withCodes
	// adds their one-time codes.
	Pending(uid int, withCodes bool) []wire.Pending
	// Answer answers one and says what it did.
	Answer(wire.ApprovalAnswer, approval.Answerer) (string, error)
	// Watch hears of every call that begins or stops waiting; f must not
	// block.
	Watch(f func(approval.Change))
}

// Options configure the tray.
type Options struct {
	Daemon   Daemon
	Log      *slog.Logger
	Notifier *Notifier
	// NotificationsOn says whether desktop notifications are on
	// (config.yaml's notifications key); nil means on. The Notifier's
	// send follows it for denies; the notifications of waiting calls,
	// sent on the session bus with buttons, follow it here.
	NotificationsOn func() bool
	// Agents reports the agents found on this machine and whether each
	// has the hook (installer.Agents); InstallHook runs the same code as
	// `agentjail install --for agent` (an agent's name, or "all").
	Agents      func() []AgentHook
	InstallHook func(agent string) error
	// Open opens a folder or file in the desktop's default application.
	Open        func(path string) error
	PoliciesDir string
	DecisionLog string
	// Quit stops the daemon; the tray returns once it is asked to.
	Quit func()
}

// ErrNoTray means this build or system has no tray: run headless.
var ErrNoTray = errors.New("no tray on this system")

// Tray states, as `agentjail status` reports them.
const (
	TrayRunning   = "running"
	TrayNoDesktop = "no desktop session"
	TrayHeadless  = "headless by flag"
	TrayNotBuilt  = "not in this build (build on a Mac with Xcode's command-line tools: make install)"
	// TrayNoHost: on Linux the tray is a StatusNotifierItem, which a
	// tray host (a panel) finds through the StatusNotifierWatcher.
	TrayNoHost = "no tray host on the session bus (no StatusNotifierWatcher): nothing shows the icon"
)

// TrayState says whether `agentjail run` shows a tray, and if not, why:
// asked to run headless, built without one (a macOS build without cgo),
// or no desktop session to show it in.
func TrayState(headless, desktop bool) string { return trayState(TrayBuilt, headless, desktop) }

func trayState(built, headless, desktop bool) string {
	switch {
	case headless:
		return TrayHeadless
	case !built:
		return TrayNotBuilt
	case !desktop:
		return TrayNoDesktop
	}
	return TrayRunning
}

// Tray is the running tray's state shared with the daemon's callbacks.
type Tray struct {
	opts    Options
	changed chan struct{}

	mu    sync.Mutex
	today int
	day   string

	// approved are the latest calls a person approved, newest first.
	approved []decisionlog.Record
	// uncheckedSessions are the agent sessions with an unchecked call
	// notified already.
	uncheckedSessions map[string]bool

	// host is who shows the tray, as watchHost last found it; nil where
	// that cannot be told (macOS, where the menu bar always shows it).
	host atomic.Pointer[hostState]

	// approvals are the calls waiting for the person (BindApprovals);
	// answerHere says the tray answers them itself; asker shows each in
	// a notification with buttons.
	approvals  Approvals
	answerHere bool
	asker      *asker
}

// hostState is the tray's line in status and whether a host shows it.
type hostState struct {
	line  string
	shown bool
}

// TrayState is the tray's line in status (wire.Status.Tray) and whether
// a tray host shows it, nil where that cannot be told.
func (t *Tray) TrayState() (string, *bool) {
	if !TrayBuilt {
		return TrayNotBuilt, nil
	}
	h := t.host.Load()
	if h == nil {
		return TrayRunning, nil
	}
	shown := h.shown
	return h.line, &shown
}

// setHost records who shows the tray, and logs a change.
func (t *Tray) setHost(h hostState) {
	if old := t.host.Swap(&h); old == nil || *old != h {
		t.logger().Info("tray: " + h.line)
	}
}

func (t *Tray) logger() *slog.Logger {
	if t.opts.Log != nil {
		return t.opts.Log
	}
	return slog.Default()
}

// NotifyStatus is the fate of the last desktop notification; nil when
// there is no notifier.
func (t *Tray) NotifyStatus() *wire.NotifyStatus {
	if t.opts.Notifier == nil {
		return nil
	}
	return t.opts.Notifier.Status()
}

// NewTray prepares a tray; Bind attaches the daemon, Run shows it.
func NewTray(o Options) *Tray {
	return &Tray{opts: o, changed: make(chan struct{}, 1)}
}

// Bind attaches the daemon the tray shows, and what Quit calls. (The
// daemon is created after the tray, which hears its decisions.)
func (t *Tray) Bind(d Daemon, quit func()) {
	t.opts.Daemon, t.opts.Quit = d, quit
}

// BindApprovals attaches the calls that wait for the person: the menu
// lists them and the icon says so while any waits. With answerHere (the
// daemon's own tray, a.Answer in the same process) the menu answers them
// with the tray's own click and each one opening is notified with
// buttons; otherwise (a tray of its own, which would need the code) the
// menu says how to approve in a terminal. notify (the daemon's own tray
// that may not answer: see daemon.DesktopAnswers) still notifies each one
// opening, without buttons. Call it before Run.
func (t *Tray) BindApprovals(a Approvals, answerHere, notify bool) {
	t.approvals, t.answerHere = a, answerHere
	if (answerHere || notify) && t.opts.Notifier != nil {
		t.asker = newAsker(askOptions{
			TerminalOnly: !answerHere,
			Enabled: func() bool {
				on := t.opts.NotificationsOn == nil || t.opts.NotificationsOn()
				return on && !time.Now().Before(t.opts.Notifier.PausedUntil())
			},
			Answer:   a.Answer,
			Notifier: t.opts.Notifier,
			Log:      t.logger(),
		})
	}
	a.Watch(t.approvalChanged)
}

// approvalChanged hears the store: a call began or stopped waiting.
func (t *Tray) approvalChanged(c approval.Change) {
	if t.asker != nil {
		if c.Opened {
			t.asker.opened(c.Pending)
		} else {
			t.asker.closed(c.Pending)
		}
	}
	t.refresh()
}

// Decided is the daemon's callback for every decision: it counts the
// day's decisions, notifies about denies, keeps the calls a person
// approved for the recent list, and refreshes the menu.
func (t *Tray) Decided(r decisionlog.Record) {
	t.mu.Lock()
	if day := r.Time.Local().Format("2006-01-02"); day != t.day {
		t.day, t.today = day, 0
	}
	t.today++
	if ApprovedByPerson(r) {
		t.approved = append([]decisionlog.Record{r}, t.approved[:min(len(t.approved), RecentMax-1)]...)
	}
	firstUnchecked := false
	if r.Verdict == decisionlog.VerdictUnchecked {
		// The first unchecked call of a session is notified; the rest
		// are counted in status and the menu's health line.
		if t.uncheckedSessions == nil || len(t.uncheckedSessions) > 1000 {
			t.uncheckedSessions = map[string]bool{}
		}
		key := r.Agent + "\x00" + r.SessionID
		firstUnchecked = !t.uncheckedSessions[key]
		t.uncheckedSessions[key] = true
	}
	t.mu.Unlock()
	if firstUnchecked && t.opts.Notifier != nil {
		t.opts.Notifier.Alert(UncheckedText(r))
	}
	// A call the person denied themselves needs no notification.
	byPerson := r.Approval != nil && r.Approval.By == "person"
	if r.Verdict == "deny" && !byPerson && t.opts.Notifier != nil {
		t.opts.Notifier.Deny(r)
	}
	t.refresh()
}

// UncheckedText is the notification for the first call of a session
// that ran without a decision.
func UncheckedText(r decisionlog.Record) (title, body string) {
	cause := ""
	if r.Unchecked != nil {
		cause = r.Unchecked.Cause
	}
	return fmt.Sprintf("agentjail: a %s call ran unchecked", safetext.Line(r.Agent)),
		fmt.Sprintf("%s: %s\n%s\n`agentjail logs --unchecked` lists them", safetext.Line(r.Tool), safetext.Line(r.Summary), safetext.Line(cause))
}

// FailOpenRun notifies a run of calls that ran unchecked (see
// daemon.Options.OnFailOpenRun).
func (t *Tray) FailOpenRun(run wire.FailOpenRun) {
	if t.opts.Notifier != nil {
		t.opts.Notifier.Alert(FailOpenRunText(run))
	}
	t.refresh()
}

// FailOpenRunText is the notification for a run of fail-opens.
func FailOpenRunText(run wire.FailOpenRun) (title, body string) {
	var causes []string
	for _, c := range run.Causes {
		causes = append(causes, wire.CauseText(c))
	}
	return fmt.Sprintf("agentjail: %s ran unchecked", plural.Of(run.Count, "call")),
		short(strings.Join(causes, "; "), 160) + "\nSee `agentjail status`."
}

func (t *Tray) refresh() {
	select {
	case t.changed <- struct{}{}:
	default:
	}
}

// snapshot gathers the menu's content.
func (t *Tray) snapshot() Snapshot {
	st := t.opts.Daemon.Status()
	s := Snapshot{Now: time.Now(), Running: st != nil}
	if st != nil {
		s.Rules = st.Rules
		s.LastError = lastError(st)
		for _, p := range st.Problems {
			if p.Kind == "unchecked" {
				s.Unchecked, s.UncheckedFix = p.Message, p.Fix
			}
		}
		s.Org = orgLine(st.Org)
	}
	s.Recent = t.opts.Daemon.RecentDenies(RecentMax)
	if t.opts.Agents != nil {
		s.Agents = t.opts.Agents()
	}
	if t.opts.Notifier != nil {
		s.PausedUntil = t.opts.Notifier.PausedUntil()
	}
	if t.approvals != nil {
		// The daemon's own tray shows the codes: it is the person's own
		// screen, and a terminal's answer needs them.
		s.Waiting = t.approvals.Pending(os.Getuid(), t.answerHere)
		s.AnswerHere = t.answerHere
	}
	t.mu.Lock()
	if t.day == s.Now.Format("2006-01-02") {
		s.DecisionsToday = t.today
	}
	s.Approved = append([]decisionlog.Record(nil), t.approved...)
	t.mu.Unlock()
	return s
}

// lastError is the problem the tray shows the daemon degraded for, if
// any: the first of the daemon's present problems (wire.Status.Problems)
// but calls that ran unchecked (Snapshot.Unchecked), with what fixes or
// clears it.
func lastError(st *wire.Status) string {
	i := slices.IndexFunc(st.Problems, func(p wire.Problem) bool { return p.Kind != "unchecked" })
	if i < 0 { // none, or only calls that ran unchecked, which have their own line
		return ""
	}
	p := st.Problems[i]
	label := map[string]string{
		"policy": "policy error", "config": "config error", "eval": "evaluation error",
		"decision_log": "decision log", "fail_open": "unchecked calls",
		"hook_timeout": "hook timeout", "fail_mode": "fail mode",
	}[p.Kind]
	if label == "" {
		label = p.Kind
	}
	return fmt.Sprintf("%s: %s; fix: %s", label, p.Message, p.Fix)
}

// Run shows the tray until ctx ends or Quit is chosen. It must be called
// on the main goroutine (macOS runs the menu bar there). It returns
// ErrNoTray at once where there is no tray.
func (t *Tray) Run(ctx context.Context) error {
	if TrayBuilt {
		go t.watchHost(ctx)
	}
	if t.asker != nil {
		go t.asker.run(ctx)
	}
	return runTray(ctx, t)
}

// answer gives the person's answer from the tray's own click, which
// needs no code: only the person at this screen can click the menu.
func (t *Tray) answer(a wire.ApprovalAnswer) {
	if t.approvals == nil || !t.answerHere {
		return
	}
	done, err := t.approvals.Answer(a, approval.Answerer{Via: wire.ViaTray, Trusted: true})
	if err != nil {
		t.logger().Warn("answering from the menu", "call", a.ID, "err", err)
		return
	}
	t.logger().Info("answered from the menu", "done", done)
}
