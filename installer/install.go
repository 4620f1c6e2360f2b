package installer

import (
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
	// Agents are the agents to wire in or out (--for): claude-code,
	// codex, gemini, copilot, cursor, or all (every one found on this
	// machine). None means claude-code for Install and every agent for
	// Uninstall.
	Agents []string
	Out    io.Writer
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

// Install copies the binaries, adds the hook to the configuration of
// each agent in o.Agents (Claude Code's settings by default), starts the
// daemon as a service, and waits until it answers.
func Install(ctx context.Context, o Options) error {
	out := o.Out
	// Every file is computed before any is written: a broken one stops
	// the install with nothing changed.
	edits, err := planEdits(o)
	if err != nil {
		return err
	}

	if o.DryRun {
		steps := Plan(o)
		if o.KeepService {
			steps = slices.DeleteFunc(steps, func(s Step) bool { return s.Kind == StepApp || s.Kind == StepService })
		}
		fmt.Fprint(out, describePlan(steps))
		describeEdits(edits, out)
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

	if err := applyEdits(o, edits, out); err != nil {
		return err
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
	files, err := uninstallFiles(o)
	if err != nil {
		return err
	}
	for _, path := range files {
		if err := removeFrom(path, st.Settings[path], o.DryRun, out); err != nil {
			return err
		}
	}
	if !o.allAgents() {
		// One agent unwired: the daemon goes on guarding the others.
		return forgetFiles(o, files)
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
		restored, removed, err = removeHooksFrom(path, cur)
		if err != nil {
			return err
		}
		if !removed {
			return nil
		}
		deleteFile = restored == nil // a file that is all ours
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
