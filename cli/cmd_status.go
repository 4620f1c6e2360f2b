package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	codexagent "github.com/agentjail/agentjail/agents/codex"
	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/hook"
	"github.com/agentjail/agentjail/installer"
	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/safetext"
	"github.com/agentjail/agentjail/internal/service"
	"github.com/agentjail/agentjail/internal/wire"
)

func newStatusCmd() *cobra.Command {
	var asJSON, verbose bool
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
is delivered), while an agent found on this machine is not wired, is
wired but switched off by its own setting, or has an entry that cannot
run or whose flags differ from config.yaml's fail_mode or hook_timeout,
and while Codex would skip agentjail's hook (not trusted where it now is
in hooks.json, switched off, or gone; checked with Codex's own app
server when codex is on PATH, else by reading config.toml). Each problem
is listed with what fixes or clears it. The agents line shows each
agent: wired, wired but switched off, wired but its entry broken, found
but not wired, or not found. A tray nothing shows is said, but is no
problem: the tray is optional.

Exit code: 0 running and healthy, 3 not running, 4 running but degraded.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return status(cmd.Context(), cmd.OutOrStdout(), asJSON, verbose)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "list every policy file in force, the default pack's too")
	return cmd
}

// statusReport is what `status --json` prints.
type statusReport struct {
	// Mode is "user" or "system" (see modeLine).
	Mode      string        `json:"mode"`
	Running   bool          `json:"running"`
	Socket    string        `json:"socket"`
	Daemon    *wire.Status  `json:"daemon,omitempty"`
	FailOpens failOpenStats `json:"fail_opens"`
	// Codex is the check of agentjail's Codex hook, when it is wired.
	Codex   *installer.CodexCheck `json:"codex,omitempty"`
	Healthy bool                  `json:"healthy"`
	// Agents is every agent agentjail knows: found, wired, switched off
	// by its own setting, what is wrong with its entries.
	Agents []installer.AgentState `json:"agents"`
	// Verbose lists every policy file, the pack's too (not in --json,
	// which lists them always).
	Verbose bool `json:"-"`
	// ProjectSwitches are the settings files of the folder status runs
	// in (or one above it) that stop a wired agent running the hook
	// there; they count among its agent's switches.
	ProjectSwitches []installer.ProjectSwitch `json:"project_switches,omitempty"`
}

type failOpenStats struct {
	Total      int              `json:"total"`
	SinceStart int              `json:"since_start"`
	Last       *hook.FailRecord `json:"last,omitempty"`
}

