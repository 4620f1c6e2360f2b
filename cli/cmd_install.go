package cli

import (
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/installer"
	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/paths"
)

func newInstallCmd() *cobra.Command {
	var agent, scope string
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "install [--for claude-code] [--scope user|project] [--dry-run]",
		Short: "Wire agentjail into Claude Code and keep the daemon running",
		Long: `Copy agentjail and agentjail-hook into $AGENTJAIL_HOME/bin, add the hook to
Claude Code's settings (~/.claude/settings.json, or .claude/settings.json
in this project with --scope project) keeping everything else in the file
as it was, register the daemon with launchd or systemd --user (or start it
detached where neither is reachable), and wait until it answers.
Running it again changes nothing. --dry-run prints what would change.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := installOptions(agent, scope)
			if err != nil {
				return err
			}
			o.DryRun = dryRun
			o.Out = cmd.OutOrStdout()
			if err := installer.Install(cmd.Context(), o); err != nil {
				return exitWith(ExitError, "%v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&agent, "for", "claude-code", "the agent to wire in (claude-code)")
	cmd.Flags().StringVar(&scope, "scope", "user", "user (~/.claude/settings.json) or project (./.claude/settings.json)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the changes and change nothing")
	return cmd
}

func newUninstallCmd() *cobra.Command {
	var agent string
	var purge, dryRun bool
	cmd := &cobra.Command{
		Use:   "uninstall [--for claude-code] [--purge] [--dry-run]",
		Short: "Remove the hook from Claude Code and stop the daemon",
		Long: `Remove agentjail's hook entries from Claude Code's settings (leaving every
other hook and key as it was; a file install left untouched gets its
original content back byte for byte), stop and unregister the daemon.
--purge also removes $AGENTJAIL_HOME.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := installOptions(agent, "user")
			if err != nil {
				return err
			}
			o.Purge, o.DryRun, o.Out = purge, dryRun, cmd.OutOrStdout()
			if err := installer.Uninstall(cmd.Context(), o); err != nil {
				return exitWith(ExitError, "%v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&agent, "for", "claude-code", "the agent to unwire (claude-code)")
	cmd.Flags().BoolVar(&purge, "purge", false, "also remove $AGENTJAIL_HOME (policies, config, logs)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the changes and change nothing")
	return cmd
}

func installOptions(agent, scope string) (installer.Options, error) {
	if agent != "claude-code" {
		return installer.Options{}, exitWith(ExitUsage, "--for %q: only claude-code is supported so far", agent)
	}
	if scope != "user" && scope != "project" {
		return installer.Options{}, exitWith(ExitUsage, "--scope must be user or project, not %q", scope)
	}
	cfg, err := config.Load(paths.Config())
	if err != nil {
		return installer.Options{}, exitWith(ExitError, "%v", err)
	}
	self, err := os.Executable()
	if err != nil {
		return installer.Options{}, exitWith(ExitError, "finding this binary: %v", err)
	}
	self, _ = filepath.EvalSymlinks(self)
	wd, _ := os.Getwd()
	return installer.Options{
		Home:        paths.Home(),
		UserHome:    paths.UserHome(),
		Socket:      paths.Socket(),
		SourceDir:   filepath.Dir(self),
		Scope:       scope,
		ProjectDir:  wd,
		FailClosed:  cfg.FailMode == "closed",
		HookTimeout: cfg.HookTimeout,
		ServiceMode: os.Getenv("AGENTJAIL_SERVICE"),
		Version:     Version,
	}, nil
}
