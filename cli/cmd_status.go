package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/hook"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/safetext"
	"github.com/agentjail/agentjail/internal/wire"
)

func newStatusCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show whether the daemon runs, its policies, counters and problems",
		Long: `Show whether the daemon runs (pid, uptime, version), its socket, whether a
tray host shows its tray icon, whether the last desktop notification was
delivered, the policy files in force with any load errors, decisions served
by verdict since the daemon started, and the calls the hook could not check
(fail-opens).

Health describes now: the daemon is degraded while a policy file or
config.yaml does not load, for an hour after an evaluation error, a
decision the decision log could not record, a call the hook let through
unchecked (a fail-open) or a desktop notification that failed (until one
is delivered), and while the installed hook's flags differ from
config.yaml's fail_mode or hook_timeout. Each problem is listed with what
fixes or clears it. A tray nothing shows is said, but is no problem: the
tray is optional.

Exit code: 0 running and healthy, 3 not running, 4 running but degraded.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return status(cmd.Context(), cmd.OutOrStdout(), asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")
	return cmd
}

// statusReport is what `status --json` prints.
type statusReport struct {
	Running   bool          `json:"running"`
	Socket    string        `json:"socket"`
	Daemon    *wire.Status  `json:"daemon,omitempty"`
	FailOpens failOpenStats `json:"fail_opens"`
	Healthy   bool          `json:"healthy"`
}

type failOpenStats struct {
	Total      int              `json:"total"`
	SinceStart int              `json:"since_start"`
	Last       *hook.FailRecord `json:"last,omitempty"`
}

func status(ctx context.Context, out io.Writer, asJSON bool) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	rep := statusReport{Socket: paths.Socket()}
	st, err := (&wire.Client{}).Status(ctx)
	if err == nil {
		rep.Running, rep.Daemon = true, st
	}
	var since time.Time
	if st != nil {
		since, _ = time.Parse(time.RFC3339, st.StartedAt)
	}
	rep.FailOpens = readFailOpens(paths.FailLog(), since)
	rep.Healthy = rep.Running && healthy(st, rep.FailOpens)

	if asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintf(out, "%s\n", safetext.JSON(b))
	} else {
		printStatus(out, rep, err)
	}
	switch {
	case !rep.Running:
		return &exitError{code: ExitNotRunning}
	case !rep.Healthy:
		return &exitError{code: ExitDegraded}
	}
	return nil
}

// healthy reports a daemon with nothing to fix now: the daemon lists
// its present problems (see wire.Status.Problems), fail-opens of the
// last hour among them. fo is what the CLI read itself; it only counts.
func healthy(st *wire.Status, fo failOpenStats) bool {
	return len(st.Problems) == 0
}

func printStatus(out io.Writer, rep statusReport, dialErr error) {
	paint := coloursFor(out).paint
	if !rep.Running {
		fmt.Fprintf(out, "agentjail: %s (%v)\n", paint(red, "not running"), dialErr)
		fmt.Fprintf(out, "  %s\n", wire.StartAdvice())
	} else {
		st := rep.Daemon
		started, _ := time.Parse(time.RFC3339, st.StartedAt)
		// Every string below may carry text an agent chose (a path, a
		// command quoted in an error): control characters are shown,
		// never sent to the terminal.
		line := safetext.Line
		fmt.Fprintf(out, "agentjail: %s (pid %d, up %s, version %s, %s)\n", paint(green, "running"), st.PID, time.Since(started).Round(time.Second), line(st.Version), line(st.Mode))
		fmt.Fprintf(out, "socket:    %s\n", line(st.Socket))
		if st.Tray != "" {
			fmt.Fprintf(out, "tray:      %s\n", line(st.Tray))
		}
		if n := notifyLine(st, time.Now()); n != "" {
			fmt.Fprintf(out, "notifications: %s\n", line(n))
		}
		fmt.Fprintf(out, "policies:  revision %s, %d rules in %d files, loaded %s\n", line(st.Revision), st.Rules, len(st.Sources), line(localTime(st.LoadedAt)))
		for _, s := range st.Sources {
			fmt.Fprintf(out, "  %s (%s)\n", line(s.Name), line(s.RegoVersion))
		}
		fmt.Fprintf(out, "decisions: %s allow, %s ask, %s deny %s\n",
			paint(green, fmt.Sprint(st.Decisions[wire.Allow])), paint(yellow, fmt.Sprint(st.Decisions[wire.Ask])), paint(red, fmt.Sprint(st.Decisions[wire.Deny])),
			decisionsPeriod(st, time.Now()))
		printConfig(out, st)
		printOrg(out, st.Org)
		if st.EvalErrors > 0 {
			fmt.Fprintf(out, "evaluation errors: %d (last: %s); those calls were denied\n", st.EvalErrors, line(st.LastEvalErr))
		}
		if st.LogErrors > 0 {
			fmt.Fprintf(out, "decision log: %d decisions not recorded (last: %s); check the disk and the file's permissions\n", st.LogErrors, line(st.LastLogError))
		}
		printProblems(out, st)
	}
	fo := rep.FailOpens
	switch {
	case fo.Total == 0:
		fmt.Fprintln(out, "fail-opens: none recorded")
	default:
		fmt.Fprintf(out, "fail-opens: %d recorded, %d since the daemon started; last %s: %s\n", fo.Total, fo.SinceStart, safetext.Line(localTime(fo.Last.Time)), safetext.Line(fo.Last.Error))
	}
	if rep.Running && !rep.Healthy {
		fmt.Fprintf(out, "health: %s\n", paint(yellow, "degraded"))
		for _, p := range rep.Daemon.Problems {
			fmt.Fprintf(out, "  %s: %s\n    fix: %s\n", safetext.Line(p.Kind), safetext.Line(p.Message), safetext.Line(p.Fix))
		}
	} else if rep.Running {
		fmt.Fprintf(out, "health: %s\n", paint(green, "ok"))
	}
}

// decisionsPeriod says what the decision counters cover: the daemon's
// life, which a restart (install does one) begins anew; the decision log
// has the rest.
func decisionsPeriod(st *wire.Status, now time.Time) string {
	since := st.DecisionsSince
	if since == "" {
		since = st.StartedAt // a daemon older than the field counts from its start too
	}
	t, err := time.Parse(time.RFC3339, since)
	if err != nil {
		return "since the daemon started"
	}
	return fmt.Sprintf("since the daemon started %s ago (`agentjail logs` has earlier ones)", ago(now.Sub(t)))
}

// notifyLine says whether the last desktop notification reached the
// desktop, or why not, and when; "" from a daemon too old to say.
func notifyLine(st *wire.Status, now time.Time) string {
	n := st.Notify
	switch {
	case n == nil && st.Tray == "":
		return ""
	case n == nil:
		return "none sent (" + st.Tray + ")"
	case st.Notifications != nil && !*st.Notifications:
		return "off (notifications: false in config.yaml)"
	case n.State == wire.NotifyNone:
		return "none sent since the daemon started"
	}
	when := n.At
	if t, err := time.Parse(time.RFC3339, n.At); err == nil {
		when = fmt.Sprintf("%s (%s ago)", t.Local().Format(timeLayout), ago(now.Sub(t)))
	}
	if n.State == wire.NotifyFailed {
		return fmt.Sprintf("the last one failed at %s: %s", when, n.Error)
	}
	return fmt.Sprintf("the last one was delivered at %s", when)
}

// printConfig shows the configuration in force: what guards, and what
// config.yaml switched off or widened. (A daemon older than these fields
// sends none; then nothing is shown.)
func printConfig(out io.Writer, st *wire.Status) {
	if st.FailMode == "" {
		return
	}
	line := safetext.Line
	notify := ""
	if st.Notifications != nil {
		notify = ", notifications off"
		if *st.Notifications {
			notify = ", notifications on"
		}
	}
	fmt.Fprintf(out, "config:    fail mode %s, hook timeout %s%s\n", line(st.FailMode), line(st.HookTimeout), notify)
	list := func(label string, items []string) {
		shown := "none"
		if len(items) > 0 {
			shown = line(strings.Join(items, ", "))
		}
		fmt.Fprintf(out, "  %-16s %s\n", label+":", shown)
	}
	list("disabled rules", st.DisabledRules)
	list("protected paths", st.ProtectedPaths)
	list("allowed paths", st.AllowedPaths)
	list("policy folders", st.PolicyDirs)
}

// printProblems lists load and config errors, if any.
func printProblems(out io.Writer, st *wire.Status) {
	if len(st.LoadErrors) > 0 {
		fmt.Fprintln(out, "policy errors (the last good policies stay in force):")
		for _, e := range st.LoadErrors {
			fmt.Fprintf(out, "  %s\n", safetext.Line(e.String()))
		}
	}
	if st.ConfigError != "" {
		fmt.Fprintf(out, "config error (the last good config stays in force):\n  %s\n", safetext.Line(st.ConfigError))
	}
}

// readFailOpens counts the hook's fail-open records, in total and since
// a time. A missing file means none; unreadable lines are skipped.
func readFailOpens(path string, since time.Time) failOpenStats {
	var stats failOpenStats
	for _, p := range []string{path + ".1", path} {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var r hook.FailRecord
			if json.Unmarshal(sc.Bytes(), &r) != nil || r.Mode != "open" {
				continue
			}
			stats.Total++
			if t, err := time.Parse(time.RFC3339, r.Time); err == nil && !since.IsZero() && !t.Before(since) {
				stats.SinceStart++
			}
			rec := r
			stats.Last = &rec
		}
		f.Close()
	}
	return stats
}

// daemonError turns a client error into an *exitError with the right
// code and advice.
func daemonError(err error) error {
	var derr *wire.DialError
	if errors.As(err, &derr) {
		return exitWith(ExitNotRunning, "the daemon is not running (%v): %s", derr.Err, wire.StartAdvice())
	}
	return exitWith(ExitError, "%v", err)
}
