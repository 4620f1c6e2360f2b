package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/safetext"
	"github.com/agentjail/agentjail/internal/wire"
)

// auditRow counts one agent session's calls.
type auditRow struct {
	Agent   string `json:"agent"`
	Session string `json:"session"`
	// Seen is every call known to have been made: judged or unchecked.
	Seen       int    `json:"seen"`
	Judged     int    `json:"judged"`
	Allowed    int    `json:"allowed"`
	Asked      int    `json:"asked"`
	Denied     int    `json:"denied"`
	Approved   int    `json:"approved"`
	Unchecked  int    `json:"unchecked"`
	FailedOpen int    `json:"failed_open"`
	First      string `json:"first"`
	Last       string `json:"last"`
}

func newAuditCmd() *cobra.Command {
	var since time.Duration
	var agentName string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "audit [--since 24h] [--agent NAME] [--json]",
		Short: "Count, per agent and session, the calls judged and those that ran unchecked",
		Long: `For each agent session in the decision log: the calls seen, judged, allowed,
asked, denied, approved by a person, and those that ran without a decision
(unchecked: the daemon learned of them from the agent's post-tool event or
its own record of tool calls), of which how many because the hook failed
open. ` + "`agentjail logs --unchecked`" + ` lists the unchecked calls with their causes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if since <= 0 {
				return exitWith(ExitUsage, "--since must be a positive duration such as 24h, not %v", since)
			}
			recs, err := auditRecords(cmd, since)
			if err != nil {
				return err
			}
			rows := audit(recs, agentName, time.Now().Add(-since))
			out := cmd.OutOrStdout()
			if asJSON {
				b, _ := json.MarshalIndent(rows, "", "  ")
				fmt.Fprintf(out, "%s\n", safetext.JSON(b))
				return nil
			}
			printAudit(out, rows, since)
			return nil
		},
	}
	cmd.Flags().DurationVar(&since, "since", 24*time.Hour, "how far back")
	cmd.Flags().StringVar(&agentName, "agent", "", "only this agent's sessions")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the rows as JSON")
	return cmd
}

// auditRecords are the decisions audit counts: the log file, or in
// system mode (not root) the caller's own through the daemon.
func auditRecords(cmd *cobra.Command, since time.Duration) ([]decisionlog.Record, error) {
	path := paths.DecisionLog()
	if systemMode() {
		if !isRoot() {
			recs, err := recentFrom(cmd.Context(), daemonClient(), &wire.RecentQuery{After: time.Now().Add(-since).UTC().Format(time.RFC3339Nano)})
			if err != nil {
				return nil, daemonError(err)
			}
			return recs, nil
		}
		path = paths.System().DecisionLog()
	}
	recs, err := decisionlog.Read(path)
	if err != nil {
		return nil, exitWith(ExitError, "reading %s: %v", path, err)
	}
	return recs, nil
}

// audit counts recs made after since per agent and session, the
// sessions with unchecked calls first, then the newest.
func audit(recs []decisionlog.Record, agentName string, since time.Time) []auditRow {
	rows := map[string]*auditRow{}
	var order []string
	for _, r := range recs {
		if r.Source != "" || r.Time.Before(since) || agentName != "" && r.Agent != agentName {
			continue
		}
		key := r.Agent + "\x00" + r.SessionID
		row := rows[key]
		if row == nil {
			row = &auditRow{Agent: r.Agent, Session: r.SessionID, First: r.Time.UTC().Format(time.RFC3339)}
			rows[key] = row
			order = append(order, key)
		}
		row.Last = r.Time.UTC().Format(time.RFC3339)
		row.Seen++
		switch r.Verdict {
		case decisionlog.VerdictUnchecked:
			row.Unchecked++
			if r.Unchecked != nil && r.Unchecked.Cause != "" && isFailOpenCause(r.Unchecked.Cause) {
				row.FailedOpen++
			}
			continue
		case "allow":
			row.Allowed++
		case "ask":
			row.Asked++
		case "deny":
			row.Denied++
		}
		row.Judged++
		if r.Approval != nil && r.Approval.By == "person" && r.Verdict == "allow" {
			row.Approved++
		}
	}
	out := make([]auditRow, 0, len(order))
	for _, k := range order {
		out = append(out, *rows[k])
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Unchecked > 0) != (out[j].Unchecked > 0) {
			return out[i].Unchecked > 0
		}
		return out[i].Last > out[j].Last
	})
	return out
}

// isFailOpenCause: the hook let the call run because it could not reach
// the daemon.
func isFailOpenCause(cause string) bool { return strings.Contains(cause, "failed open") }

func printAudit(out io.Writer, rows []auditRow, since time.Duration) {
	if len(rows) == 0 {
		fmt.Fprintf(out, "no agent calls in the last %v\n", since)
		return
	}
	fmt.Fprintf(out, "%-12s  %-36s  %5s  %6s  %7s  %5s  %6s  %8s  %9s  %11s\n", "AGENT", "SESSION", "SEEN", "JUDGED", "ALLOWED", "ASKED", "DENIED", "APPROVED", "UNCHECKED", "FAILED OPEN")
	for _, r := range rows {
		session := r.Session
		if session == "" {
			session = "(none)"
		}
		fmt.Fprintf(out, "%-12s  %-36s  %5d  %6d  %7d  %5d  %6d  %8d  %9d  %11d\n", clip(safetext.Line(r.Agent), 12), clip(safetext.Line(session), 36), r.Seen, r.Judged, r.Allowed, r.Asked, r.Denied, r.Approved, r.Unchecked, r.FailedOpen)
	}
}
