// Package app is agentjail's desktop face, hosted by `agentjail run`: the
// tray (menu bar on macOS, StatusNotifierItem over DBus on Linux) and a
// notification on every deny. The menu is built by a pure function from a
// snapshot of the daemon's state; the tray code only renders it.
package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/safetext"
)

// Icon states.
const (
	IconHealthy  = "healthy"
	IconBlocked  = "blocked"  // something was blocked in the last minutes
	IconDegraded = "degraded" // policy errors, fail-opens, daemon trouble
)

// RecentMax is how many recent blocks the menu lists.
const RecentMax = 10

// BlockedWindow is how long the icon shows a recent block.
const BlockedWindow = 5 * time.Minute

// Snapshot is what the menu shows, gathered from the daemon.
type Snapshot struct {
	Now            time.Time
	Running        bool
	Rules          int
	DecisionsToday int
	LastError      string               // a policy, config or evaluation error, or fail-opens
	Recent         []decisionlog.Record // newest first
	// Agents are the agents the installer knows, found on this machine or
	// not, and whether each already has the hook.
	Agents      []AgentHook
	PausedUntil time.Time
	// Org is the org policy in one line ("org policy acme r3"), "" when
	// no fleet is configured.
	Org string
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
	Icon     string
	Tooltip  string
	Status   string
	Recent   []RecentItem
	NoRecent bool // "Recent blocks" has nothing yet
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

// RecentItem is one entry under "Recent blocks".
type RecentItem struct {
	Title  string // time, tool, short command, rule
	Reason string // the full reason, shown when chosen
}

// BuildMenu renders a snapshot.
func BuildMenu(s Snapshot) Menu {
	m := Menu{Icon: IconHealthy}
	switch {
	case !s.Running || s.LastError != "":
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
	if m.Icon == IconBlocked {
		m.Tooltip += fmt.Sprintf(" — blocked %s", short(s.Recent[0].Summary, 40))
	}
	for i, r := range s.Recent {
		if i == RecentMax {
			break
		}
		rule := strings.Join(r.RuleIDs, ", ")
		m.Recent = append(m.Recent, RecentItem{
			Title:  fmt.Sprintf("%s  %s  %s  (%s)", r.Time.Local().Format("15:04"), short(r.Tool, 40), short(r.Summary, 40), short(rule, 60)),
			Reason: safetext.Text(strings.Join(r.Reasons, "\n")),
		})
	}
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
