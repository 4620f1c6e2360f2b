package cli

import (
	"fmt"
	"io"

	"github.com/agentjail/agentjail/internal/safetext"
	"github.com/agentjail/agentjail/internal/wire"
)

// printOrg shows the org policy (config.yaml's opa: section): whether it
// is in force, and for each bundle the revision in force, how it is
// verified, when it was last downloaded and the last error. Nothing is
// printed when no fleet is configured.
func printOrg(out io.Writer, org *wire.OrgStatus) {
	if org == nil {
		return
	}
	line := safetext.Line
	switch {
	case org.Error != "":
		fmt.Fprintf(out, "org policy: not in force: the opa: section could not be started: %s\n", line(org.Error))
		return
	case org.InForce:
		fmt.Fprintln(out, "org policy: in force (locked: disabled_rules and local allows cannot override it)")
	default:
		fmt.Fprintln(out, "org policy: NOT in force: no bundle has been downloaded or persisted yet")
	}
	for _, b := range org.Bundles {
		rev := "none in force"
		if b.InForce {
			rev = "revision " + line(b.Revision)
		}
		fmt.Fprintf(out, "  bundle %s: %s; verification: %s\n", line(b.Name), rev, line(b.Verification))
		last := b.LastDownload
		if last == "" {
			last = "never"
		}
		fmt.Fprintf(out, "    last download %s", line(last))
		if b.LastActivation != "" {
			fmt.Fprintf(out, ", in force since %s", line(b.LastActivation))
		}
		if b.Persist {
			fmt.Fprintf(out, ", persisted in %s", line(org.PersistDir))
		}
		fmt.Fprintln(out)
		if b.LastError != "" {
			fmt.Fprintf(out, "    last error: %s\n", line(b.LastError))
		}
	}
	if org.DecisionLogs {
		fmt.Fprintln(out, "  decision logs: sent to the collector (masked)")
	}
}
