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
)

// Options configure Install and Uninstall.
type Options struct {
	Home       string // $AGENTJAIL_HOME
	UserHome   string // the user's home directory
	Socket     string // the daemon's socket
	SourceDir  string // where the agentjail and agentjail-hook to install are
	Scope      string // "user" (~/.claude/settings.json) or "project"
	ProjectDir string // the project, for Scope "project"
	// FailClosed and HookTimeout become the hook's flags.
	FailClosed  bool
	HookTimeout time.Duration
	DryRun      bool
	Purge       bool   // Uninstall: remove $AGENTJAIL_HOME too
	ServiceMode string // "" for automatic, or "detached"
	// KeepService leaves the service alone: the tray's "Install Claude
	// Code hook" runs inside the daemon that is already running.
	KeepService bool
	// Version goes into the Info.plist of an AgentJail.app install
	// assembles (macOS).
	Version string
	Out     io.Writer
}

// Binaries installed into $AGENTJAIL_HOME/bin.
var Binaries = []string{"agentjail", "agentjail-hook"}

func (o Options) binDir() string { return filepath.Join(o.Home, "bin") }

// SettingsPath is the Claude Code settings file for the scope.
func (o Options) SettingsPath() string {
	if o.Scope == "project" {
		return filepath.Join(o.ProjectDir, ".claude", "settings.json")
	}
	return filepath.Join(o.UserHome, ".claude", "settings.json")
}

func (o Options) service() ServiceOptions {
	return ServiceOptions{
		Agentjail: filepath.Join(o.binDir(), "agentjail"),
		Home:      o.Home,
		UserHome:  o.UserHome,
		Socket:    o.Socket,
		Log:       filepath.Join(o.Home, "agentjail.log"),
		Mode:      o.ServiceMode,
	}
}

// HookCommandLine is the command Claude Code runs for each tool call.
func (o Options) HookCommandLine() string {
	cmd := quoteArg(filepath.Join(o.binDir(), hookBinary))
	if o.FailClosed {
		cmd += " --fail-closed"
	}
	if o.HookTimeout > 0 && o.HookTimeout != 2*time.Second {
		cmd += " --timeout " + o.HookTimeout.String()
	}
	return cmd
}

// entry is the settings entry; Claude Code's own timeout (seconds) is a
// little longer than the hook's, so the hook's fail mode decides, and a
// stuck hook still never stalls the agent for long. Failing closed, the
// entry also blocks when the hook cannot start at all (onFailure).
func (o Options) entry() HookEntry {
	hook := o.HookTimeout
	if hook <= 0 {
		hook = 2 * time.Second
	}
	cmd := HookCommand{
		Type:    "command",
		Command: o.HookCommandLine(),
		Timeout: int(math.Ceil(hook.Seconds())) + 3,
	}
	if o.FailClosed {
		cmd.OnFailure = "block"
	}
	return HookEntry{Matcher: "*", Hooks: []HookCommand{cmd}}
}

