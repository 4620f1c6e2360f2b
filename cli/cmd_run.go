package cli

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/app"
	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/installer"
	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

func newRunCmd() *cobra.Command {
	var headless, openedApp, system bool
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the daemon in the foreground (what launchd or systemd keeps alive)",
		Long: `Run the agentjail daemon: listen on the socket, keep the policies compiled,
and answer the hook. Where a desktop session exists it also shows the tray
(menu bar), a notification on every deny, and the calls that wait for you
to approve them, answered from the menu or the notification's buttons;
--headless turns them off.
It reloads when a policy file or config.yaml changes and on SIGHUP, and
stops cleanly on SIGTERM or SIGINT.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if system {
				return runSystemDaemon(cmd.Context(), cmd)
			}
			return runDaemon(cmd.Context(), cmd, headless, openedApp)
		},
	}
	cmd.Flags().BoolVar(&headless, "headless", false, "no tray icon or desktop notifications")
	cmd.Flags().BoolVar(&system, "system", false, "run the system daemon (what `sudo agentjail install --system` registers), as its service user")
	// Set by Main when AgentJail.app is opened by hand; not for users.
	cmd.Flags().BoolVar(&openedApp, openedAppFlag, false, "opened as AgentJail.app: quit quietly if agentjail already runs")
	cmd.Flags().MarkHidden(openedAppFlag)
	return cmd
}

// memoryLimit is the daemon's soft memory limit unless GOMEMLIMIT sets
// one: the garbage collector works harder as the heap nears it, so a
// burst of large requests slows the daemon down instead of growing it
// without bound. Requests themselves are capped (wire.MaxFrame, a bound
// on requests in flight), so in use the heap stays far below it.
const memoryLimit = 256 << 20

// runDaemon runs the daemon. openedApp: AgentJail.app was opened by hand
// (Finder, open), where a daemon already running is no error.
func runDaemon(ctx context.Context, cmd *cobra.Command, headless, openedApp bool) error {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	level := new(slog.LevelVar)
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	desktop := !headless && app.DesktopAvailable()
	if !headless && !desktop {
		log.Info("no desktop session (no session bus, or it did not answer in time): running headless")
	}
	trayState := app.TrayState(headless, desktop)
	var tray *app.Tray
	opts := daemon.Options{
		Socket:   paths.Socket(),
		Home:     paths.Home(),
		UserHome: paths.UserHome(),
		Pack:     policies.FS,
		Version:  Version,
		Mode:     runMode(),
		Tray:     trayState,
		Logger:   log,
		LogLevel: level,
		Agents:   agentHealth,
	}
	var d *daemon.Daemon
	opts.AgentWired = func(name string) bool {
		for _, a := range installer.Agents(agentOptions(d.Decider().Config())) {
			if a.Name == name {
				return a.Wired
			}
		}
		return true // not an agent the installer knows: cannot tell
	}
	opts.ProjectOff = func(agent, cwd string) []string {
		var out []string
		for _, s := range installer.ProjectOffFor(agentOptions(d.Decider().Config()), agent, cwd) {
			out = append(out, s.File+" "+s.Why)
		}
		return out
	}
	if desktop {
		// Notifications follow config.yaml's notifications key as the
		// daemon last loaded it (d is set before any decision is made).
		tray = newTray(log, func() bool { return d.Decider().Config().Notifications })
		opts.OnDecision = tray.Decided
		opts.OnFailOpenRun = tray.FailOpenRun
		opts.Desktop = tray
	}
	var err error
	d, err = daemon.New(ctx, opts)
	if err != nil {
		if errors.Is(err, daemon.ErrAlreadyRunning) {
			if openedApp {
				// AgentJail.app opened by hand while the agent already
				// runs (from launchd): that one keeps the menu bar.
				log.Info("agentjail already runs; this copy of the app quits", "err", err)
				return nil
			}
			return exitWith(ExitError, "%v", err)
		}
		return exitWith(ExitError, "cannot start: %v", err)
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-hup:
				log.Info("SIGHUP: reloading")
				d.Reload()
			case <-ctx.Done():
				return
			}
		}
	}()
	if tray == nil {
		d.Run(ctx)
		return nil
	}

	// The tray runs on the main goroutine (macOS needs it there); the
	// daemon serves in the background. Either one ending ends both.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tray.Bind(d, cancel)
	// The daemon's own tray answers the waiting calls with its click and
	// their notifications' buttons, unless a confined call could press
	// them through the session bus (status says so).
	desktop, why := d.DesktopAnswers()
	if !desktop {
		log.Warn("the menu bar and notifications take no answers: a confined call could reach the session bus", "why", why)
	}
	tray.BindApprovals(d.Approvals(), desktop, true)
	served := make(chan struct{})
	go func() {
		d.Run(ctx)
		cancel() // it stops on its own when another daemon took the socket over
		close(served)
	}()
	if err := tray.Run(ctx); errors.Is(err, app.ErrNoTray) {
		<-ctx.Done() // the tray said why (loudly); serve on without it
	}
	cancel()
	<-served
	return nil
}

// runSystemDaemon runs the system daemon: as the service user (never
// root, never the user it guards), serving every local user, headless
// (each user's tray is a client of it: `agentjail tray`).
func runSystemDaemon(ctx context.Context, cmd *cobra.Command) error {
	if os.Geteuid() == 0 {
		return exitWith(ExitUsage, "the system daemon does not run as root: its service manager starts it as the %s user (see `sudo agentjail install --system`)", paths.System().ServiceUser)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	level := new(slog.LevelVar)
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	sys := paths.System()
	d, err := daemon.New(ctx, daemon.Options{
		System:      true,
		Socket:      sys.Socket,
		Home:        sys.State,
		ConfigDir:   sys.Config,
		DecisionLog: sys.DecisionLog(),
		Pack:        policies.FS,
		Version:     Version,
		Mode:        "system, " + runMode(),
		Tray:        "each user's own (agentjail tray)",
		Logger:      log,
		LogLevel:    level,
	})
	if err != nil {
		if errors.Is(err, daemon.ErrAlreadyRunning) {
			return exitWith(ExitError, "%v", err)
		}
		return exitWith(ExitError, "cannot start: %v", err)
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-hup:
				log.Info("SIGHUP: reloading")
				d.Reload()
			case <-ctx.Done():
				return
			}
		}
	}()
	d.Run(ctx)
	return nil
}

// newTray builds the tray and its notifier; Bind attaches the daemon.
func newTray(log *slog.Logger, notify func() bool) *app.Tray {
	return app.NewTray(app.Options{
		Log:             log,
		Notifier:        newNotifier(log, notify),
		NotificationsOn: notify,
		Agents: func() []app.AgentHook {
			// Only where the files are matters to what is found and wired.
			o := installer.Options{Home: paths.Home(), UserHome: paths.UserHome(), Socket: paths.Socket(), Scope: "user"}
			var out []app.AgentHook
			for _, a := range installer.Agents(o) {
				out = append(out, app.AgentHook{Name: a.Name, Title: a.Title, Found: a.Found, Wired: a.Wired})
			}
			return out
		},
		InstallHook: func(agent string) error {
			o, err := installOptions(agent, "user")
			if err != nil {
				return err
			}
			cfg, err := installConfig(discard{})
			if err != nil {
				return err
			}
			o = withConfig(o, cfg)
			o.KeepService, o.Out = true, discard{}
			return installer.Install(context.Background(), o)
		},
		Open:        app.OpenPath,
		PoliciesDir: paths.Policies(),
		DecisionLog: paths.DecisionLog(),
	})
}

// newNotifier sends desktop notifications while notify says so
// (config.yaml's notifications key).
func newNotifier(log *slog.Logger, notify func() bool) *app.Notifier {
	return app.NewNotifier(
		func(title, body string) error {
			if !notify() {
				return app.ErrOff
			}
			return app.SendDesktop(title, body)
		},
		func(err error) { log.Warn("desktop notifications do not work here", "err", err) },
	)
}

// agentHealth is the daemon's view of every agent (see
// daemon.Options.Agents), from the same check `agentjail status` makes.
func agentHealth(cfg config.Config) ([]wire.Problem, bool) {
	agents := installer.Agents(agentOptions(cfg))
	wired := false
	for _, a := range agents {
		wired = wired || a.Wired
	}
	return installer.AgentProblems(agents), wired
}

// agentOptions are the installer's options for checking the agents
// against a config: where the files are, and the fail mode, hook
// timeout and hold every entry should carry.
func agentOptions(cfg config.Config) installer.Options {
	o := installer.Options{Home: paths.Home(), UserHome: paths.UserHome(), Socket: paths.Socket(), Scope: "user"}
	if _, err := os.Stat(filepath.Join(paths.Home(), paths.ConfigName)); errors.Is(err, fs.ErrNotExist) {
		o.NoConfigFile = true
	}
	return withConfig(o, cfg)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// runMode names who started the daemon, for status.
func runMode() string {
	switch {
	case os.Getenv("AGENTJAIL_MODE") != "":
		return os.Getenv("AGENTJAIL_MODE") // set by install for a detached daemon
	case os.Getenv("INVOCATION_ID") != "":
		return "systemd"
	case os.Getenv("XPC_SERVICE_NAME") != "" && os.Getenv("XPC_SERVICE_NAME") != "0":
		return "launchd"
	}
	return "foreground"
}
