// Package app is agentjail's desktop face, hosted by `agentjail run`: the
// tray (menu bar on macOS, StatusNotifierItem over DBus on Linux), a
// notification on every deny, and the calls that wait for the person to
// approve them, answered from the menu or from a notification's buttons.
// The menu is built by a pure function from a snapshot of the daemon's
// state; the tray code only renders it.
package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/safetext"
	"github.com/agentjail/agentjail/internal/wire"
)

// Icon states.
const (
	IconHealthy  = "healthy"
	IconBlocked  = "blocked"  // something was blocked in the last minutes
	IconDegraded = "degraded" // policy errors, fail-opens, daemon trouble
	IconWaiting  = "waiting"  // a call waits for the person to answer it
)

// RecentMax is how many recent blocks and approvals the menu lists.
const RecentMax = 10

// WaitingMax bounds the waiting calls the menu lists (approval.MaxPending
// may wait at once; `agentjail pending` lists them all).
const WaitingMax = 8

// BlockedWindow is how long the icon shows a recent block.
const BlockedWindow = 5 * time.Minute

// Snapshot is what the menu shows, gathered from the daemon.
type Snapshot struct {
	Now            time.Time
	Running        bool
	Rules          int
	DecisionsToday int
	LastError      string // a policy, config or evaluation error, or fail-opens
	// Unchecked is the daemon's count of calls that ran unchecked in the
	// last day, with the worst cause ("" when none did), and Fix what to
	// do about them.
	Unchecked, UncheckedFix string
	Recent                  []decisionlog.Record // newest first
	// Agents are the agents the installer knows, found on this machine or
	// not, and whether each already has the hook.
	Agents      []AgentHook
	PausedUntil time.Time
	// Org is the org policy in one line ("org policy acme r3"), "" when
	// no fleet is configured.
	Org string
	// Waiting are the calls waiting for the person, oldest first, with
	// their codes where the tray may show them.
	Waiting []wire.Pending
	// AnswerHere: the tray answers the waiting calls itself (the daemon's
	// own tray). A tray of its own (`agentjail tray`) cannot: the daemon
	// asks it for the code, so its items say how to approve in a terminal.
	AnswerHere bool
	// Approved are the latest calls a person approved, newest first.
	Approved []decisionlog.Record
}

// AgentHook is one agent as the installer sees it (installer.Agents).
type AgentHook struct {
	Name  string // as in `install --for`
	Title string // as people call it
	Found bool   // on this machine
	Wired bool   // its configuration has the hook
}

// Menu is the rendered content of the tray.
type Menu struct {
	Icon    string
	Tooltip string
	// WaitingHeader heads the calls waiting for the person, at the top of
	// the menu; "" when none waits.
	WaitingHeader string
	Waiting       []WaitingItem // at most WaitingMax
	Status        string
	// Unchecked is the line under the status saying calls ran unchecked
	// ("" when none did); choosing it shows UncheckedMore.
	Unchecked     string
	UncheckedMore RecentItem
	Recent        []RecentItem
	NoRecent      bool // the recent list has nothing yet
	// Hooks are the hook items, at most HooksMax: one per agent found
	// (or wired), and one for all found agents not wired yet when there
	// are several.
	Hooks  []HookItem
	Pause  string
	Paused bool
}

// HookItem is one hook item of the menu.
type HookItem struct {
	Title   string
	Agent   string // what `install --for` gets when it is chosen: an agent or "all"
	Enabled bool   // clicking it installs the hook
}

// HooksMax bounds the hook items: every agent and "all".
const HooksMax = 8

// RecentItem is one entry of the recent list: a block, or a call a
// person approved.
type RecentItem struct {
	Title   string // time, tool, short command, rule
	Heading string // the notification's title when it is chosen
	Reason  string // the full reason, shown when chosen
}

// WaitingItem is one call waiting for the person: its submenu answers it.
type WaitingItem struct {
	ID      string // the pending call
	Title   string // the agent, the exact command clipped, its code
	Tooltip string // the project and why the policies ask
	Actions []Action
}

// Action is one answer a person can give to a waiting call, in the menu
// or on a notification's button.
type Action struct {
	Key     string // the notification's action key: allow, session, project, deny
	Title   string
	Enabled bool
	Answer  wire.ApprovalAnswer // the answer it gives (no code: the tray's own click needs none)
}

