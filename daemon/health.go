package daemon

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/hookcmd"
	"github.com/agentjail/agentjail/internal/hookstate"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/wire"
)

// requestBudget is the budget of one decide request: config.yaml's, or,
// when the hook said it runs with a shorter --timeout (the one install
// wrote into the agent's settings), the budget for that one, so the
// answer always arrives before the hook gives up. A hook's deadline is
// only believed within the bounds config.yaml accepts.
func requestBudget(cfg config.Config, hookTimeout time.Duration) time.Duration {
	if hookTimeout <= 0 {
		return cfg.RequestBudget()
	}
	hookTimeout = min(max(hookTimeout, config.MinHookTimeout), config.MaxHookTimeout)
	if hookTimeout >= cfg.HookTimeout {
		return cfg.RequestBudget()
	}
	cfg.HookTimeout = hookTimeout
	return cfg.RequestBudget()
}

// hookCall is what the last hook call said about its flags.
type hookCall struct {
	flags wire.HookFlags
	at    time.Time
}

// sawHook remembers the flags of the hook that just called.
func (d *Daemon) sawHook(timeout time.Duration, failClosed bool) {
	d.hookTimeout.Store(int64(timeout))
	if prev := d.hookSeen.Load(); prev != nil && prev.flags.Timeout == timeout.String() && prev.flags.FailClosed == failClosed && time.Since(prev.at) < time.Minute {
		return // the common case: nothing new, and no allocation
	}
	d.hookSeen.Store(&hookCall{wire.HookFlags{Timeout: timeout.String(), FailClosed: failClosed, From: "its last call"}, time.Now()})
}

// writeHookState keeps the hook's failure-path file current with the
// config in force (see hookstate.State). A failure is logged: the hook
// then goes by its flags alone.
func (d *Daemon) writeHookState() {
	cfg := d.decider.Config()
	path := filepath.Join(d.opts.Home, paths.HookStateName)
	if _, cfgErr := d.decider.Problems(); cfgErr != "" && cfg.FailMode != "closed" {
		// A config.yaml that did not load never opens what was closed:
		// with no good configuration known, the defaults in force say
		// open, but the file may say closed from one that loaded before.
		if old, err := hookstate.Read(path); err == nil && old.FailMode == "closed" {
			d.log.Warn("config.yaml has an error: the hook's state file keeps fail_mode closed", "path", path)
			return
		}
	}
	if err := hookstate.Write(path, hookstate.State{FailMode: cfg.FailMode, HookTimeout: cfg.HookTimeout.String()}); err != nil {
		d.log.Warn("cannot write the hook's state file; with the daemon down the hook goes by its own flags", "path", path, "err", err)
	}
}

// fillHealth adds the daemon's present problems to st: the decider's
// (load, config, evaluation errors) come first, from Decider.FillStatus.
func (d *Daemon) fillHealth(st *wire.Status) {
	var probs []wire.Problem
	if n := len(st.LoadErrors); n > 0 {
		first := ", the first:"
		if n == 1 {
			first = ":"
		}
		probs = append(probs, wire.Problem{
			Kind:    "policy",
			Message: fmt.Sprintf("%s%s %s; the last good policies stay in force", plural.Of(n, "policy problem"), first, st.LoadErrors[0].String()),
			Fix:     "fix or remove the file (`agentjail policy test` shows the errors); agentjail reloads it when it changes",
		})
	}
	if st.ConfigError != "" {
		probs = append(probs, wire.Problem{
			Kind:    "config",
			Message: st.ConfigInForce,
			Fix:     fmt.Sprintf("fix %s; agentjail reloads it when it changes", d.decider.ConfigPath()),
		})
	}
	if st.LastGoodError != "" {
		probs = append(probs, wire.Problem{
			Kind:    "config",
			Message: st.LastGoodError,
			Fix:     fmt.Sprintf("check %s and its folder (agentjail's own file, mode 0600); it is written again when config.yaml next loads cleanly", config.LastGoodPath(d.opts.Home)),
		})
	}
	st.Problems = append(probs, st.Problems...)
	if st.LogErrors > 0 {
		if at := d.decisions.LastFailure(); time.Since(at) < wire.ProblemWindow {
			st.Problems = append(st.Problems, wire.Problem{
				Kind:    "decision_log",
				Message: fmt.Sprintf("%s not recorded, the last %s ago: %s", plural.Of(int(st.LogErrors), "decision"), time.Since(at).Round(time.Second), st.LastLogError),
				Fix:     fmt.Sprintf("check the disk and %s's permissions; this clears %v after the last failure", filepath.Join(d.opts.Home, paths.DecisionLogName), wire.ProblemWindow),
			})
		}
	}
	if fo := recentFailOpens(filepath.Join(d.opts.Home, paths.FailLogName), time.Now().Add(-wire.ProblemWindow)); fo.n > 0 {
		st.Problems = append(st.Problems, failOpenProblem(fo, d.opts.Home))
	}
	if p := d.uncheckedProblem(time.Now()); p != nil {
		st.Problems = append(st.Problems, *p)
	}
	st.Problems = append(st.Problems, d.notWiredProblems()...)
	if p := notifyProblem(st.Notify, st.TrayShown, time.Now()); p != nil {
		st.Problems = append(st.Problems, *p)
	}
	st.Hook = d.installedHook()
	cfg := d.decider.Config()
	if d.opts.Agents != nil {
		probs, wired := d.opts.Agents(cfg)
		st.Problems = append(st.Problems, probs...)
		if wired {
			return // every wired entry's flags are checked above
		}
	}
	st.Problems = append(st.Problems, hookProblems(cfg, st.Hook, d.opts.Home)...)
}

