//go:build linux || (darwin && cgo)

package app

import (
	"context"
	"time"

	"fyne.io/systray"

	"github.com/agentjail/agentjail/internal/wire"
)

// TrayBuilt: this build has the tray (DBus on Linux, Cocoa on macOS).
const TrayBuilt = true

// items are the tray's menu items, created once and updated in place.
type items struct {
	status, recent, none, pause, policies, reload, log, quit *systray.MenuItem
	// unchecked says calls ran unchecked, under the status.
	unchecked   *systray.MenuItem
	recentItems []*systray.MenuItem
	// hooks are HooksMax items, shown as the menu's hook items need.
	hooks []*systray.MenuItem
	// waitHeader and waiting (WaitingMax slots) list the calls waiting
	// for the person, at the top; answers hears their actions' clicks.
	waitHeader *systray.MenuItem
	waiting    []*waitSlot
	answers    chan wire.ApprovalAnswer
	// retired are the actions of calls that stopped waiting, hidden, and
	// removed at a later render (see retire).
	retired []retiredItem
}

// waitSlot is one waiting call's item. Its actions are made for the call
// it shows, each bound to that call's id, and made anew for the next
// call: a click on a menu the panel drew before the call changed answers
// the call it was drawn for (which no longer waits), never another.
type waitSlot struct {
	item    *systray.MenuItem
	call    string
	actions []*systray.MenuItem
}

type retiredItem struct {
	item *systray.MenuItem
	at   time.Time
}

// retireAfter is how long a retired action stays, hidden, before it is
// removed: systray closes a removed item's channel, and a click the
// panel sent on a stale menu at that moment would panic on it.
const retireAfter = 30 * time.Second

func runTray(ctx context.Context, t *Tray) error {
	first := BuildMenu(t.snapshot())
	if setIconsEarly {
		// On Linux, icon and tooltip set from onReady can be lost to a
		// start-up race; set them before Run too. (Not on macOS: Cocoa is
		// not up yet.)
		setTrayIcon(first.Icon)
		systray.SetTitle("agentjail")
		systray.SetTooltip(first.Tooltip)
	}
	ready := func() {
		it := build()
		apply(it, first)
		go t.loop(ctx, it)
	}
	systray.Run(ready, func() {})
	return nil
}

func build() *items {
	systray.SetTitle("agentjail")
	it := &items{answers: make(chan wire.ApprovalAnswer, 16)}
	it.waitHeader = systray.AddMenuItem("Waiting for you", "calls agentjail holds until you answer them")
	it.waitHeader.Disable()
	it.waitHeader.Hide()
	for range WaitingMax {
		w := &waitSlot{item: systray.AddMenuItem("", "")}
		w.item.Hide()
		it.waiting = append(it.waiting, w)
	}
	it.status = systray.AddMenuItem("agentjail", "")
	it.status.Disable()
	it.unchecked = systray.AddMenuItem("", "choose to see what to do about them")
	it.unchecked.Hide()
	systray.AddSeparator()
	it.recent = systray.AddMenuItem("Recent blocks and approvals", "the last calls agentjail denied or you approved")
	it.none = it.recent.AddSubMenuItem("(none yet)", "")
	it.none.Disable()
	for range RecentMax {
		sub := it.recent.AddSubMenuItem("", "choose to see the full reason")
		sub.Hide()
		it.recentItems = append(it.recentItems, sub)
	}
	for range HooksMax {
		h := systray.AddMenuItem("", "installs agentjail's hook into the agent's configuration")
		h.Hide()
		it.hooks = append(it.hooks, h)
	}
	it.pause = systray.AddMenuItemCheckbox("Pause notifications (1 hour)", "", false)
	it.policies = systray.AddMenuItem("Open policies folder", "")
	it.reload = systray.AddMenuItem("Reload policies", "")
	it.log = systray.AddMenuItem("Open decision log", "")
	systray.AddSeparator()
	it.quit = systray.AddMenuItem("Quit", "stop agentjail")
	return it
}

// apply renders a menu onto the items.
func apply(it *items, m Menu) {
	setTrayIcon(m.Icon)
	systray.SetTooltip(m.Tooltip)
	applyWaiting(it, m, time.Now())
	it.status.SetTitle(label(m.Status))
	if m.Unchecked != "" {
		it.unchecked.SetTitle(label(m.Unchecked))
		it.unchecked.Show()
	} else {
		it.unchecked.Hide()
	}
	if m.NoRecent {
		it.none.Show()
	} else {
		it.none.Hide()
	}
	for i, sub := range it.recentItems {
		if i < len(m.Recent) {
			sub.SetTitle(label(m.Recent[i].Title))
			sub.Show()
		} else {
			sub.Hide()
		}
	}
	for i, h := range it.hooks {
		if i >= len(m.Hooks) {
			h.Hide()
			continue
		}
		h.SetTitle(label(m.Hooks[i].Title))
		if m.Hooks[i].Enabled {
			h.Enable()
		} else {
			h.Disable()
		}
		h.Show()
	}
	it.pause.SetTitle(m.Pause)
	if m.Paused {
		it.pause.Check()
	} else {
		it.pause.Uncheck()
	}
}

