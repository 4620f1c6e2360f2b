//go:build linux

package installer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentjail/agentjail/systemd"
)

// systemdReachable: a systemd --user instance answers.
func systemdReachable(ctx context.Context) bool {
	return run(ctx, "systemctl", "--user", "show-environment") == nil
}

func unitPath(o ServiceOptions) string {
	return filepath.Join(userUnitDir(o.UserHome), systemd.Name)
}

func describeManaged(o ServiceOptions) (string, bool) {
	if !systemdReachable(context.Background()) {
		return "", false
	}
	return fmt.Sprintf("write %s and run `systemctl --user daemon-reload` and `enable --now %s`", unitPath(o), systemd.Name), true
}

func startManaged(ctx context.Context, o ServiceOptions) (string, bool, error) {
	if !systemdReachable(ctx) {
		return "", false, nil
	}
	stopDetached(o) // a detached daemon from an earlier install holds the socket
	if err := writeAtomic(unitPath(o), []byte(systemd.Unit(o.Agentjail, o.Home)), 0o644); err != nil {
		return ModeSystemd, true, err
	}
	if err := run(ctx, "systemctl", "--user", "daemon-reload"); err != nil {
		return ModeSystemd, true, err
	}
	if err := run(ctx, "systemctl", "--user", "enable", "--now", systemd.Name); err != nil {
		return ModeSystemd, true, err
	}
	// On an upgrade the unit was already running the old binary.
	return ModeSystemd, true, run(ctx, "systemctl", "--user", "restart", systemd.Name)
}

func stopManaged(ctx context.Context, o ServiceOptions) error {
	path := unitPath(o)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if systemdReachable(ctx) {
		run(ctx, "systemctl", "--user", "disable", "--now", systemd.Name)
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	if systemdReachable(ctx) {
		return run(ctx, "systemctl", "--user", "daemon-reload")
	}
	return nil
}
