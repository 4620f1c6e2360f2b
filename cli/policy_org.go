package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/paths"
)

// orgTestSources are the policies and *_test.rego of the org bundles
// persisted on disk (verified as the daemon verifies them), and their
// data, so `agentjail policy test` proves the org's tests pass against
// the policies this machine enforces. Problems are reported on stderr
// and leave the org out: the local tests still run.
func orgTestSources(cmd *cobra.Command) ([]engine.Source, map[string]any) {
	// The fleet in force: config.yaml's, or the last good one while it
	// has an error (status says which).
	cfg := policyset.ConfigInForce(paths.Home()).Config
	if len(cfg.OPA) == 0 {
		return nil, nil
	}
	org, missing, err := engine.PersistedOrg(cmd.Context(), cfg.OPA, paths.Home())
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "org bundles left out: %v\n", err)
		return nil, nil
	}
	for _, name := range missing {
		fmt.Fprintf(cmd.ErrOrStderr(), "org bundle %s: not on disk (it needs persist: true and one download); its tests were not run\n", name)
	}
	if org == nil {
		return nil, nil
	}
	var data map[string]any
	if org.Data != nil {
		data = map[string]any{"agentjail": map[string]any{"org": org.Data}}
	}
	return append(append([]engine.Source(nil), org.Sources...), org.Tests...), data
}