// Install copies the binaries, adds the hook to Claude Code's settings,
// starts the daemon as a service, and waits until it answers.
func Install(ctx context.Context, o Options) error {
	out := o.Out
	settingsPath := o.SettingsPath()
	old, err := os.ReadFile(settingsPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading %s: %w", settingsPath, err)
	}
	missing := err != nil
	updated, err := AddHook(settingsPath, old, o.entry())
	if err != nil {
		return err
	}
	changed := missing || !bytes.Equal(old, updated)

	if o.DryRun {
		steps := Plan(o)
		if o.KeepService {
			steps = slices.DeleteFunc(steps, func(s Step) bool { return s.Kind == StepApp || s.Kind == StepService })
		}
		fmt.Fprint(out, describePlan(steps))
		if changed {
			fmt.Fprint(out, Diff(settingsPath, string(old), string(updated)))
		} else {
			fmt.Fprintf(out, "%s already has the agentjail hook: unchanged\n", settingsPath)
		}
		fmt.Fprintf(out, "would %s\n", DescribeService(o.service()))
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
	}

	if changed {
		st := loadState(o.Home)
		rec, seen := st.Settings[settingsPath]
		if !seen {
			rec = settingsState{Created: missing}
			if !missing {
				rec.Backup = settingsPath + ".agentjail-backup"
				if err := writeAtomic(rec.Backup, old, 0o600); err != nil {
					return fmt.Errorf("backing up %s: %w", settingsPath, err)
				}
				fmt.Fprintf(out, "backed up %s to %s\n", settingsPath, rec.Backup)
			}
		}
		if err := writeAtomic(settingsPath, updated, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", settingsPath, err)
		}
		rec.Written = sha(updated)
		st.Settings[settingsPath] = rec
		if err := saveState(o.Home, st); err != nil {
			return err
		}
		fmt.Fprintf(out, "added the agentjail hook to %s\n", settingsPath)
	} else {
		fmt.Fprintf(out, "%s already has the agentjail hook\n", settingsPath)
	}

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
	fmt.Fprintf(out, "the daemon runs (%s, pid %d, %d policy files)\n", mode, st.PID, len(st.Sources))
	if mode == ModeDetached {
		fmt.Fprint(out, DetachedNote)
	}
	fmt.Fprintf(out, "check it: agentjail status; agentjail try 'cat ~/.ssh/id_rsa'\n")
	return nil
}

// Uninstall removes the hook from the settings it was added to (and from
// the user and project settings in any case), stops and unregisters the
// daemon, and with Purge removes $AGENTJAIL_HOME.
func Uninstall(ctx context.Context, o Options) error {
	out := o.Out
	st := loadState(o.Home)
	files := map[string]bool{}
	for path := range st.Settings {
		files[path] = true
	}
	for _, scope := range []string{"user", "project"} {
		oo := o
		oo.Scope = scope
		files[oo.SettingsPath()] = true
	}
	for path := range files {
		if err := removeFrom(path, st.Settings[path], o.DryRun, out); err != nil {
			return err
		}
	}
	if o.DryRun {
		fmt.Fprintln(out, "would stop and unregister the daemon")
		uninstallApp(o, out)
		if o.Purge {
			fmt.Fprintf(out, "would remove %s\n", o.Home)
		}
		return nil
	}
	if err := StopService(ctx, o.service()); err != nil {
		return fmt.Errorf("stopping the daemon: %w", err)
	}
	fmt.Fprintln(out, "stopped and unregistered the daemon")
	if err := uninstallApp(o, out); err != nil {
		return err
	}
	if o.Purge {
		if err := os.RemoveAll(o.Home); err != nil {
			return err
		}
		fmt.Fprintf(out, "removed %s\n", o.Home)
	} else {
		os.Remove(statePath(o.Home))
	}
	return nil
}

// removeFrom takes our hook out of one settings file. If the file is as
// install left it, the original comes back byte for byte (or the file
// goes, if install created it); otherwise only our entries are removed.
func removeFrom(path string, rec settingsState, dryRun bool, out io.Writer) error {
	cur, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var restored []byte
	deleteFile := false
	switch {
	case rec.Written != "" && rec.Written == sha(cur) && rec.Created:
		deleteFile = true
	case rec.Written != "" && rec.Written == sha(cur) && rec.Backup != "":
		if restored, err = os.ReadFile(rec.Backup); err != nil {
			restored = nil // backup gone: fall back to removing entries
		}
	}
	if restored == nil && !deleteFile {
		var removed bool
		restored, removed, err = RemoveHooks(path, cur)
		if err != nil {
			return err
		}
		if !removed {
			return nil
		}
	}
	if dryRun {
		if deleteFile {
			fmt.Fprintf(out, "would remove %s (install created it)\n", path)
		} else {
			fmt.Fprint(out, Diff(path, string(cur), string(restored)))
		}
		return nil
	}
	if deleteFile {
		if err := os.Remove(path); err != nil {
			return err
		}
		fmt.Fprintf(out, "removed %s (install created it)\n", path)
		return nil
	}
	if err := writeAtomic(path, restored, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(out, "removed the agentjail hook from %s\n", path)
	return nil
}

func quoteArg(s string) string {
	if !strings.ContainsAny(s, " \t'\"\\$`") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
