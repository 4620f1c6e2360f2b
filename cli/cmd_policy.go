package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/policies"
)

func newPolicyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Work with policies",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "test [DIR]",
		Short: "Run the *_test.rego of the default pack and of DIR (default: your policies folder)",
		Long: `Run every test_ rule in the default pack's *_test.rego and in DIR's
(default $AGENTJAIL_HOME/policies), and in the org bundles persisted by
config.yaml's opa: section, compiled together as the daemon compiles them, and print each result as 'opa test -v' does. Exits 5 if a
test fails or errors, 1 if the policies do not load.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := paths.Policies()
			if len(args) == 1 {
				// A folder named on the command line must be there: testing
				// a mistyped path would otherwise run the pack alone and pass.
				dir = args[0]
				if fi, err := os.Stat(dir); err != nil {
					return exitWith(ExitError, "%s: %v; give a folder of *.rego and *_test.rego files", dir, errors.Unwrap(err))
				} else if !fi.IsDir() {
					return exitWith(ExitError, "%s is not a folder; give the folder that holds it", dir)
				}
			}
			pack, err := daemon.PackSources(policies.FS, true)
			if err != nil {
				return exitWith(ExitError, "reading the default pack: %v", err)
			}
			user, errs := daemon.DirSources([]string{dir}, true)
			org, data := orgTestSources(cmd)
			if len(errs) == 0 {
				var results []engine.TestResult
				results, errs = engine.RunTestsWithData(cmd.Context(), append(append(pack, user...), org...), data)
				if len(errs) == 0 {
					return printTests(cmd, results)
				}
			}
			for _, e := range errs {
				fmt.Fprintln(cmd.ErrOrStderr(), e)
			}
			return exitWith(ExitError, "the policies do not load; fix the errors above")
		},
	})
	return cmd
}

func printTests(cmd *cobra.Command, results []engine.TestResult) error {
	out := cmd.OutOrStdout()
	failed := 0
	file := ""
	for _, r := range results {
		if r.File != file {
			file = r.File
			fmt.Fprintf(out, "%s:\n", file)
		}
		fmt.Fprintln(out, r)
		if !r.Passed() && r.Outcome != "SKIPPED" {
			failed++
		}
	}
	fmt.Fprintln(out, "--------------------------------------------------------------------------------")
	if failed > 0 {
		fmt.Fprintf(out, "PASS: %d/%d\nFAIL: %d/%d\n", len(results)-failed, len(results), failed, len(results))
		return &exitError{code: ExitTestsFailed}
	}
	fmt.Fprintf(out, "PASS: %d/%d\n", len(results), len(results))
	return nil
}
