package installer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/safetext"
	"github.com/agentjail/agentjail/internal/service"
	"github.com/agentjail/agentjail/internal/wire"
)

// Options configure Install and Uninstall.
type Options struct {
	Home      string // $AGENTJAIL_HOME
	UserHome  string // the user's home directory
	Socket    string // the daemon's socket
	SourceDir string // where the agentjail and agentjail-hook to install are
	// Scope is "user" (~/.claude/settings.json) or "project". For
	// Uninstall, "" is every scope; "user" leaves every project's files
	// alone, "project" looks at ProjectDir's alone.
	Scope      string
	ProjectDir string // the project, for Scope "project"
	// FailClosed and HookTimeout become the hook's flags.
	FailClosed  bool
	HookTimeout time.Duration
	// ApprovalTimeout is config.yaml's approval_timeout: how long the
	// hook holds a call while a person answers (its --hold), and so how
	// much longer each agent must let the hook run. 0 holds nothing.
	ApprovalTimeout time.Duration
	DryRun          bool
	Purge           bool   // Uninstall: remove $AGENTJAIL_HOME too; only as a whole (see Whole)
	ServiceMode     string // "" for automatic, or "detached"
	// KeepService leaves the service alone: the tray's "Install Claude
	// Code hook" runs inside the daemon that is already running.
	KeepService bool
	// Version goes into the Info.plist of an AgentJail.app install
	// assembles (macOS).
	Version string
	// Agents are the agents to wire in or out (--for): claude-code,
	// codex, gemini, copilot, cursor, or all. For Install, none (or all)
	// means every agent found on this machine whose folder is there
	// (Claude Code alone with Scope "project"); a named agent is wired
	// even where its folder must be made. For Uninstall none means every
	// agent.
	Agents []string
	Out    io.Writer
	// System is a system-mode install (`sudo agentjail install
	// --system`, see system.go): the binaries, config and every hook go
	// where root owns them, each agent's hook into its machine-wide
	// settings, and the daemon runs as ServiceUser.
	System bool
	// ServiceUser is the system daemon's account; "" means the system's
	// (paths.System().ServiceUser).
	ServiceUser string
	// ServeUsers are the users whose homes the system daemon is given
	// leave to search (so it can read what it judges there); none
	// means the user who ran sudo.
	ServeUsers []string
	// ManagedHooksOnly also sets each agent's "managed hooks only"
	// switch where it has one, so only the machine-wide hooks run.
	ManagedHooksOnly bool
	// NoConfigFile says there is no config.yaml: the fail mode and
	// timeouts above are the defaults, and messages say so.
	NoConfigFile bool
}

// Binaries installed into $AGENTJAIL_HOME/bin.
var Binaries = []string{"agentjail", "agentjail-hook"}

func (o Options) binDir() string {
	if o.System {
		return paths.System().Libexec
	}
	return filepath.Join(o.Home, paths.BinName)
}

// SettingsPath is the Claude Code settings file for the scope. For a
// project it is .claude/settings.local.json, the project's personal
// settings that are not committed: the hook command holds this user's
// home path, which the team's committed settings.json must not.
func (o Options) SettingsPath() string {
	if o.System {
		// A drop-in of its own: an admin's managed-settings.json stays
		// theirs, and Claude Code reads both.
		return filepath.Join(claudeManagedDir, "managed-settings.d", "50-agentjail.json")
	}
	if o.Scope == "project" {
		return filepath.Join(o.ProjectDir, ".claude", "settings.local.json")
	}
	return filepath.Join(o.UserHome, ".claude", "settings.json")
}

func (o Options) service() ServiceOptions {
	return ServiceOptions{
		Agentjail: filepath.Join(o.binDir(), "agentjail"),
		Home:      o.Home,
		UserHome:  o.UserHome,
		Socket:    o.Socket,
		Log:       filepath.Join(o.Home, paths.DaemonLogName),
		Mode:      o.ServiceMode,
	}
}

// HookCommandLine is the command Claude Code runs for each tool call.
func (o Options) HookCommandLine() string {
	return o.hookCommandLine(o.holdFor(claude.Agent.Name))
}

