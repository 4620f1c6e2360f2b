package cli

import (
	"fmt"

	"github.com/agentjail/agentjail/internal/version"

	"github.com/spf13/cobra"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), versionLine())
		},
	}
}

// versionLine is what `agentjail version` and `agentjail --version` print.
func versionLine() string {
	return version.Line("agentjail")
}
