package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/installer"
	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/safetext"
)

func newInstallCmd() *cobra.Command {
	var agent, scope string
	var dryRun, system, managedOnly bool
	var serve []string
	var serviceUser string
	cmd := &cobra.Command{
		Use:   "install [--for claude-code|codex|gemini|copilot|cursor|all] [--scope user|project] [--dry-run]",
		Short: "Wire agentjail into your agents and keep the daemon running",
		Long: `Copy agentjail and agentjail-hook into $AGENTJAIL_HOME/bin, add the hook to
each agent's configuration keeping everything else in the file as it was,
register the daemon with launchd or systemd --user (or start it detached
where neither is reachable), and wait until it answers. The agentjail
command is linked from ~/.local/bin (made if need be; a file of that name
that is not ours is left alone); if that folder is not on your PATH,
install prints the line to add.

A settings file that is a symlink is written where the link leads (the
link stays), a read-only one is refused, and one with a key written
twice is refused rather than edited in a copy the agent ignores.

  claude-code  ~/.claude/settings.json; with --scope project,
               ./.claude/settings.local.json (your personal project
               settings, not committed: the entry holds your home path;
               install checks that git ignores it, and says what to add
               to .gitignore where it does not)
  codex        ~/.codex/hooks.json, and the hook's trust in ~/.codex/config.toml
  gemini       hooks.BeforeTool in ~/.gemini/settings.json (comments kept)
  copilot      ~/.copilot/hooks/agentjail.json
  cursor       ~/.cursor/hooks.json
  qwen         ~/.qwen/settings.json
  droid        ~/.factory/hooks.json
  cline        ~/.cline/hooks/PreToolUse
  pi           ~/.pi/agent/extensions/agentjail.ts
  opencode     ~/.config/opencode/plugin/agentjail.js
  kilo         ~/.config/kilo/plugin/agentjail.js
  all          every agent found, as without --for

Without --for, install wires every agent found on this machine whose own
folder (~/.claude, ~/.codex, ~/.gemini, ~/.copilot, ~/.cursor, ~/.qwen,
~/.factory, ~/.cline, ~/.pi/agent, ~/.config/opencode, ~/.config/kilo) is there,
says which it wired and which it did not find, and makes no agent's
folder: an agent found only by its program on PATH is named, not wired.
--for NAME wires that agent even where its folder is missing, and says
that it makes it. An agent whose own switch keeps hooks from running
(Claude Code's disableAllHooks, Gemini CLI's hooksConfig.enabled: false,
Codex's [features] hooks = false, Copilot CLI's disableAllHooks) is
wired with a warning saying which key to change.

--for takes several, comma-separated. Running it again changes nothing,
except to apply config.yaml's fail_mode, hook_timeout and approval_timeout
to every entry.
--dry-run prints what would change.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := installOptions(agent, scope)
			if err != nil {
				return err
			}
			if system {
				o.DryRun, o.Out = dryRun, cmd.OutOrStdout()
				o.ServeUsers, o.ManagedHooksOnly, o.ServiceUser = serve, managedOnly, serviceUser
				sysCfg := systemHookConfig()
				o = withConfig(o, sysCfg)
				o.ManagedHooksOnly = o.ManagedHooksOnly || sysCfg.System.ManagedHooksOnly
				if err := installer.InstallSystem(cmd.Context(), o); err != nil {
					return exitWith(ExitError, "%v", err)
				}
				return nil
			}
			if systemMode() {
				return systemInForce("install")
			}
			cfg, err := installConfig(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			o = withConfig(o, cfg)
			o.DryRun = dryRun
			o.Out = cmd.OutOrStdout()
			if err := installer.Install(cmd.Context(), o); err != nil {
				return exitWith(ExitError, "%v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&agent, "for", "", "the agents to wire in: "+strings.Join(installer.AgentNames(), ", ")+", or all (comma-separated); default every agent found")
	cmd.Flags().StringVar(&scope, "scope", "user", "user (~/.claude/settings.json) or project (./.claude/settings.local.json, not committed)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the changes and change nothing")
	cmd.Flags().BoolVar(&system, "system", false, "system mode (with sudo): a daemon of its own user, root-owned files, hooks in each agent's machine-wide settings")
	cmd.Flags().StringSliceVar(&serve, "user", nil, "with --system: the users whose homes the daemon may search (default: the user who ran sudo)")
	cmd.Flags().BoolVar(&managedOnly, "managed-hooks-only", false, "with --system: let the agents run only machine-wide hooks (also stops your own formatters and linters)")
	cmd.Flags().StringVar(&serviceUser, "service-user", "", "with --system: the daemon's account (default "+paths.System().ServiceUser+")")
	cmd.Flags().MarkHidden("service-user") // for tests, which make throwaway accounts
	return cmd
}

// systemInForce refuses a user-mode install or uninstall where the
// system daemon serves this machine: the machine-wide hooks guard every
// agent of the user's already, a user-mode daemon and hooks beside them
// would judge each call twice, and only root changes the system's.
func systemInForce(verb string) error {
	sys := paths.System()
	what := "a user-mode daemon and hooks beside them would judge every call twice"
	if verb == "uninstall" {
		what = "nothing of yours is installed to remove, and the system daemon keeps running"
	}
	return exitWith(ExitError, "this machine runs agentjail in system mode (%s is root's): its machine-wide hooks guard your agents, so %s. Only root changes it: `sudo agentjail install --system` or `sudo agentjail uninstall --system`; `agentjail status` shows what is in force. A user-mode install of yours from before is reached with AGENTJAIL_HOME=~/.agentjail agentjail %s", sys.Record, what, verb)
}

// systemHookConfig is the configuration a system install writes into
// the hooks (see withConfig): /etc/agentjail/config.yaml's, failing
// closed unless it says fail_mode: open.
func systemHookConfig() config.Config {
	sys := paths.System()
	if _, err := os.Stat(sys.ConfigFile()); err != nil {
		cfg := config.Default()
		cfg.FailMode = "closed" // the first install writes fail_mode: closed
		return cfg
	}
	in := policyset.ConfigInForce(sys.Config)
	if in.Config.FailMode != "open" || in.Err != nil {
		in.Config.FailMode = "closed"
	}
	return in.Config
}

func newUninstallCmd() *cobra.Command {
	var agent, scope string
	var purge, dryRun, system bool
	var serviceUser string
	cmd := &cobra.Command{
		Use:   "uninstall [--for AGENT] [--scope user|project] [--purge] [--dry-run]",
		Short: "Remove the hook from your agents and stop the daemon",
		Long: `Remove agentjail's hook entries from every agent's configuration (leaving
every other hook and key as it was; a file install left untouched gets its
original content back byte for byte), stop and unregister the daemon.

--for names the agents to unwire (comma-separated) and --scope the files:
user (each agent's own settings in your home) or project (this folder's
.claude/settings.local.json, Claude Code being the only agent with a
project scope). Either way only those are unwired and the daemon keeps
running, guarding the rest. --for all is every agent: the same as no
--for, so the daemon stops.

--purge also removes $AGENTJAIL_HOME (binaries, policies, config, logs).
It removes agentjail as a whole, so it refuses --for naming some agents
and --scope: a hook left in another agent would run a removed program.

A config.yaml with an error does not stop uninstall: it says so and goes
on. --dry-run prints what would change and changes nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if system {
				o, err := installOptions(agent, "user")
				if err != nil {
					return err
				}
				o.Purge, o.DryRun, o.Out, o.ServiceUser = purge, dryRun, cmd.OutOrStdout(), serviceUser
				if err := installer.UninstallSystem(cmd.Context(), o); err != nil {
					return exitWith(ExitError, "%v", err)
				}
				return nil
			}
			if systemMode() {
				return systemInForce("uninstall")
			}
			if scope != "" && scope != "user" && scope != "project" {
				return exitWith(ExitUsage, "--scope must be user or project, not %q", scope)
			}
			o, err := installOptions(agent, "user")
			if err != nil {
				return err
			}
			o.Scope = scope
			o.Purge, o.DryRun, o.Out = purge, dryRun, cmd.OutOrStdout()
			if o.Purge && !o.Whole() {
				return exitWith(ExitUsage, "%v", installer.ErrPartialPurge)
			}
			// Nothing uninstall does depends on config.yaml: a mistake in
			// it is worth a word, never a refusal.
			if in := policyset.ConfigInForce(paths.Home()); in.Err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s; uninstall goes on\n", safetext.Line(in.Describe(localClock)))
			}
			if err := installer.Uninstall(cmd.Context(), o); err != nil {
				return exitWith(ExitError, "%v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&agent, "for", "", "only these agents (comma-separated), and the daemon keeps running; default (or all) every agent, and stop the daemon")
	cmd.Flags().StringVar(&scope, "scope", "", "only this scope's files, and the daemon keeps running: user, or project (./.claude/settings.local.json); default every scope")
	cmd.Flags().BoolVar(&purge, "purge", false, "also remove $AGENTJAIL_HOME (binaries, policies, config, logs); not with --for naming some agents or --scope")
	cmd.Flags().BoolVar(&system, "system", false, "undo `sudo agentjail install --system` (with sudo): every file it changed is restored")
	cmd.Flags().StringVar(&serviceUser, "service-user", "", "with --system: the daemon's account")
	cmd.Flags().MarkHidden("service-user")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the changes and change nothing")
	return cmd
}

// installConfig is the configuration install writes into the agents'
// settings (fail_mode, hook_timeout): config.yaml's, or while it has an
// error, the last good one, which the daemon has in force too (said on
// w). With no good configuration ever loaded, install refuses: it would
// write the defaults (fail_mode open) over entries a good one wrote.
func installConfig(w io.Writer) (config.Config, error) {
	in := policyset.ConfigInForce(paths.Home())
	switch {
	case in.Err == nil:
		return in.Config, nil
	case !in.LastGood.IsZero():
		fmt.Fprintf(w, "warning: %s; install writes that one into the agents' settings\n", safetext.Line(in.Describe(localClock)))
		return in.Config, nil
	}
	return config.Config{}, exitWith(ExitError, "%s; fix config.yaml first: install writes its fail_mode, hook_timeout and approval_timeout into the agents' settings", in.Describe(localClock))
}

// localClock names a time as status does.
func localClock(t time.Time) string { return t.Local().Format(timeLayout) }

// withConfig sets what install writes from the configuration in force:
// the hook's fail mode, deadline and hold, and each agent's own timeout
// above them.
func withConfig(o installer.Options, cfg config.Config) installer.Options {
	o.FailClosed, o.HookTimeout, o.ApprovalTimeout = cfg.FailMode == "closed", cfg.HookTimeout, cfg.ApprovalTimeout
	return o
}

func installOptions(agent, scope string) (installer.Options, error) {
	var agents []string
	for _, a := range strings.Split(agent, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		if a != "all" && !slices.Contains(installer.AgentNames(), a) {
			return installer.Options{}, exitWith(ExitUsage, "--for %q: use one of %s, or all", a, strings.Join(installer.AgentNames(), ", "))
		}
		agents = append(agents, a)
	}
	if scope != "user" && scope != "project" {
		return installer.Options{}, exitWith(ExitUsage, "--scope must be user or project, not %q", scope)
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
		ServiceMode: os.Getenv("AGENTJAIL_SERVICE"),
		Version:     Version,
		Agents:      agents,
	}, nil
}
