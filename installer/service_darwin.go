//go:build darwin

package installer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/agentjail/agentjail/launchd"
)

func plistPath(o ServiceOptions) string {
	return filepath.Join(o.UserHome, "Library", "LaunchAgents", launchd.Label+".plist")
}

func guiDomain() string { return "gui/" + strconv.Itoa(os.Getuid()) }

// launchdReachable: the user's GUI domain exists (not over plain ssh).
func launchdReachable(ctx context.Context) bool {
	return run(ctx, "launchctl", "print", guiDomain()) == nil
}

func describeManaged(o ServiceOptions) (string, bool) {
	if !launchdReachable(context.Background()) {
		return "", false
	}
	return fmt.Sprintf("write %s and load it with `launchctl bootstrap %s`", plistPath(o), guiDomain()), true
}

func startManaged(ctx context.Context, o ServiceOptions) (string, bool, error) {
	if !launchdReachable(ctx) {
		return "", false, nil
	}
	stopDetached(o)
	data, err := launchd.Plist(launchd.Options{Agentjail: o.Agentjail, Home: o.Home, Log: o.Log})
	if err != nil {
		return ModeLaunchd, true, err
	}
	if err := writeAtomic(plistPath(o), data, 0o644); err != nil {
		return ModeLaunchd, true, err
	}
	// Re-install: unload the old agent first; an error means none was loaded.
	run(ctx, "launchctl", "bootout", guiDomain()+"/"+launchd.Label)
	return ModeLaunchd, true, run(ctx, "launchctl", "bootstrap", guiDomain(), plistPath(o))
}

func stopManaged(ctx context.Context, o ServiceOptions) error {
	path := plistPath(o)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	run(ctx, "launchctl", "bootout", guiDomain()+"/"+launchd.Label)
	return os.Remove(path)
}