// Actions are the answers a person can give p: allow once, for the
// session, always in the project (a grant: only when p is grantable, and
// for the session only when its agent sent a session id), or deny.
func Actions(p wire.Pending) []Action {
	allow := func(scope string) wire.ApprovalAnswer {
		return wire.ApprovalAnswer{ID: p.ID, Allow: true, Scope: scope}
	}
	return []Action{
		{Key: "allow", Title: "Allow once", Enabled: true, Answer: allow(wire.ScopeOnce)},
		{Key: "session", Title: "Allow for this session", Enabled: p.Grantable && p.Session != "", Answer: allow(wire.ScopeSession)},
		{Key: "project", Title: "Always in this project", Enabled: p.Grantable, Answer: allow(wire.ScopeProject)},
		{Key: "deny", Title: "Deny", Enabled: true, Answer: wire.ApprovalAnswer{ID: p.ID}},
	}
}

// waitingTitle is a waiting call's title: the agent, the exact command
// or file clipped, and its code when it has one.
func waitingTitle(p wire.Pending) string {
	title := short(p.Agent, 30) + ": " + short(p.Summary, 60)
	if p.Code != "" {
		title += " — code " + p.Code
	}
	return title
}

// waitingWhy is the project and the reasons the policies ask.
func waitingWhy(p wire.Pending) string {
	why := "in " + short(p.Project, 80)
	if len(p.Reasons) > 0 {
		why += " — " + short(strings.Join(p.Reasons, "; "), 200)
	}
	return why
}

// waitingItems renders the waiting calls: where the tray answers them,
// one action each; else one item that says how to approve in a terminal.
func waitingItems(waiting []wire.Pending, answerHere bool) []WaitingItem {
	var out []WaitingItem
	for i, p := range waiting {
		if i == WaitingMax {
			break
		}
		w := WaitingItem{ID: p.ID, Title: waitingTitle(p), Tooltip: waitingWhy(p)}
		if answerHere {
			w.Actions = Actions(p)
		} else {
			w.Actions = []Action{{Title: "approve in a terminal: agentjail approve " + short(p.ID, 20)}}
		}
		out = append(out, w)
	}
	return out
}

// approvedBy is how a person's approval is told in the recent list.
func approvedBy(r decisionlog.Record) string {
	a := r.Approval
	where := map[string]string{wire.ViaTray: "in the menu bar", wire.ViaNotification: "on a notification", wire.ViaTerminal: "in a terminal"}[a.Via]
	switch a.Scope {
	case wire.ScopeSession:
		return fmt.Sprintf("You approved it %s, with a grant for the rest of the session (%s).", where, a.Grant)
	case wire.ScopeProject:
		return fmt.Sprintf("You approved it %s, with a grant for the project (%s).", where, a.Grant)
	}
	return fmt.Sprintf("You approved it %s, once.", where)
}

// ApprovedByPerson says whether r is a call a person approved (not a
// grant, not `agentjail try`).
func ApprovedByPerson(r decisionlog.Record) bool {
	return r.Verdict == "allow" && r.Source == "" && r.Approval != nil && r.Approval.By == "person"
}