// installedHook is what the installed hook runs with: from the agent
// settings install wrote (what the next call will run), else from the
// last hook call; nil when neither is known.
func (d *Daemon) installedHook() *wire.HookFlags {
	if f := settingsHook(d.opts.Home, d.opts.UserHome); f != nil {
		return f
	}
	if c := d.hookSeen.Load(); c != nil {
		f := c.flags
		return &f
	}
	return nil
}

// hookProblems says where the installed hook's flags and config.yaml
// disagree, and what to run.
func hookProblems(cfg config.Config, hook *wire.HookFlags, home string) []wire.Problem {
	if hook == nil {
		return nil
	}
	var probs []wire.Problem
	if hook.Timeout != cfg.HookTimeout.String() {
		probs = append(probs, wire.Problem{
			Kind:    "hook_timeout",
			Message: fmt.Sprintf("config.yaml sets hook_timeout %v but the installed hook runs with --timeout %s (from %s); the daemon answers within the shorter of the two, so %v is not in force", cfg.HookTimeout, hook.Timeout, hook.From, cfg.HookTimeout),
			Fix:     "run `agentjail install` to write hook_timeout into the agent's settings",
		})
	}
	switch {
	case cfg.FailMode == "closed" && !hook.FailClosed:
		probs = append(probs, wire.Problem{
			Kind:    "fail_mode",
			Message: fmt.Sprintf("config.yaml sets fail_mode: closed; the hook applies it when no daemon answers (through %s), but the agent's settings still let a call run when the hook itself cannot start", filepath.Join(home, paths.HookStateName)),
			Fix:     "run `agentjail install` so the agent's settings block then too",
		})
	case cfg.FailMode != "closed" && hook.FailClosed:
		probs = append(probs, wire.Problem{
			Kind:    "fail_mode",
			Message: fmt.Sprintf("config.yaml sets fail_mode: %s but the installed hook runs with --fail-closed, which wins: calls that cannot be checked are blocked", cfg.FailMode),
			Fix:     "run `agentjail install` to apply fail_mode: open, or set fail_mode: closed",
		})
	}
	return probs
}

// settingsHook finds the agentjail hook's flags in the agent settings
// install wrote to (listed in installed.json) or the user's own
// ~/.claude/settings.json, whichever has it first.
func settingsHook(home, userHome string) *wire.HookFlags {
	var files []string
	if userHome != "" {
		files = append(files, filepath.Join(userHome, ".claude", "settings.json"))
	}
	var st struct {
		Settings map[string]json.RawMessage `json:"settings"`
	}
	if b, err := readSmall(filepath.Join(home, "installed.json")); err == nil && json.Unmarshal(b, &st) == nil {
		for path := range st.Settings {
			files = append(files, path)
		}
	}
	for _, path := range files {
		b, err := readSmall(path)
		if err != nil {
			continue
		}
		if f := hookFlagsIn(b); f != nil {
			f.From = path
			return f
		}
	}
	return nil
}

// readSmall reads a regular file up to 16 MiB: never a FIFO, which would
// block a status request.
func readSmall(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return io.ReadAll(io.LimitReader(f, 16<<20))
}

// hookFlagsIn reads the flags of the first agentjail-hook command among
// a Claude Code settings file's PreToolUse hooks.
func hookFlagsIn(settings []byte) *wire.HookFlags {
	var s struct {
		Hooks struct {
			PreToolUse []struct {
				Hooks []struct {
					Command string `json:"command"`
				} `json:"hooks"`
			} `json:"PreToolUse"`
		} `json:"hooks"`
	}
	if json.Unmarshal(settings, &s) != nil {
		return nil
	}
	for _, m := range s.Hooks.PreToolUse {
		for _, h := range m.Hooks {
			if hookcmd.IsHook(h.Command) {
				return parseHookCommand(h.Command)
			}
		}
	}
	return nil
}

