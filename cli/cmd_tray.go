package cli

import (
	"context"
	"errors"
	"log/slog"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/app"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/wire"
)

func newTrayCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "tray",
		Short: "Show the tray and deny notifications for the daemon in force",
		Long: `Show only the tray (menu bar) and a desktop notification on each of your
calls that is denied, as a client of the daemon over its socket. In system
mode (` + "`sudo agentjail install --system`" + `) the daemon runs as its own user with
no tray: each user runs ` + "`agentjail tray`" + ` in their desktop session and sees
their own decisions, and the calls waiting for them (approve those in a
terminal: ` + "`agentjail pending`" + `). In user mode ` + "`agentjail run`" + ` shows the tray
itself.
It needs a desktop session: without one it says so and exits 1.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTrayClient(cmd.Context(), cmd)
		},
	}
}

// desktopAvailable is app.DesktopAvailable; a variable, so tests can
// choose.
var desktopAvailable = app.DesktopAvailable

// trayPoll is how often `agentjail tray` asks the daemon for new
// decisions: one small request.
const trayPoll = 2 * time.Second

// runTrayClient shows the tray for the daemon in force until it is quit
// or the process is signalled.
func runTrayClient(ctx context.Context, cmd *cobra.Command) error {
	if !app.TrayBuilt {
		return exitWith(ExitError, "no tray: this agentjail is %s", app.TrayNotBuilt)
	}
	if !desktopAvailable() {
		return exitWith(ExitError, "no desktop session here (no session bus, or it did not answer in time), so there is nothing to show a tray in; "+
			"agentjail still guards every call: see `agentjail status` and `agentjail logs`")
	}
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	system := systemMode()
	d := &trayDaemon{Remote: app.Remote{Client: daemonClient(), Log: log}}
	d.notify.Store(true)
	var tray *app.Tray
	if system {
		// The hooks are machine-wide and the log is the service user's:
		// the tray offers neither.
		tray = app.NewTray(app.Options{
			Log:             log,
			Notifier:        newNotifier(log, d.notify.Load),
			NotificationsOn: d.notify.Load,
			PoliciesDir:     paths.Policies(), // the user's own, which may tighten
			Open: func(path string) error {
				if path == "" {
					log.Info("the decision log belongs to agentjail's service user: run `agentjail logs` to see your decisions")
					return nil
				}
				return app.OpenPath(path)
			},
		})
	} else {
		tray = newTray(log, d.notify.Load)
	}
	tray.Bind(d, cancel)
	// It lists the calls waiting for this user; approving takes the
	// code, so its menu says to approve in a terminal.
	tray.BindApprovals(&d.Remote, false, false)
	if d.Status() == nil {
		log.Warn("the daemon does not answer yet; the tray shows it as not running until it does", "socket", d.Remote.Client.SocketPath())
	}
	go d.Follow(ctx, trayPoll, tray.Decided)
	if err := tray.Run(ctx); errors.Is(err, app.ErrNoTray) {
		return exitWith(ExitError, "no tray on this system: %v", err)
	} else if err != nil {
		return exitWith(ExitError, "the tray stopped: %v", err)
	}
	return nil
}

// trayDaemon is the tray's view of a daemon over its socket, which
// also keeps the daemon's notifications switch (config.yaml's
// notifications key) from the status the tray asks for every few
// seconds.
type trayDaemon struct {
	app.Remote
	notify atomic.Bool
}

func (d *trayDaemon) Status() *wire.Status {
	st := d.Remote.Status()
	if st != nil && st.Notifications != nil {
		d.notify.Store(*st.Notifications)
	}
	return st
}
