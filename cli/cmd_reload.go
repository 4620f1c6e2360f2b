package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/safetext"
)

func newReloadCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "reload",
		Short: "Reload policies and config.yaml now",
		Long: `Ask the running daemon to read config.yaml and every policy file again now
(the default pack, $AGENTJAIL_HOME/policies and policy_dirs), rather than
within a moment of a save as it does by itself; SIGHUP does the same.

A file that does not load, or a config.yaml with a mistake, never replaces
what is in force: the last good policies and config keep guarding, and
reload lists the problems and exits 4. Exit 0: the new set is in force.
Exit 3: no daemon is running.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), 10*time.Second)
			defer cancel()
			st, err := newClient().Reload(ctx)
			if err != nil {
				return daemonError(err)
			}
			if len(st.LoadErrors) > 0 || st.ConfigError != "" {
				printProblems(cmd.OutOrStdout(), st)
				return exitWith(ExitDegraded, "reload found problems; what is in force is said above")
			}
			fmt.Fprintf(cmd.OutOrStdout(), "reloaded: revision %s, %s\n", st.Revision, plural.Of(len(st.Sources), "policy file"))
			if len(st.Problems) > 0 {
				// Loaded, but not all is in force (the installed hook's
				// flags differ from config.yaml, say): say what to run.
				for _, p := range st.Problems {
					fmt.Fprintf(cmd.OutOrStdout(), "  %s: %s\n    fix: %s\n", safetext.Line(p.Kind), safetext.Line(p.Message), safetext.Line(p.Fix))
				}
				return exitWith(ExitDegraded, "reloaded, but agentjail is degraded: see the fixes above")
			}
			return nil
		},
	}
}