// applyWaiting renders the waiting calls.
func applyWaiting(it *items, m Menu, now time.Time) {
	if m.WaitingHeader == "" {
		it.waitHeader.Hide()
	} else {
		it.waitHeader.SetTitle(label(m.WaitingHeader))
		it.waitHeader.Show()
	}
	for i, w := range it.waiting {
		if i >= len(m.Waiting) {
			w.item.Hide()
			it.retire(w, now)
			continue
		}
		c := m.Waiting[i]
		if w.call != c.ID {
			it.retire(w, now)
			w.call = c.ID
			for _, a := range c.Actions {
				sub := w.item.AddSubMenuItem(label(a.Title), "")
				if !a.Enabled {
					sub.Disable()
				}
				w.actions = append(w.actions, sub)
				go func(answer wire.ApprovalAnswer, enabled bool) {
					for range sub.ClickedCh {
						if enabled {
							it.answers <- answer
						}
					}
				}(a.Answer, a.Enabled)
			}
		}
		w.item.SetTitle(label(c.Title))
		w.item.SetTooltip(c.Tooltip)
		w.item.Show()
	}
	kept := it.retired[:0]
	for _, r := range it.retired {
		if now.Sub(r.at) >= retireAfter {
			r.item.Remove()
		} else {
			kept = append(kept, r)
		}
	}
	it.retired = kept
}

// retire hides the actions of the call w showed.
func (it *items) retire(w *waitSlot, now time.Time) {
	for _, a := range w.actions {
		a.Hide()
		it.retired = append(it.retired, retiredItem{a, now})
	}
	w.actions, w.call = nil, ""
}

// loop keeps the menu live and answers clicks.
func (t *Tray) loop(ctx context.Context, it *items) {
	clicks := make(chan int, 16)
	for i, sub := range it.recentItems {
		go func() {
			for range sub.ClickedCh {
				clicks <- i
			}
		}()
	}
	hookClicks := make(chan int, 16)
	for i, h := range it.hooks {
		go func() {
			for range h.ClickedCh {
				hookClicks <- i
			}
		}()
	}
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	current := BuildMenu(t.snapshot())
	render := func() {
		current = BuildMenu(t.snapshot())
		apply(it, current)
	}
	for {
		select {
		case <-ctx.Done():
			systray.Quit()
			return
		case <-t.changed:
			render()
		case <-tick.C:
			render()
		case a := <-it.answers:
			t.answer(a)
			render()
		case <-it.unchecked.ClickedCh:
			if current.Unchecked != "" && t.opts.Notifier != nil {
				go t.opts.Notifier.deliver(current.UncheckedMore.Heading, current.UncheckedMore.Reason, time.Now())
			}
		case i := <-clicks:
			if i < len(current.Recent) && t.opts.Notifier != nil {
				// Show the full reason.
				go t.opts.Notifier.deliver(current.Recent[i].Heading, current.Recent[i].Reason, time.Now())
			}
		case i := <-hookClicks:
			if i < len(current.Hooks) && current.Hooks[i].Enabled && t.opts.InstallHook != nil {
				agent := current.Hooks[i].Agent
				if err := t.opts.InstallHook(agent); err != nil {
					t.opts.Log.Error("installing the hook", "agent", agent, "err", err)
				}
			}
			render()
		case <-it.pause.ClickedCh:
			if t.opts.Notifier != nil {
				if current.Paused {
					t.opts.Notifier.Pause(time.Time{})
				} else {
					t.opts.Notifier.Pause(time.Now().Add(time.Hour))
				}
			}
			render()
		case <-it.policies.ClickedCh:
			t.open(t.opts.PoliciesDir)
		case <-it.log.ClickedCh:
			t.open(t.opts.DecisionLog)
		case <-it.reload.ClickedCh:
			t.opts.Daemon.Reload()
		case <-it.quit.ClickedCh:
			if t.opts.Quit != nil {
				t.opts.Quit()
			}
			systray.Quit()
			return
		}
	}
}

func (t *Tray) open(path string) {
	if t.opts.Open == nil {
		return
	}
	if err := t.opts.Open(path); err != nil {
		t.opts.Log.Warn("opening", "path", path, "err", err)
	}
}
