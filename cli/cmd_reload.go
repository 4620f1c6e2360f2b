package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/internal/wire"
)

func newReloadCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "reload",
		Short: "Reload policies and config.yaml now",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), 10*time.Second)
			defer cancel()
			st, err := (&wire.Client{}).Reload(ctx)
			if err != nil {
				return daemonError(err)
			}
			if len(st.LoadErrors) > 0 || st.ConfigError != "" {
				printProblems(cmd.OutOrStdout(), st)
				return exitWith(ExitDegraded, "reload found problems; the last good policies and config stay in force")
			}
			fmt.Fprintf(cmd.OutOrStdout(), "reloaded: revision %s, %d policy files\n", st.Revision, len(st.Sources))
			return nil
		},
	}
}