// hookCommandLine is the hook command with config.yaml's flags, holding
// a call for a person up to hold.
func (o Options) hookCommandLine(hold time.Duration) string {
	cmd := quoteArg(filepath.Join(o.binDir(), hookBinary))
	switch {
	case o.System && !o.FailClosed:
		cmd += " --system --fail-closed=false"
	case o.System:
		cmd += " --system" // fails closed by itself
	case o.FailClosed:
		cmd += " --fail-closed"
	}
	if o.HookTimeout > 0 && o.HookTimeout != defaultHookTimeout {
		cmd += " --timeout " + o.HookTimeout.String()
	}
	if hold > 0 {
		cmd += " --hold " + hold.String()
	}
	return cmd
}

// defaultHookTimeout is the hook's deadline without --timeout.
const defaultHookTimeout = 2 * time.Second

// agentMargin is how much longer than the hook can run an agent lets it:
// room to start the hook and read its answer.
const agentMargin = 1 * time.Second

// hookRun is the longest one run of the hook takes: its deadline
// (--timeout) to reach the daemon, the grace it gives a daemon that is
// starting (wire.StartGrace) and, for a held call, the hold and the
// slack it waits past it (wire.HoldSlack).
func hookRun(hook, hold time.Duration) time.Duration {
	if hook <= 0 {
		hook = defaultHookTimeout
	}
	hook += wire.StartGrace
	if hold > 0 {
		hook += hold + wire.HoldSlack
	}
	return hook
}

// agentTimeout is how long each agent lets the hook run, written into
// its entry in its own unit: the hook's longest run rounded up to a
// whole second, plus agentMargin, so the hook's fail mode or a held
// call's answer decides, never the agent's timeout (most agents run the
// tool when they stop a hook). With hook_timeout 2s it is 2+2+1 = 5s,
// with approval_timeout 60s too it is 2+2+60+2+1 = 67s.
func (o Options) agentTimeout() time.Duration {
	run := hookRun(o.HookTimeout, o.ApprovalTimeout)
	return time.Duration(math.Ceil(run.Seconds()))*time.Second + agentMargin
}

// postCommand is the hook command of an agent's post-tool entry: its
// pre-tool command with --post, so the daemon hears of a call that ran
// from the same hook with the same flags (a --hold there holds nothing).
func postCommand(pre string) string { return pre + " --post" }

// postTimeout is how long an agent lets the post-tool hook run: the
// hook's own deadline rounded up to a whole second, plus agentMargin.
// The hook holds nothing there and always exits 0, so the agent never
// waits on it for longer, and never fails a call for it.
func (o Options) postTimeout() time.Duration {
	run := hookRun(o.HookTimeout, 0)
	return time.Duration(math.Ceil(run.Seconds()))*time.Second + agentMargin
}

// postEvent is the agent's post-tool event install wires ("" for none).
func postEvent(name string) string {
	a, _ := agents.Named(name)
	return a.PostEvent
}

// holdFor is the --hold of the agent's hook: approval_timeout, cut short
// for an agent whose bound on the hook is its own and fixed (Cline's
// 120 s), so that it never stops a held hook.
func (o Options) holdFor(name string) time.Duration {
	hold := o.ApprovalTimeout
	if hold <= 0 {
		return 0
	}
	a, _ := agents.Named(name)
	if fixed := a.HookTimeout.Fixed; fixed > 0 {
		base := time.Duration(math.Ceil(hookRun(o.HookTimeout, 0).Seconds())) * time.Second
		hold = min(hold, (fixed - agentMargin - wire.HoldSlack - base).Truncate(time.Second))
	}
	return max(hold, 0)
}

// entry is the settings entry; Claude Code's own timeout (seconds) is
// agentTimeout, so the hook's fail mode decides, and a stuck hook still
// never stalls the agent for long. Failing closed, the entry also
// blocks when the hook cannot start at all (onFailure).
func (o Options) entry() HookEntry {
	cmd := HookCommand{
		Type:    "command",
		Command: o.HookCommandLine(),
		Timeout: int(o.agentTimeout() / time.Second),
	}
	if o.FailClosed {
		cmd.OnFailure = "block"
	}
	return HookEntry{Matcher: "*", Hooks: []HookCommand{cmd}}
}

