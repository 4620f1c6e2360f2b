package cli

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/policies"
)

func newRunCmd() *cobra.Command {
	var headless bool
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the daemon in the foreground (what launchd or systemd keeps alive)",
		Long: `Run the agentjail daemon: listen on the socket, keep the policies compiled,
and answer the hook. It reloads when a policy file or config.yaml changes
and on SIGHUP, and stops cleanly on SIGTERM or SIGINT.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDaemon(cmd.Context(), cmd, headless)
		},
	}
	cmd.Flags().BoolVar(&headless, "headless", false, "no tray icon or desktop notifications")
	return cmd
}

func runDaemon(ctx context.Context, cmd *cobra.Command, headless bool) error {
	level := new(slog.LevelVar)
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	d, err := daemon.New(ctx, daemon.Options{
		Socket:   paths.Socket(),
		Home:     paths.Home(),
		UserHome: paths.UserHome(),
		Pack:     policies.FS,
		Version:  Version,
		Mode:     runMode(),
		Logger:   log,
		LogLevel: level,
	})
	if err != nil {
		if errors.Is(err, daemon.ErrAlreadyRunning) {
			return exitWith(ExitError, "%v", err)
		}
		return exitWith(ExitError, "cannot start: %v", err)
	}
	if !headless {
		log.Info("no tray in this build yet; running headless")
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
