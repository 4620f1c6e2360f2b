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