// Install copies the binaries, adds the hook to the configuration of
// each agent in o.Agents (Claude Code's settings by default), starts the
// daemon as a service, and waits until it answers.
func Install(ctx context.Context, o Options) error {
	out := o.Out
	choices, err := o.choose()
	if err != nil {
		return err
	}
	parts, _ := o.parts()
	// Every file is computed before any is written: a broken one stops
	// the install with nothing changed.
	edits, err := planEdits(o)
	if err != nil {
		return err
	}
	o.describeChoices(choices, out)

	if o.DryRun {
		steps := Plan(o)
		if o.KeepService {
			steps = slices.DeleteFunc(steps, func(s Step) bool { return s.Kind == StepApp || s.Kind == StepService })
		}
		if _, managed := describeManaged(o.service()); !managed || o.ServiceMode == service.ModeDetached {
			// No service manager answers: install starts the daemon
			// detached and writes no unit, so none is listed.
			steps = slices.DeleteFunc(steps, func(s Step) bool { return s.Kind == StepService })
		}
		fmt.Fprint(out, describePlan(steps))
		if !o.KeepService {
			switch o.linkState() {
			case linkMissing:
				fmt.Fprintf(out, "would link %s -> %s\n", o.LinkPath(), o.installedCommand())
			case linkForeign:
				fmt.Fprintf(out, "would leave %s alone: it is not agentjail's\n", o.LinkPath())
			}
		}
		describeEdits(edits, out)
		o.warnSwitchedOff(parts, out)
		gitAdvice(ctx, o, out)
		if !o.KeepService {
			fmt.Fprintf(out, "would %s\n", DescribeService(o.service()))
		}
		return nil
	}

	if err := os.MkdirAll(o.Home, 0o700); err != nil {
		return err
	}
	for _, name := range Binaries {
		wrote, err := copyAtomic(filepath.Join(o.SourceDir, name), filepath.Join(o.binDir(), name), 0o755)
		if err != nil {
			return fmt.Errorf("installing %s: %w (build it first: make build)", name, err)
		}
		if wrote {
			fmt.Fprintf(out, "installed %s\n", filepath.Join(o.binDir(), name))
		}
	}

	if !o.KeepService {
		// The tray's menu item runs inside an app already running, maybe
		// not from ~/Applications: it wires the hook and leaves the rest.
		if err := installApp(o, out); err != nil {
			return err
		}
		created, err := linkCommand(o)
		if len(created) > 0 {
			st := loadState(o.Home)
			st.LinkDirs = created
			saveState(o.Home, st)
		}
		if err != nil {
			return err
		}
	}

	if err := applyEdits(o, edits, out); err != nil {
		return err
	}
	o.warnSwitchedOff(parts, out)
	gitAdvice(ctx, o, out)

	if o.KeepService {
		return nil
	}
	mode, err := StartService(ctx, o.service())
	if err != nil {
		return fmt.Errorf("starting the daemon (%s): %w", mode, err)
	}
	st, err := WaitReady(ctx, o.Socket, 10*time.Second)
	if err != nil {
		return fmt.Errorf("%w; see %s", err, o.service().Log)
	}
	fmt.Fprintf(out, "the daemon runs (%s, pid %d, %s)\n", mode, st.PID, plural.Of(len(st.Sources), "policy file"))
	if mode == service.ModeDetached {
		fmt.Fprint(out, DetachedNote)
	}
	if st.Headless {
		fmt.Fprintln(out, "no desktop session here: no menu bar or notification shows a call held for you, so answer it in a terminal with `agentjail pending` and `agentjail approve` before approval_timeout denies it")
	}
	// Policy files that did not load are not guarding: say so now, not
	// when a call they were meant to stop goes through.
	if len(st.LoadErrors) > 0 {
		fmt.Fprintf(out, "%s; these rules are not in force until fixed (agentjail status lists them):\n", plural.Of(len(st.LoadErrors), "policy load error"))
		for _, e := range st.LoadErrors {
			fmt.Fprintf(out, "  %s\n", safetext.Line(e.String()))
		}
	}
	if st.ConfigError != "" {
		msg := st.ConfigInForce
		if msg == "" {
			msg = "config.yaml is not in force: " + st.ConfigError
		}
		fmt.Fprintf(out, "%s\n", safetext.Line(msg))
	}
	fmt.Fprint(out, o.commandHint())
	return nil
}

