package installer

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agentjail/agentjail/internal/service"
	"github.com/agentjail/agentjail/launchd"
	"github.com/agentjail/agentjail/systemd"
)

// Step kinds of an install plan.
const (
	StepBinary   = "binary"
	StepApp      = "app"
	StepSettings = "settings"
	StepService  = "service"
)

// Step is one file install writes.
type Step struct {
	Kind string
	Path string
	What string // what it is, for --dry-run
}

// Plan is what Install writes on this system.
func Plan(o Options) []Step { return PlanFor(runtime.GOOS, o) }

// PlanFor is what Install writes on a system (a GOOS value): a plain
// function of its arguments, so the macOS plan is checked on Linux too.
// The service step is the file a service manager would load; where none
// is reachable, install starts the daemon detached instead.
func PlanFor(goos string, o Options) []Step {
	var steps []Step
	for _, name := range Binaries {
		steps = append(steps, Step{StepBinary, filepath.Join(o.binDir(), name), "copy of " + filepath.Join(o.SourceDir, name)})
	}
	if goos == "darwin" {
		app := AppPath(o.UserHome)
		from := "assembled from the installed binaries, Info.plist and icon"
		if src := sourceBundle(o.SourceDir); src != "" {
			from = "copy of " + src
		}
		steps = append(steps, Step{StepApp, app, "AgentJail.app, " + from})
	}
	steps = append(steps, Step{StepSettings, o.SettingsPath(), "Claude Code settings with the agentjail hook"})
	if o.ServiceMode == service.ModeDetached {
		return steps // started detached: no service file
	}
	switch goos {
	case "darwin":
		steps = append(steps, Step{StepService, launchAgentPath(o.UserHome),
			fmt.Sprintf("LaunchAgent %s running `%s run` in the login session", launchd.Label, AppExecutable(AppPath(o.UserHome)))})
	case "linux":
		steps = append(steps, Step{StepService, filepath.Join(userUnitDir(o.UserHome), systemd.Name),
			fmt.Sprintf("systemd --user unit running `%s run`", filepath.Join(o.binDir(), "agentjail"))})
	}
	return steps
}

// launchAgent is the LaunchAgent install writes: it runs the installed
// app's executable, so the menu bar and notifications are AgentJail's (the
// bare binary only when there is no app: a StartService without Install).
func launchAgent(o ServiceOptions) launchd.Options {
	program := o.Agentjail
	if app := AppPath(o.UserHome); IsOurApp(app) {
		program = AppExecutable(app)
	}
	return launchd.Options{Agentjail: program, BundleID: BundleID, Home: o.Home, Log: o.Log}
}

// launchAgentPath is the LaunchAgent's plist.
func launchAgentPath(userHome string) string {
	return filepath.Join(userHome, "Library", "LaunchAgents", launchd.Label+".plist")
}

// describePlan lists the steps but the settings (shown as a diff).
func describePlan(steps []Step) string {
	var b strings.Builder
	for _, s := range steps {
		if s.Kind != StepSettings {
			fmt.Fprintf(&b, "would write %s (%s)\n", s.Path, s.What)
		}
	}
	return b.String()
}
