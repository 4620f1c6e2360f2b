//go:build darwin

package installer

import (
	"fmt"
	"io"
)

// installApp puts AgentJail.app in ~/Applications (see WriteApp).
func installApp(o Options, out io.Writer) error {
	app := AppPath(o.UserHome)
	wrote, err := WriteApp(app, o.SourceDir, o.binDir(), o.Version)
	if err != nil {
		return fmt.Errorf("installing %s: %w", app, err)
	}
	if wrote {
		fmt.Fprintf(out, "installed %s\n", app)
	}
	return nil
}

// uninstallApp removes the AgentJail.app install put in ~/Applications,
// and nothing that is not agentjail's.
func uninstallApp(o Options, out io.Writer) error {
	app := AppPath(o.UserHome)
	if o.DryRun {
		if IsOurApp(app) {
			fmt.Fprintf(out, "would remove %s\n", app)
		}
		return nil
	}
	removed, err := RemoveApp(app)
	if removed {
		fmt.Fprintf(out, "removed %s\n", app)
	}
	return err
}