// commandHint ends install: where the agentjail command is, and how to
// run it now. The full path always works; the short name only when the
// link is ours and its folder is on PATH.
func (o Options) commandHint() string {
	cmd := o.installedCommand()
	var b strings.Builder
	fmt.Fprintf(&b, "the agentjail command: %s", cmd)
	if o.linkState() == linkOurs {
		fmt.Fprintf(&b, " (linked from %s)", o.LinkPath())
		if hint := PathHint(o.LinkDir(), os.Getenv("PATH"), os.Getenv("SHELL"), o.UserHome); hint != "" {
			fmt.Fprintf(&b, "\n%s", hint)
		} else {
			cmd = "agentjail"
		}
	}
	fmt.Fprintf(&b, "\ncheck it: %s status; %s try 'cat ~/.ssh/id_rsa'\n", cmd, cmd)
	return b.String()
}

// Uninstall removes the hook from the settings it was added to (and from
// the user and project settings in any case), stops and unregisters the
// daemon, and with Purge removes $AGENTJAIL_HOME.
func Uninstall(ctx context.Context, o Options) error {
	out := o.Out
	if o.Purge && !o.Whole() {
		// Purging removes the installed hook: an agent left wired would
		// run a program that is gone, and a hook that cannot start lets
		// every call through. So purge is all or nothing.
		return ErrPartialPurge
	}
	st := loadState(o.Home)
	files, err := uninstallFiles(o)
	if err != nil {
		return err
	}
	// Every part is attempted: a broken file (a project settings file in
	// the working directory, say) must not leave the rest installed.
	// What failed is reported at the end.
	var failed []error
	var kept []string // files whose hook could not be removed
	touched := false  // a file was (or with DryRun would be) changed
	for _, path := range files {
		acted, err := removeFrom(path, st.Settings[path], o.DryRun, o.Purge, out)
		if err != nil {
			failed = append(failed, err)
			kept = append(kept, path)
		}
		touched = touched || acted
	}
	if !o.Whole() {
		// Some agents or one scope unwired: the daemon goes on guarding
		// the rest.
		if !touched && len(failed) == 0 {
			fmt.Fprintf(out, "no agentjail hook to remove in %s\n", strings.Join(files, ", "))
		}
		fmt.Fprintln(out, "the daemon keeps running, for what is still wired (uninstall without --for and --scope stops it)")
		if err := forgetFiles(o, slices.DeleteFunc(files, func(f string) bool { return slices.Contains(kept, f) })); err != nil {
			failed = append(failed, err)
		}
		return uninstallResult(failed)
	}
	if o.DryRun {
		fmt.Fprintln(out, "would stop and unregister the daemon")
		uninstallApp(o, out)
		unlinkCommand(o, true)
		if o.Purge {
			fmt.Fprintf(out, "would remove %s\n", o.Home)
		}
		return uninstallResult(failed)
	}
	if err := StopService(ctx, o.service()); err != nil {
		failed = append(failed, fmt.Errorf("stopping the daemon: %w", err))
	} else {
		fmt.Fprintln(out, "stopped and unregistered the daemon")
	}
	if err := uninstallApp(o, out); err != nil {
		failed = append(failed, err)
	}
	unlinkCommand(o, false)
	removeEmptyDirs(st.LinkDirs)
	switch {
	case o.Purge:
		if err := os.RemoveAll(o.Home); err != nil {
			failed = append(failed, err)
		} else {
			fmt.Fprintf(out, "removed %s\n", o.Home)
		}
	case len(kept) == 0:
		os.Remove(statePath(o.Home))
	default:
		// Keep what install recorded for the files not restored, so an
		// uninstall run again once they are fixed restores them too.
		st := loadState(o.Home)
		for path := range st.Settings {
			if !slices.Contains(kept, path) {
				delete(st.Settings, path)
			}
		}
		st.LinkDirs = nil
		saveState(o.Home, st)
	}
	return uninstallResult(failed)
}