// BuildMenu renders a snapshot.
func BuildMenu(s Snapshot) Menu {
	m := Menu{Icon: IconHealthy}
	switch {
	case len(s.Waiting) > 0: // the person is needed now: above everything else
		m.Icon = IconWaiting
	case !s.Running || s.LastError != "" || s.Unchecked != "":
		m.Icon = IconDegraded
	case len(s.Recent) > 0 && s.Now.Sub(s.Recent[0].Time) < BlockedWindow:
		m.Icon = IconBlocked
	}
	if s.Running {
		m.Status = fmt.Sprintf("agentjail: running, %s loaded, %s today", plural.Of(s.Rules, "rule"), plural.Of(s.DecisionsToday, "decision"))
	} else {
		m.Status = "agentjail: not running"
	}
	if s.Running && s.Org != "" {
		m.Status += ", " + short(s.Org, 60)
	}
	if s.LastError != "" {
		m.Status += " — " + short(s.LastError, 60)
	}
	m.Tooltip = m.Status
	if s.Running && s.Unchecked != "" {
		m.Unchecked = "⚠ " + short(s.Unchecked, 100)
		m.UncheckedMore = RecentItem{Heading: "agentjail: calls ran unchecked", Reason: safetext.Text(s.Unchecked + ".\n" + s.UncheckedFix)}
		if s.LastError == "" {
			m.Tooltip += " — " + short(s.Unchecked, 100)
		}
	}
	switch m.Icon {
	case IconBlocked:
		m.Tooltip += fmt.Sprintf(" — blocked %s", short(s.Recent[0].Summary, 40))
	case IconWaiting:
		m.Tooltip += fmt.Sprintf(" — %s waiting for you: %s", plural.Of(len(s.Waiting), "call"), short(s.Waiting[0].Summary, 40))
	}
	m.Waiting = waitingItems(s.Waiting, s.AnswerHere)
	switch {
	case len(s.Waiting) > len(m.Waiting):
		m.WaitingHeader = fmt.Sprintf("Waiting for you (%d, the first %d here; all in `agentjail pending`)", len(s.Waiting), len(m.Waiting))
	case len(s.Waiting) > 0:
		m.WaitingHeader = "Waiting for you"
	}
	m.Recent = recentItems(s.Recent, s.Approved)
	m.NoRecent = len(m.Recent) == 0
	m.Hooks = hookItems(s.Agents)
	m.Paused = s.Now.Before(s.PausedUntil)
	if m.Paused {
		m.Pause = "Notifications paused until " + s.PausedUntil.Local().Format("15:04")
	} else {
		m.Pause = "Pause notifications (1 hour)"
	}
	return m
}

// recentItems merges the latest blocks and approvals, newest first, at
// most RecentMax.
func recentItems(denies, approved []decisionlog.Record) []RecentItem {
	var out []RecentItem
	for len(out) < RecentMax && (len(denies) > 0 || len(approved) > 0) {
		var r decisionlog.Record
		if len(approved) > 0 && (len(denies) == 0 || approved[0].Time.After(denies[0].Time)) {
			r, approved = approved[0], approved[1:]
		} else {
			r, denies = denies[0], denies[1:]
		}
		rule := strings.Join(r.RuleIDs, ", ")
		line := fmt.Sprintf("%s  %s  %s  (%s)", r.Time.Local().Format("15:04"), short(r.Tool, 40), short(r.Summary, 40), short(rule, 60))
		reason := safetext.Text(strings.Join(r.Reasons, "\n"))
		if ApprovedByPerson(r) {
			out = append(out, RecentItem{Title: "✓ approved by you: " + line, Heading: "agentjail: what you approved", Reason: reason + "\n" + approvedBy(r)})
			continue
		}
		out = append(out, RecentItem{Title: line, Heading: "agentjail: why it was blocked", Reason: reason})
	}
	return out
}

// hookItems offers the agents found on this machine: each one not wired
// yet can be installed, each wired one says so, and when several are not
// wired yet one item installs them all (`install --for all`). With no
// agent found it offers Claude Code, as `agentjail install` does.
func hookItems(agents []AgentHook) []HookItem {
	var items []HookItem
	var pending []string
	for _, a := range agents {
		if !a.Found && !a.Wired {
			continue
		}
		title := a.Title
		if title == "" {
			title = a.Name
		}
		if a.Wired {
			items = append(items, HookItem{Title: title + " hook: installed ✓", Agent: a.Name})
			continue
		}
		items = append(items, HookItem{Title: "Install " + title + " hook", Agent: a.Name, Enabled: true})
		pending = append(pending, title)
	}
	if len(items) == 0 {
		return []HookItem{{Title: "Install " + claude.Agent.Title + " hook", Agent: claude.Agent.Name, Enabled: true}}
	}
	if len(pending) > 1 {
		items = append(items, HookItem{Title: "Install hooks for all found agents (" + strings.Join(pending, ", ") + ")", Agent: "all", Enabled: true})
	}
	if len(items) > HooksMax {
		items = items[:HooksMax]
	}
	return items
}

// short cuts s to n runes, on one line, with control and bidi characters
// shown as escapes: s may be text an agent chose (a command, a tool
// name), and a label or notification must show what it is, not what it
// makes the renderer do.
func short(s string, n int) string {
	s = safetext.Line(strings.Join(strings.Fields(s), " "))
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