// parseHookCommand reads the flags the daemon reports of a hook command
// line, as the hook reads them (hookcmd).
func parseHookCommand(cmd string) *wire.HookFlags {
	f := hookcmd.ParseLine(cmd).Flags
	return &wire.HookFlags{Timeout: f.Timeout.String(), FailClosed: f.FailClosed}
}

// failTail bounds how much of the hook's failure log a status request
// reads: the end of it holds the last hour.
const failTail = 256 << 10

// failRecord is one line of the hook's failure log.
type failRecord = wire.FailRecord

// failOpens are the fail-opens of a period: how many, by cause, and the
// last one.
type failOpens struct {
	n       int
	byCause map[string]int
	causes  []string // in the order first seen
	first   failRecord
	last    failRecord
}

// failOpenProblem names what made the calls run unchecked, each cause
// with its count, and the fix for those causes: a bad event on stdin is
// the agent's doing, not the daemon's.
func failOpenProblem(fo failOpens, home string) wire.Problem {
	var parts []string
	daemon, agent := false, false
	for _, c := range fo.causes {
		parts = append(parts, fmt.Sprintf("%d because %s", fo.byCause[c], wire.CauseText(c)))
		if wire.DaemonCause(c) {
			daemon = true
		} else {
			agent = true
		}
	}
	var fixes []string
	if daemon {
		fixes = append(fixes, fmt.Sprintf("keep the daemon running (`agentjail install` registers it; the installed hook restarts a detached one) and see %s if it stopped", filepath.Join(home, paths.DaemonLogName)))
	}
	if agent {
		fixes = append(fixes, "the agent sent input the hook could not read: check that the hook is wired to a pre-tool event in the agent's settings (`agentjail install` rewrites it)")
	}
	return wire.Problem{
		Kind:    "fail_open",
		Message: fmt.Sprintf("%s ran unchecked in the last hour: %s; the last at %s: %s", plural.Of(fo.n, "call"), strings.Join(parts, ", "), fo.last.Time, fo.last.Error),
		Fix:     fmt.Sprintf("%s; this clears %v after the last one", strings.Join(fixes, "; "), wire.ProblemWindow),
	}
}

// recentFailOpens counts the fail-opens recorded since since, by cause,
// and returns the last one.
func recentFailOpens(path string, since time.Time) failOpens {
	fo := failOpens{byCause: map[string]int{}}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return fo
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fo
	} else if fi.Size() > failTail {
		f.Seek(fi.Size()-failTail, io.SeekStart)
	}
	b, _ := io.ReadAll(io.LimitReader(f, failTail))
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var r failRecord
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Mode != "open" {
			continue
		}
		if t, err := time.Parse(time.RFC3339, r.Time); err == nil && t.After(since) {
			fo.n++
			if fo.n == 1 {
				fo.first = r
			}
			if fo.byCause[r.Cause] == 0 {
				fo.causes = append(fo.causes, r.Cause)
			}
			fo.byCause[r.Cause]++
			fo.last = r
		}
	}
	return fo
}

// notifyProblem reports a desktop notification that failed within the
// last hour, unless a later one was delivered: a deny the user was to see
// at once was shown nowhere. (A tray nothing shows is no problem: the
// tray is optional, and status says so on its own line.)
func notifyProblem(n *wire.NotifyStatus, trayShown *bool, now time.Time) *wire.Problem {
	if n == nil || n.State != wire.NotifyFailed {
		return nil
	}
	at, err := time.Parse(time.RFC3339, n.At)
	if err != nil || now.Sub(at) >= wire.ProblemWindow {
		return nil
	}
	where := "the tray's menu, status and `agentjail logs`"
	if trayShown != nil && !*trayShown {
		where = "status and `agentjail logs` (nothing shows the tray)"
	}
	return &wire.Problem{
		Kind:    "notifications",
		Message: fmt.Sprintf("the last desktop notification (%q, at %s) failed: %s; denies show only in %s", n.Title, at.Local().Format(time.TimeOnly), n.Error, where),
		Fix:     fmt.Sprintf("run a notification service on the session bus (the desktop's own, or dunst or mako), or set notifications: false in config.yaml; this clears with the next notification delivered, or %v after the failure", wire.ProblemWindow),
	}
}