// ErrPartialPurge refuses --purge with --for naming some agents or with
// --scope.
var ErrPartialPurge = errors.New("--purge removes agentjail as a whole (its binaries, daemon and home), so it unwires every agent in every scope: it cannot be combined with --for naming some agents or with --scope, which would leave a hook that runs a removed program. Unwire some with `agentjail uninstall --for AGENT` (the daemon keeps guarding the rest), or remove everything with `agentjail uninstall --purge`")

// uninstallResult reports the parts uninstall could not do, after doing
// every other.
func uninstallResult(failed []error) error {
	if len(failed) == 0 {
		return nil
	}
	msgs := make([]string, len(failed))
	for i, err := range failed {
		msgs[i] = "  " + err.Error()
	}
	return fmt.Errorf("uninstall did everything else, but not this:\n%s\nfix the above and run uninstall again", strings.Join(msgs, "\n"))
}

// removeFrom takes our hook out of one settings file. If the file is as
// install left it, the original comes back byte for byte (or the file
// goes, if install created it) and the backup, no longer needed, goes;
// otherwise only our entries are removed and the backup stays, unless
// purging. A symlinked file is changed where the link leads; the link
// stays. Folders install created for the file go once empty.
func removeFrom(path string, rec settingsState, dryRun, purge bool, out io.Writer) (bool, error) {
	target, err := writeTarget(path)
	if err != nil {
		return false, err
	}
	cur, err := os.ReadFile(target)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var restored []byte
	deleteFile, fromBackup := false, false
	switch {
	case rec.Edited:
		// Changed by others between install's writes: only our part goes.
	case rec.Written != "" && rec.Written == sha(cur) && rec.Created:
		deleteFile = true
	case rec.Written != "" && rec.Written == sha(cur) && rec.Backup != "":
		if restored, err = os.ReadFile(rec.Backup); err != nil {
			restored = nil // backup gone: fall back to removing entries
		}
		fromBackup = restored != nil
	}
	if restored == nil && !deleteFile {
		var removed bool
		restored, removed, err = removeHooksFrom(path, cur)
		if err != nil {
			if rec.Written == "" && !bytes.Contains(cur, []byte(hookBinary)) {
				return false, nil // broken, but never ours and without our hook: not our business
			}
			return false, err
		}
		if !removed {
			return false, nil
		}
		deleteFile = restored == nil // a file that is all ours
	}
	if !deleteFile {
		if fi, err := os.Stat(target); err == nil {
			if err := checkWritable(target, fi); err != nil {
				return false, err
			}
		}
	}
	dropBackup := rec.Backup != "" && (fromBackup || purge)
	if dryRun {
		if deleteFile {
			fmt.Fprintf(out, "would remove %s (install created it)\n", target)
		} else {
			fmt.Fprint(out, Diff(path, string(cur), string(restored)))
		}
		if dropBackup {
			fmt.Fprintf(out, "would remove %s\n", rec.Backup)
		}
		return true, nil
	}
	if deleteFile {
		if err := os.Remove(target); err != nil {
			return false, err
		}
		fmt.Fprintf(out, "removed %s (install created it)\n", target)
		for _, d := range removeEmptyDirs(rec.CreatedDirs) {
			fmt.Fprintf(out, "removed %s (install created it)\n", d)
		}
		return true, nil
	}
	if err := writeAtomic(target, restored, 0o644); err != nil {
		return false, err
	}
	switch {
	case fromBackup && target != path:
		fmt.Fprintf(out, "restored %s as it was before install (at %s, where the link leads)\n", path, target)
	case fromBackup:
		fmt.Fprintf(out, "restored %s as it was before install\n", path)
	default:
		fmt.Fprintf(out, "removed the agentjail hook from %s\n", path)
	}
	switch {
	case dropBackup:
		if os.Remove(rec.Backup) == nil {
			fmt.Fprintf(out, "removed %s\n", rec.Backup)
		}
	case rec.Backup != "":
		if _, err := os.Stat(rec.Backup); err == nil {
			fmt.Fprintf(out, "kept %s, the file as it was before install (it changed since, so only the hook was taken out); --purge removes it\n", rec.Backup)
		}
	}
	return true, nil
}

func quoteArg(s string) string {
	if !strings.ContainsAny(s, " \t'\"\\$`") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
