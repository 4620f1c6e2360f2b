package daemon

import (
	"os"
	"path/filepath"

	"github.com/agentjail/agentjail/internal/jail"
)

// jailPlace is the folder the confined calls' profiles are written in,
// and their mode: the user's own in user mode; beside the system socket,
// readable by the users it serves, in system mode (their launchers read
// them).
func jailPlace(opts Options) (dir string, perm os.FileMode, err error) {
	dir, perm, dirPerm := filepath.Join(opts.Home, "jail"), os.FileMode(0o600), os.FileMode(0o700)
	if opts.System {
		dir, perm, dirPerm = filepath.Join(filepath.Dir(opts.Socket), "jail"), 0o644, 0o755
	}
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return "", 0, err
	}
	return dir, perm, os.Chmod(dir, dirPerm)
}

// confinement is the status line's account of the jail: what confines
// the calls the policies let run, or why nothing does.
func (d *Daemon) confinement() string {
	switch {
	case !d.decider.Config().Confine:
		return "off: config.yaml sets confine: false"
	case d.jailErr != nil:
		return "off: cannot keep the calls' profiles: " + d.jailErr.Error()
	}
	return jail.Probe().String()
}

// DesktopAnswers reports whether the menu bar and notification buttons
// may answer held calls, and why not: not where calls are confined but
// cannot be kept off the session bus, through which one could press
// them. (Where nothing confines the calls, approvals are as open as
// before the jail, and status says so.)
func (d *Daemon) DesktopAnswers() (bool, string) {
	if !d.confining() {
		return true, ""
	}
	return d.decider.BusHidden()
}

// confining reports whether the calls the policies let run are confined.
func (d *Daemon) confining() bool {
	return d.decider.Config().Confine && d.jailErr == nil && jail.Probe().Off == ""
}

// answers is the status line of where answers are taken from.
func (d *Daemon) answers() string {
	const terminal = "a terminal (agentjail pending), on the approvals channel that confined calls cannot use"
	// Headless (no session bus, or --headless): nothing shows a held
	// call but a terminal, which is said plainly, as a person waiting on
	// an agent must know where to look.
	const headless = "; this daemon runs headless (no desktop session), so no menu bar or notification shows a held call: run `agentjail pending` in a terminal to answer it before approval_timeout denies it"
	if !d.confining() {
		if d.opts.Desktop == nil {
			return "any process of the user's (calls are not confined)" + headless
		}
		return "any process of the user's (calls are not confined)"
	}
	if d.opts.Desktop == nil {
		return "only " + terminal + headless
	}
	hidden, why := d.decider.BusHidden()
	if !jail.Probe().Scoped && !hidden {
		return "any process of the user's: this kernel's Landlock has no scopes (ABI 6) and calls cannot run in a user namespace of their own (" + why + "), so a confined call can reach the approvals channel"
	}
	if !hidden {
		return terminal + " only; the menu bar and notifications show held calls but take no answer, because a confined call could press them through the session bus (" + why + ")"
	}
	return terminal + ", the menu bar and notification buttons (the session bus is hidden from confined calls)"
}
