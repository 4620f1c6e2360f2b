package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/app"
	"github.com/agentjail/agentjail/installer"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/safetext"
	"github.com/agentjail/agentjail/internal/wire"
)

type logFilter struct {
	verdict, tool, session string
	agent                  string // only this agent's calls (claude-code, codex ...)
	since                  time.Duration
	// try shows only `agentjail try` decisions, all shows them beside the
	// agents'; by default they are left out, since they are the user's
	// tests, not an agent's calls.
	try, all bool
}

func (f logFilter) keep(r decisionlog.Record, now time.Time) bool {
	return (f.all || (r.Source == decisionlog.SourceTry) == f.try) &&
		(f.verdict == "" || r.Verdict == f.verdict) &&
		(f.tool == "" || strings.EqualFold(r.Tool, f.tool)) &&
		(f.agent == "" || strings.EqualFold(r.Agent, f.agent) || r.Agent == "" && f.agent == agents.Default) &&
		(f.session == "" || r.SessionID == f.session) &&
		(f.since == 0 || !r.Time.Before(now.Add(-f.since)))
}

func newLogsCmd() *cobra.Command {
	var (
		n                 int
		follow, unchecked bool
		asJSON            bool
		f                 logFilter
	)
	cmd := &cobra.Command{
		Use:   "logs [-n 20] [-f] [--verdict deny] [--tool Bash] [--session ID] [--since 1h] [--try|--all] [--json]",
		Short: "Show the latest decisions from the decision log",
		Long: `Show the latest decisions from $AGENTJAIL_HOME/decisions.jsonl as a table
(time, verdict, agent, tool, summary, rule), or as JSON lines with --json. -f keeps
following new decisions. Colours only on a terminal; NO_COLOR turns them off.
Decisions of ` + "`agentjail try`" + ` are logged apart and shown only with --try (them
alone) or --all.

In system mode (` + "`sudo agentjail install --system`" + `) the decision log is the service
user's: logs asks the system daemon and shows your own decisions, from the
latest it keeps in memory (` + fmt.Sprint(wire.MaxRecent) + ` of all users'); run with sudo it reads
the whole log, every user's, with a UID column.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if unchecked {
				if f.verdict != "" && f.verdict != decisionlog.VerdictUnchecked {
					return exitWith(ExitUsage, "--unchecked and --verdict %s ask for two different things", f.verdict)
				}
				f.verdict = decisionlog.VerdictUnchecked
			}
			switch f.verdict {
			case "", "allow", "ask", "deny", decisionlog.VerdictUnchecked:
			default:
				return exitWith(ExitUsage, "--verdict must be allow, ask, deny or unchecked, not %q", f.verdict)
			}
			if f.since < 0 {
				return exitWith(ExitUsage, "--since must be a positive duration such as 1h or 30m, not %v", f.since)
			}
			out := cmd.OutOrStdout()
			p := newLogPrinter(out, asJSON)
			path := paths.DecisionLog()
			if systemMode() {
				if !isRoot() {
					// The log is the service user's: a user reads their
					// own decisions through the daemon.
					return logsFromDaemon(cmd.Context(), cmd.ErrOrStderr(), daemonClient(), n, follow, f, p)
				}
				path, p.uid = paths.System().DecisionLog(), true
			}
			recs, err := decisionlog.Read(path)
			if err != nil {
				return exitWith(ExitError, "reading %s: %v", path, err)
			}
			now := time.Now()
			var kept []decisionlog.Record
			for _, r := range recs {
				if f.keep(r, now) {
					kept = append(kept, r)
				}
			}
			if n > 0 && len(kept) > n {
				kept = kept[len(kept)-n:]
			}
			p.header()
			for _, r := range kept {
				p.print(r)
			}
			if follow {
				return followLog(cmd.Context(), path, f, p)
			}
			if len(kept) == 0 && !asJSON {
				fmt.Fprintln(cmd.ErrOrStderr(), "no decisions logged yet (or none match)")
			}
			return nil
		},
	}
	cmd.Flags().IntVarP(&n, "lines", "n", 20, "how many of the latest decisions (0: all)")
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing new decisions")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON lines")
	cmd.Flags().StringVar(&f.verdict, "verdict", "", "only this verdict: allow, ask, deny or unchecked")
	cmd.Flags().BoolVar(&unchecked, "unchecked", false, "only the calls that ran without a decision (--verdict unchecked), with their likely cause")
	cmd.Flags().StringVar(&f.tool, "tool", "", "only this tool (Bash, Read ...)")
	cmd.Flags().StringVar(&f.agent, "agent", "", "only this agent's calls: "+strings.Join(installer.AgentNames(), ", "))
	cmd.Flags().StringVar(&f.session, "session", "", "only this agent session id")
	cmd.Flags().DurationVar(&f.since, "since", 0, "only the last DURATION (1h, 30m)")
	cmd.Flags().BoolVar(&f.try, "try", false, "only the decisions of `agentjail try` (left out by default)")
	cmd.Flags().BoolVar(&f.all, "all", false, "agents' decisions and those of `agentjail try`")
	return cmd
}

// logPrinter renders records as a table or JSON lines.
type logPrinter struct {
	out    io.Writer
	json   bool
	colour bool
	// uid adds a UID column: whose call each was (the system daemon's
	// log, read by root, holds every user's).
	uid bool
}

func newLogPrinter(out io.Writer, asJSON bool) *logPrinter {
	return &logPrinter{out: out, json: asJSON, colour: !asJSON && isTerminal(out) && os.Getenv("NO_COLOR") == ""}
}

func (p *logPrinter) header() {
	if !p.json {
		uid := ""
		if p.uid {
			uid = fmt.Sprintf("%-*s  ", uidWidth, "UID")
		}
		fmt.Fprintf(p.out, "%-19s  %-7s  %s%-*s  %-*s  %-*s  %s\n", "TIME", "VERDICT", uid, agentWidth, "AGENT", toolWidth, "TOOL", summaryWidth, "SUMMARY", "RULE")
	}
}

func (p *logPrinter) print(r decisionlog.Record) {
	if p.json {
		b, _ := json.Marshal(r)
		fmt.Fprintf(p.out, "%s\n", safetext.JSON(b))
		return
	}
	verdict := fmt.Sprintf("%-7s", r.Verdict)
	if p.colour {
		colour := map[string]string{"deny": "31", "ask": "33", "allow": "32"}[r.Verdict]
		verdict = "\x1b[" + colour + "m" + verdict + "\x1b[0m"
	}
	// Everything but the time and verdict came from the agent or a
	// policy: shown with control characters neutralised.
	summary := clip(safetext.Line(strings.ReplaceAll(r.Summary, "\n", " ")), summaryWidth)
	tool := clip(safetext.Line(r.Tool), toolWidth)
	who := r.Agent
	if who == "" { // logged before records named their agent: Claude Code's
		who = agents.Default
	}
	who = clip(safetext.Line(who), agentWidth)
	rules := safetext.Line(strings.Join(r.RuleIDs, ","))
	if a := r.Approval; a != nil {
		rules += " " + approvalWords(a) // last, so the columns stay put
	}
	if u := r.Unchecked; u != nil {
		rules += "(" + safetext.Line(u.Cause) + "; seen in " + safetext.Line(u.Source) + ")"
	}
	if r.Undelivered {
		rules += " (undelivered)"
	}
	uid := ""
	if p.uid {
		uid = "-" // not known: logged by a user's daemon, or before uids were
		if r.UID != nil {
			uid = strconv.Itoa(*r.UID)
		}
		uid = fmt.Sprintf("%-*s  ", uidWidth, uid)
	}
	fmt.Fprintf(p.out, "%-19s  %s  %s%-*s  %-*s  %-*s  %s\n", r.Time.Local().Format(timeLayout), verdict, uid, agentWidth, who, toolWidth, tool, summaryWidth, summary, rules)
}

// approvalWords says how a held call ended, or which grant allowed it.
func approvalWords(a *decisionlog.Approval) string {
	switch a.By {
	case "person":
		w := "(by a person in the " + safetext.Line(a.Via)
		if a.Grant != "" {
			w += ", grant " + safetext.Line(a.Grant) + " for the " + safetext.Line(a.Scope)
		}
		return w + ")"
	case "grant":
		return "(by grant " + safetext.Line(a.Grant) + ")"
	case "timeout":
		return "(nobody answered)"
	case "gone":
		return "(the agent stopped waiting)"
	}
	return "(" + safetext.Line(a.By) + ")"
}

// Column widths of the table. MCP tool names run long
// (mcp__github__create_pull_request): they are clipped, never allowed to
// push the columns after them out of line.
const (
	agentWidth   = len(agents.Default) // the longest agent name, claude-code
	toolWidth    = 20
	summaryWidth = 50
	uidWidth     = 6
)

// clip shortens s to width characters, ending in … when it cut.
func clip(s string, width int) string {
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	return string(r[:width-1]) + "…"
}

// followLog prints records appended to the log after now, until ctx ends.
// It notices rotation (the file shrinking or being replaced).
func followLog(ctx context.Context, path string, f logFilter, p *logPrinter) error {
	var offset int64
	if fi, err := os.Stat(path); err == nil {
		offset = fi.Size()
	}
	var partial []byte
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		fi, err := os.Stat(path)
		if err != nil {
			continue
		}
		if fi.Size() < offset {
			offset, partial = 0, nil // rotated
		}
		if fi.Size() == offset {
			continue
		}
		fh, err := os.Open(path)
		if err != nil {
			continue
		}
		fh.Seek(offset, io.SeekStart)
		data, _ := io.ReadAll(bufio.NewReader(fh))
		fh.Close()
		offset += int64(len(data))
		data = append(partial, data...)
		lines := strings.Split(string(data), "\n")
		partial = []byte(lines[len(lines)-1])
		for _, line := range lines[:len(lines)-1] {
			var r decisionlog.Record
			if json.Unmarshal([]byte(line), &r) == nil && f.keep(r, time.Now()) {
				p.print(r)
			}
		}
	}
}

// isRoot says the command runs as root; a variable, so tests can choose.
var isRoot = func() bool { return os.Geteuid() == 0 }

// daemonClient is the client of the daemon in force (newClient); a
// variable, so tests can point it at a test daemon.
var daemonClient = newClient

// logsFromDaemon prints the caller's latest decisions as the daemon
// answers them (wire.OpRecent), and with follow the new ones as they
// come, until ctx ends. The daemon filters by whose call it was,
// verdict, time and source; tool, agent and session are filtered here.
func logsFromDaemon(ctx context.Context, errOut io.Writer, c *wire.Client, n int, follow bool, f logFilter, p *logPrinter) error {
	q := &wire.RecentQuery{Verdict: wire.Verdict(f.verdict)}
	switch {
	case f.all:
		q.Source = wire.RecentAllSources
	case f.try:
		q.Source = wire.SourceTry
	}
	if f.since > 0 {
		q.After = time.Now().Add(-f.since).Format(time.RFC3339Nano)
	}
	if f.tool == "" && f.agent == "" && f.session == "" {
		q.Limit = n // else the newest n left after the filters here
	}
	recs, err := recentFrom(ctx, c, q)
	if err != nil {
		return err
	}
	var kept []decisionlog.Record
	for _, r := range recs {
		if f.keep(r, time.Now()) {
			kept = append(kept, r)
		}
	}
	if n > 0 && len(kept) > n {
		kept = kept[len(kept)-n:]
	}
	p.header()
	for _, r := range kept {
		p.print(r)
	}
	if !follow {
		if len(kept) == 0 && !p.json {
			fmt.Fprintf(errOut, "no decisions of yours among the latest %d the system daemon keeps (or none match); `sudo agentjail logs` reads the whole log\n", wire.MaxRecent)
		}
		return nil
	}
	last := time.Now()
	if len(recs) > 0 {
		last = recs[len(recs)-1].Time
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		q.Limit, q.After = 0, last.Format(time.RFC3339Nano)
		recs, err := recentFrom(ctx, c, q)
		if err != nil {
			continue // the daemon restarting, say: ask again
		}
		for _, r := range recs {
			if r.Time.After(last) {
				last = r.Time
			}
			if f.keep(r, time.Now()) {
				p.print(r)
			}
		}
	}
}

// recentFrom asks the daemon for the decisions q names, oldest first.
func recentFrom(ctx context.Context, c *wire.Client, q *wire.RecentQuery) ([]decisionlog.Record, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	rec, err := c.Recent(ctx, q)
	var werr *wire.Error
	if errors.As(err, &werr) && werr.Code == wire.CodeUnknownOp {
		return nil, exitWith(ExitError, "the running daemon predates `agentjail logs` through the daemon: restart it (sudo systemctl restart agentjail), or read the whole log with `sudo agentjail logs`")
	}
	if err != nil {
		return nil, daemonError(err)
	}
	return app.DecodeRecords(rec.Records), nil
}