func status(ctx context.Context, out io.Writer, asJSON, verbose bool) error {
	// Codex's app server gets its own bound (see CodexHookTrust).
	system := systemMode()
	var codex *installer.CodexCheck
	if !system {
		codex = checkCodex(ctx) // a user's hooks.json and its trust; system mode has none
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	rep := statusReport{Socket: clientSocket(), Mode: "user", Verbose: verbose}
	if system {
		rep.Mode = "system"
	}
	st, err := newClient().Status(ctx)
	if err == nil {
		rep.Running, rep.Daemon = true, st
	}
	var since time.Time
	if st != nil {
		since, _ = time.Parse(time.RFC3339, st.StartedAt)
	}
	rep.FailOpens = readFailOpens(paths.FailLog(), since)
	rep.Codex = codex
	opts := agentOptions(configInForce(st))
	if system {
		opts = systemAgentOptions()
		rep.Agents = installer.Agents(opts)
	} else {
		rep.Agents = withCodexCheck(installer.Agents(opts), codex)
	}
	rep.Agents, rep.ProjectSwitches = withProjectSwitches(rep.Agents, opts)
	if st != nil {
		// The agents as this command sees them, from the user's own
		// environment (CODEX_HOME, PATH), stand for the daemon's view.
		st.Problems = slices.DeleteFunc(st.Problems, func(p wire.Problem) bool { return strings.HasPrefix(p.Kind, "agent_") })
		st.Problems = append(st.Problems, installer.AgentProblems(rep.Agents)...)
		if p := hookVersionProblem(ctx, system, st.Version); p != nil {
			st.Problems = append(st.Problems, *p)
		}
	}
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

// hookVersionProblem says when the installed hook is another version
// than the daemon it asks (an upgrade that replaced one binary but not
// the other); nil when they agree or the hook is not installed.
func hookVersionProblem(ctx context.Context, system bool, daemon string) *wire.Problem {
	hook, fix := paths.InstalledBin("agentjail-hook"), "run `agentjail install` again, which puts this version in both places"
	if system {
		hook, fix = filepath.Join(paths.System().Libexec, "agentjail-hook"), "run `sudo agentjail install --system` again, which puts this version in both places"
	}
	if _, err := os.Stat(hook); err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, hook, "--version").Output()
	words := strings.Fields(string(out))
	got := "unknown (it does not say)"
	if err == nil && len(words) >= 2 && words[0] == "agentjail-hook" {
		got = words[1]
	}
	if got == daemon {
		return nil
	}
	return &wire.Problem{Kind: "version", Message: fmt.Sprintf("the hook %s is version %s, the daemon %s", hook, got, daemon), Fix: fix}
}

// withProjectSwitches adds to each wired agent's switches those of the
// project status runs in: a cloned repository's settings that stop the
// agent running the hook in every session started there.
func withProjectSwitches(agents []installer.AgentState, o installer.Options) ([]installer.AgentState, []installer.ProjectSwitch) {
	cwd, err := os.Getwd()
	if err != nil {
		return agents, nil
	}
	var shown []installer.ProjectSwitch
	for _, s := range installer.ProjectOff(o, cwd) {
		for i, a := range agents {
			if a.Name == s.Agent && a.Wired {
				agents[i].Off = append(agents[i].Off, "in this project, "+s.File+" "+s.Why)
				shown = append(shown, s)
			}
		}
	}
	return agents, shown
}

// checkCodex checks agentjail's Codex hook (see installer.CodexHookTrust);
// nil when it is not wired. A check that cannot be made is a problem.
func checkCodex(ctx context.Context) *installer.CodexCheck {
	c, err := installer.CodexHookTrust(ctx, installer.Options{Home: paths.Home(), UserHome: paths.UserHome()})
	if err != nil {
		c.Wired = true
		c.Problem = fmt.Sprintf("Codex: agentjail's hook could not be checked (%v)", err)
	}
	if !c.Wired {
		return nil
	}
	return &c
}

// withCodexCheck puts Codex's own word on its hook (app-server's
// hooks/list, or config.toml when codex is not on PATH) in place of the
// cheap reading of config.toml that installer.Agents makes.
func withCodexCheck(agents []installer.AgentState, codex *installer.CodexCheck) []installer.AgentState {
	if codex == nil {
		return agents
	}
	for i, a := range agents {
		if a.Name != codexagent.Agent.Name || !a.Wired {
			continue
		}
		agents[i].Problems = slices.DeleteFunc(a.Problems, func(p string) bool { return p == installer.CodexNotRunByConfig })
		if codex.Problem != "" {
			agents[i].Problems = append(agents[i].Problems, codex.Problem)
		}
	}
	return agents
}

// configInForce is the fail mode and hook timeout every agent's entry
// should carry: the running daemon's, else the configuration a daemon
// would start with (config.yaml's, or the last good one while it has an
// error; status shows the error elsewhere).
func configInForce(st *wire.Status) config.Config {
	cfg := policyset.ConfigInForce(paths.Home()).Config
	if st != nil && st.FailMode != "" {
		cfg.FailMode = st.FailMode
		if d, err := time.ParseDuration(st.HookTimeout); err == nil {
			cfg.HookTimeout = d
		}
	}
	return cfg
}

// printAgents is the agents line: each agent and whether its calls reach
// agentjail.
func printAgents(out io.Writer, agents []installer.AgentState) {
	var parts []string
	for _, a := range agents {
		parts = append(parts, a.Title+" "+a.Summary())
	}
	fmt.Fprintf(out, "agents:    %s\n", safetext.Line(strings.Join(parts, "; ")))
}

// healthy reports a daemon with nothing to fix now: the daemon lists
// its present problems (see wire.Status.Problems), fail-opens of the
// last hour among them. fo is what the CLI read itself; it only counts.
func healthy(st *wire.Status, fo failOpenStats) bool {
	return len(st.Problems) == 0
}

// modeLine says which mode is in force, and in user mode what system
// mode would add.
func modeLine(mode string) string {
	if mode == "system" {
		return "system (the daemon runs as its own user; its files and the agents' machine-wide hooks are root's, out of the agent's reach)"
	}
	return "user (the daemon, its files and the hooks are yours, so rules guard them; `sudo agentjail install --system` puts them out of the agent's reach)"
}

func printStatus(out io.Writer, rep statusReport, dialErr error) {
	paint := coloursFor(out).paint
	if !rep.Running {
		printNotRunning(out, rep.Socket, dialErr, paint)
		printAgents(out, rep.Agents)
	} else {
		st := rep.Daemon
		started, _ := time.Parse(time.RFC3339, st.StartedAt)
		// Every string below may carry text an agent chose (a path, a
		// command quoted in an error): control characters are shown,
		// never sent to the terminal.
		line := safetext.Line
		fmt.Fprintf(out, "agentjail: %s (pid %d, up %s, version %s, %s)\n", paint(green, "running"), st.PID, time.Since(started).Round(time.Second), line(st.Version), line(st.Mode))
		fmt.Fprintf(out, "socket:    %s\n", line(st.Socket))
		fmt.Fprintf(out, "mode:      %s\n", modeLine(rep.Mode))
		if st.Confinement != "" {
			fmt.Fprintf(out, "confinement: %s\n", line(st.Confinement))
			if !strings.HasPrefix(st.Confinement, "off") {
				confined, judged := confinedAgents()
				fmt.Fprintf(out, "  confined: %s; judged, not confined (their hook cannot rewrite a call): %s\n", strings.Join(confined, ", "), strings.Join(judged, ", "))
			}
		}
		if st.Answers != "" {
			fmt.Fprintf(out, "answers:   %s\n", line(st.Answers))
		}
		if st.Tray != "" {
			fmt.Fprintf(out, "tray:      %s\n", line(st.Tray))
		}
		if n := notifyLine(st, time.Now()); n != "" {
			fmt.Fprintf(out, "notifications: %s\n", line(n))
		}
		fmt.Fprintf(out, "policies:  revision %s, %s in %s, loaded %s\n", line(st.Revision), plural.Of(st.Rules, "rule"), plural.Of(len(st.Sources), "file"), line(localTime(st.LoadedAt)))
		// The pack's files are one line; the user's own, few and theirs,
		// each one (--verbose lists the pack's too).
		pack := 0
		for _, s := range st.Sources {
			if strings.HasPrefix(s.Name, "default/") && !rep.Verbose {
				pack++
				continue
			}
			fmt.Fprintf(out, "  %s (%s)\n", line(s.Name), line(s.RegoVersion))
		}
		if pack > 0 {
			fmt.Fprintf(out, "  the default pack: %s (`agentjail status --verbose` lists them)\n", plural.Of(pack, "file"))
		}
		fmt.Fprintf(out, "decisions: %s allow, %s ask, %s deny %s\n",
			paint(green, fmt.Sprint(st.Decisions[wire.Allow])), paint(yellow, fmt.Sprint(st.Decisions[wire.Ask])), paint(red, fmt.Sprint(st.Decisions[wire.Deny])),
			decisionsPeriod(st, time.Now()))
		printConfig(out, st)
		printAgents(out, rep.Agents)
		printOrg(out, st.Org)
		printAccounting(out, st.Accounting)
		if st.EvalErrors > 0 {
			fmt.Fprintf(out, "evaluation errors: %d (last: %s); those calls were denied\n", st.EvalErrors, line(st.LastEvalErr))
		}
		if st.LogErrors > 0 {
			fmt.Fprintf(out, "decision log: %s not recorded (last: %s); check the disk and the file's permissions\n", plural.Of(int(st.LogErrors), "decision"), line(st.LastLogError))
		}
		printProblems(out, st)
	}
	fo := rep.FailOpens
	switch {
	case fo.Total == 0:
		fmt.Fprintln(out, "fail-opens: none recorded")
	default:
		fmt.Fprintf(out, "fail-opens: %d recorded, %d since the daemon started; last %s, because %s: %s\n", fo.Total, fo.SinceStart, safetext.Line(localTime(fo.Last.Time)), safetext.Line(wire.CauseText(fo.Last.Cause)), safetext.Line(fo.Last.Error))
	}
	if c := rep.Codex; c != nil {
		how := c.Method
		if how == installer.CodexByAppServer {
			// Said, as status starts a program of Codex's that keeps
			// state of its own in ~/.codex.
			how += ", which status starts for this and which writes its own state in ~/.codex"
		}
		if c.Fallback != "" {
			how += ", as " + c.Fallback
		}
		if c.Problem == "" {
			fmt.Fprintf(out, "codex hook: %s (checked with %s)\n", paint(green, "trusted"), safetext.Line(how))
		} else if how != "" {
			fmt.Fprintf(out, "codex hook: %s (checked with %s)\n", paint(red, "not run by Codex"), safetext.Line(how))
		} else {
			fmt.Fprintf(out, "codex hook: %s\n", paint(red, "not run by Codex"))
		}
	}
	if rep.Running && !rep.Healthy {
		fmt.Fprintf(out, "health: %s\n", paint(yellow, "degraded"))
		for _, p := range rep.Daemon.Problems {
			fmt.Fprintf(out, "  %s: %s\n    fix: %s\n", safetext.Line(p.Kind), safetext.Line(p.Message), safetext.Line(p.Fix))
		}
		if c := rep.Codex; c != nil && c.Problem != "" {
			fmt.Fprintf(out, "  codex: %s\n", safetext.Line(c.Problem))
		}
	} else if !rep.Running && rep.Codex != nil && rep.Codex.Problem != "" {
		fmt.Fprintf(out, "  codex: %s\n", safetext.Line(rep.Codex.Problem))
	} else if rep.Running {
		fmt.Fprintf(out, "health: %s\n", paint(green, "ok"))
	}
}

// printNotRunning says why no daemon answered: none runs, or one runs
// whose socket is gone (it recreates it), or another file is in its
// place, or the server there is not ours, or it did not answer in time.
func printNotRunning(out io.Writer, socket string, dialErr error, paint func(string, string) string) {
	var derr *wire.DialError
	if !errors.As(dialErr, &derr) {
		// Something answered, or took too long: not "not running".
		fmt.Fprintf(out, "agentjail: %s (%s)\n", paint(red, "not answering"), safetext.Line(dialErr.Error()))
		fmt.Fprintf(out, "  see %s; restart the daemon if it stays so\n", paths.DaemonLog())
		return
	}
	a := service.ProbeSocket(socket)
	what := safetext.Line(a.Describe(socket))
	switch {
	case a.Held:
		fmt.Fprintf(out, "agentjail: %s: %s\n", paint(red, "not reachable"), what)
		fmt.Fprintf(out, "  it recreates its socket by itself within a second or two; if this stays, see %s and restart it\n", paths.DaemonLog())
	case a.Cause == wire.CauseNotSocket:
		fmt.Fprintf(out, "agentjail: %s: %s\n", paint(red, "not running"), what)
		fmt.Fprintf(out, "  move it away (a daemon refuses to replace it when it starts); then %s\n", service.StartAdviceFor(clientSocket()))
	default:
		fmt.Fprintf(out, "agentjail: %s: %s\n", paint(red, "not running"), what)
		fmt.Fprintf(out, "  %s\n", service.StartAdviceFor(clientSocket()))
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
	from := ""
	switch {
	case st.ConfigError != "" && st.ConfigLastGood != "":
		from = fmt.Sprintf(" (the last good configuration, from %s: config.yaml has an error)", line(localTime(st.ConfigLastGood)))
	case st.ConfigError != "":
		from = " (the defaults: config.yaml has an error)"
	}
	fmt.Fprintf(out, "config:    fail mode %s, hook timeout %s%s%s\n", line(st.FailMode), line(st.HookTimeout), notify, from)
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
		fmt.Fprintf(out, "%s\n", safetext.Line(configSentence(st)))
	}
}

// configSentence says what is in force while config.yaml has an error,
// in the daemon's words (an older daemon sends only the error).
func configSentence(st *wire.Status) string {
	if st.ConfigInForce != "" {
		return st.ConfigInForce
	}
	return "config.yaml has an error (" + st.ConfigError + "); the configuration loaded before it stays in force"
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
		return exitWith(ExitNotRunning, "the daemon is not running (%v): %s", derr.Err, service.StartAdviceFor(clientSocket()))
	}
	return exitWith(ExitError, "%v", err)
}

// printAccounting says what the daemon read of the calls the agents ran,
// so a user can see the accounting at work (docs/accounting.md).
func printAccounting(out io.Writer, a *wire.Accounting) {
	if a == nil {
		return
	}
	fmt.Fprintf(out, "accounting: %s read from %s (%s), %s; %d found judged (since the daemon started)\n",
		plural.Of(int(a.RecordCalls), "call"), plural.Of(a.RecordFiles, "agent record file"), plural.Of(int(a.SubagentCalls), "subagent call"), plural.Of(int(a.PostEvents), "post-tool event"), a.Judged)
}

// confinedAgents are the agents whose hook can rewrite a shell call to
// run in the jail, and the others.
func confinedAgents() (confined, judged []string) {
	for _, a := range agents.All {
		if _, ok := a.Adapter.(agent.Confiner); ok {
			confined = append(confined, a.Adapter.Name())
		} else {
			judged = append(judged, a.Adapter.Name())
		}
	}
	return confined, judged
}
