// Package hook is agentjail-hook: it reads one agent hook event on stdin,
// asks the daemon for a verdict over the Unix socket, and answers the agent
// on stdout, stderr and the exit code. It links only the standard library
// and internal packages that do (wire, paths, unixsock, ...), never
// crashes, never exits 1 and never waits past its deadline, because an
// agent treats a crash, exit 1 or a timeout as "let the tool run".
package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/agentjail/agentjail/internal/version"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/internal/hookcmd"
	"github.com/agentjail/agentjail/internal/hookstate"
	"github.com/agentjail/agentjail/internal/jsonscan"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/privatefile"
	"github.com/agentjail/agentjail/internal/service"
	"github.com/agentjail/agentjail/internal/unixsock"
	"github.com/agentjail/agentjail/internal/wire"
)

// Exit codes the agent understands. These are the only two the hook uses.
const (
	ExitOK    = 0 // allow, ask, or a fail-open: read stdout for the verdict
	ExitBlock = 2 // deny: the agent must not run the tool
)

// DefaultTimeout bounds the whole hook run: reading stdin, reaching the
// daemon and getting its answer.
const DefaultTimeout = hookcmd.DefaultTimeout

// Options configures one run. Main fills it from the command line.
type Options struct {
	Timeout time.Duration // zero means DefaultTimeout
	// Hold is how long this hook may hold a call the policies want a
	// person to approve (--hold, written by install with the agent's own
	// hook timeout above it); zero holds nothing.
	Hold       time.Duration
	FailClosed bool         // deny instead of allow when the call cannot be checked
	Agent      string       // the agent the hook was installed for (--agent); "" means claude-code; an event unmistakably another agent's is read and answered as that agent's
	Client     *wire.Client // nil means the default socket
	FailLog    string       // "" means paths.FailLog(); "-" disables recording
	// State is the daemon's state file for the failure path: "" means
	// paths.HookState(), "-" none. When it says fail_mode: closed the
	// hook fails closed even without --fail-closed.
	State string
	// AutoStart is the agentjail binary to start when no daemon runs at
	// all: "" means the installed one beside this hook, if this hook is
	// the installed one (see installedDaemon); "-" never starts one.
	AutoStart string
	// Post: the hook runs for the agent's post-tool event (--post): it
	// tells the daemon the call ran, prints nothing and exits 0 whatever
	// happens, as the call has run already.
	Post bool
	// System: the hook of a system-mode install (--system), written in
	// root-owned machine-wide settings. It asks the system daemon on its
	// fixed socket, whatever the environment says, fails closed unless
	// --fail-closed=false was written beside it, and never starts a
	// daemon (the service manager keeps that one running).
	System bool

	event map[string]any // the decoded event, once read: failures answer in its agent's dialect
}

// usage is what --help prints.
const usage = `Usage: agentjail-hook [--timeout 2s] [--hold 60s] [--fail-closed] [--agent claude-code] < event.json

agentjail-hook is run by the agent before each tool call: it reads the
agent's hook event as JSON on stdin, asks the agentjail daemon for a
verdict and answers the agent on stdout, stderr and its exit code (0 go
on, 2 blocked). You do not run it yourself; ` + "`agentjail try`" + ` shows what it
would answer for a command, and ` + "`agentjail install`" + ` wires it into the agent.

When no daemon answers, the call is allowed with a warning (fail_mode:
open) or blocked (--fail-closed, or fail_mode: closed in config.yaml).
When no daemon runs at all, the installed hook starts the installed
daemon and asks it within its deadline.

Flags:
  --timeout DURATION  give up on the daemon after this long (default 2s)
  --hold DURATION     how long a call may wait for a person to approve it
                      in agentjail's menu bar, notification or terminal
                      (install writes it; the agent's own hook timeout must
                      be longer); 0 (default) holds nothing
  --fail-closed       block calls that cannot be checked
  --agent NAME        the agent whose event format stdin carries: claude-code
                      (default), codex, gemini, copilot or cursor; an event
                      whose shape is unmistakably one agent's is read as that
                      agent's without the flag
  --post              run for the agent's post-tool event: tell the daemon the
                      call ran (an unchecked one is recorded), print nothing
  --system            ask the system daemon (sudo agentjail install --system)
                      on its own socket, and block calls that cannot be
                      checked unless --fail-closed=false is given
  --help              print this and exit
  --version           print the hook's version and exit
`

// Main runs the hook with command-line args (without the program name)
// and returns the exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == JailArg {
		return launchJailed(args[1:], stderr)
	}
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version") {
		// Like --help, not a tool call: nothing is read or asked.
		io.WriteString(stdout, version.Line("agentjail-hook")+"\n")
		return ExitOK
	}
	opts, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		// Someone typing --help is not a tool call: nothing is read,
		// asked or recorded.
		io.WriteString(stdout, usage)
		return ExitOK
	}
	if err != nil {
		// A bad flag in the agent's settings must not disable the guard
		// silently, nor make the hook exit 1 (which the agent ignores).
		// Go on with defaults and say what to fix.
		fmt.Fprintf(stderr, "agentjail: %v (check the hook command in your agent's settings)\n", err)
	}
	return Run(ctx, opts, stdin, stdout, stderr)
}

// parseFlags reads the hook's flags (hookcmd.Parse, the one reading of
// them) into Options; a system hook's also say where it asks.
func parseFlags(args []string) (Options, error) {
	f, err := hookcmd.Parse(args)
	opts := Options{Timeout: f.Timeout, FailClosed: f.FailClosed, Agent: f.Agent, System: f.System, Hold: f.Hold, Post: f.Post}
	if opts.Agent == "" {
		opts.Agent = agents.Default
	}
	if opts.System {
		// The system socket; no state or daemon of the user's.
		opts.Client = &wire.Client{Socket: paths.SystemSocket()}
		opts.State, opts.AutoStart = "-", "-"
	}
	return opts, err
}

// Run is Main after flag parsing.
func Run(ctx context.Context, opts Options, stdin io.Reader, stdout, stderr io.Writer) int {
	start := time.Now()
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Agent == "" {
		opts.Agent = agents.Default
	}
	// A daemon that is starting gets wire.StartGrace more (patient, below).
	patient, cancelPatient := context.WithDeadline(ctx, start.Add(opts.Timeout+wire.StartGrace))
	defer cancelPatient()
	ctx, cancel := context.WithDeadline(patient, start.Add(opts.Timeout))
	defer cancel()

	event, err := readEvent(ctx, stdin)
	if opts.Post {
		if err != nil || len(event) > wire.MaxFrame {
			return ExitOK
		}
		return observe(ctx, opts, event)
	}
	if err != nil {
		return failure(opts, stdout, stderr, wire.CauseBadEvent, err.Error(), "the agent must send one JSON object on stdin")
	}
	if len(event) > wire.MaxFrame {
		return tooLarge(opts, stdout, stderr, len(event))
	}
	if startsObject(event) && jsonscan.TooDeep(event) {
		// The agent writes tool_input, so it chooses the nesting; an
		// event nested past what can be decoded is not "not an object"
		// to be failed open, but one too complex to check, like one too
		// large.
		return tooComplex(opts, stdout, stderr)
	}
	// Decoding the top level is also the check that the event is one
	// valid JSON object: the event is read once here.
	if opts.event = agent.DecodeTop(event); opts.event == nil {
		return failure(opts, stdout, stderr, wire.CauseBadEvent, "the input is not a JSON object", "the agent must send one JSON object on stdin")
	}
	// The adapter that reads this event answers in its agent's dialect.
	adapter := agents.For(opts.event, opts.Agent)
	opts.Agent = adapter.Name()

	cwd, _ := os.Getwd()
	client, waitedStart := patientClient(opts, start)
	req := &wire.Request{Event: event, Cwd: cwd, Agent: opts.Agent, HookTimeoutMillis: opts.Timeout.Milliseconds(), HookFailClosed: opts.FailClosed, HookStartMillis: start.UnixMilli(), HoldMillis: opts.Hold.Milliseconds()}
	dec, err := client.DecideBrief(ctx, req)
	started := ""
	var absent *service.Absence
	if notRunning(err) {
		// Nothing listens. Whether a daemon still runs decides what
		// helps: one whose socket was taken away recreates it within a
		// second (a daemon started now would refuse: it holds the lock),
		// so wait for it; with none at all (after a reboot, a logout or
		// a crash in the detached mode), start the installed one and ask
		// it, within this call's deadline.
		a := service.ProbeSocket(client.SocketPath())
		absent = &a
		switch {
		case a.Held && a.Starting:
			dec, err = retryStarting(patient, client, req, waitedStart)
		case a.Held:
			dec, err = retry(ctx, client, req)
		case a.Cause == wire.CauseNotSocket:
			// A daemon started now would refuse the path: say what to move.
		default:
			if started = startDaemon(opts); started != "" {
				dec, err = retryStarting(patient, client, req, waitedStart)
			} else if a.Cause == wire.CauseSocketFolderGone {
				// A folder removed under a daemon takes its lock with it:
				// that daemon, if one runs, recreates both at once.
				dec, err = retry(ctx, client, req)
			}
		}
	}
	var lost *wire.HoldError
	if errors.As(err, &lost) {
		// The policies asked for a person and the daemon held the call,
		// but its answer never came: answer as for an ask, never by the
		// fail mode (which may be open).
		dec, err = &wire.Decision{Verdict: wire.Ask, Reason: fmt.Sprintf("agentjail held this call for a person to approve (%s) and lost the daemon's answer: %v", lost.Held.ID, lost.Err)}, nil
	}
	if err != nil {
		if *waitedStart && started == "" {
			return failure(opts, stdout, stderr, wire.CauseStarting, fmt.Sprintf("the agentjail daemon was still starting (compiling its policies) and did not answer within %v", opts.Timeout+wire.StartGrace),
				fmt.Sprintf("it checks the next call once it is up; if it stays slow to start, see `agentjail status` and %s", paths.DaemonLog()))
		}
		return unreachable(ctx, opts, stdout, stderr, len(event), err, started, absent)
	}
	ans := confined(adapter, opts.event, dec, adapter.Render(opts.event, dec))
	// A silent allow writes nothing: no empty write to either stream.
	if len(ans.Stdout) > 0 {
		stdout.Write(ans.Stdout)
	}
	if ans.Stderr != "" {
		io.WriteString(stderr, ans.Stderr)
	}
	return ans.Exit
}

// observe tells the daemon a call ran. Nothing the daemon says changes
// anything: the call has run, and the agent reads no answer.
func observe(ctx context.Context, opts Options, event []byte) int {
	top := agent.DecodeTop(event)
	if top == nil {
		return ExitOK
	}
	client := opts.Client
	if client == nil {
		client = &wire.Client{}
	}
	adapter := agents.For(top, opts.Agent)
	cwd, _ := os.Getwd()
	client.Do(ctx, &wire.Request{Op: wire.OpObserve, Event: event, Cwd: cwd, Agent: adapter.Name()})
	return ExitOK
}

// startsObject reports whether b begins like a JSON object.
func startsObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// startAdvice says how the daemon this hook asks starts again.
func startAdvice(opts Options) string {
	if opts.Client != nil {
		return service.StartAdviceFor(opts.Client.SocketPath())
	}
	return service.StartAdvice()
}

// unreachable answers a call the daemon did not answer (err), saying
// what actually happened: no daemon, a daemon whose socket is gone,
// another file in its place, a server that is not ours, no answer in
// time, or an error from the daemon. started is the daemon this hook
// started ("" none); absent is what the socket's files showed when
// nothing listened (nil if something did).
func unreachable(ctx context.Context, opts Options, stdout, stderr io.Writer, size int, err error, started string, absent *service.Absence) int {
	var werr *wire.Error
	if errors.As(err, &werr) && werr.Code == wire.CodeTooLarge {
		return tooLarge(opts, stdout, stderr, size)
	}
	var untrusted *unixsock.UntrustedError
	if errors.As(err, &untrusted) {
		// Whatever answers there could be anyone's: the event is never
		// sent to it and its verdict never believed.
		return failure(opts, stdout, stderr, wire.CauseUntrusted, err.Error(), "find out what is listening there and remove it; then "+startAdvice(opts))
	}
	socket := (&wire.Client{}).SocketPath()
	if opts.Client != nil {
		socket = opts.Client.SocketPath()
	}
	var timeout interface{ Timeout() bool }
	late := ctx.Err() != nil || (errors.As(err, &timeout) && timeout.Timeout())
	if absent != nil && (late || notRunning(err)) {
		// Nothing listened when this call came: the files say why. Look
		// again, as waiting may have changed it.
		now := service.ProbeSocket(socket)
		if now.Cause == wire.CauseNoDaemon && absent.Cause != wire.CauseNoDaemon {
			now = *absent // it went away while this call waited
		}
		what := now.Describe(socket)
		switch {
		case started != "":
			return failure(opts, stdout, stderr, wire.CauseStarting, fmt.Sprintf("%s; this hook started %s, which did not answer within %v", what, started, opts.Timeout+wire.StartGrace),
				fmt.Sprintf("it checks the next call if it is up by then; if it is not, see `agentjail status` and %s", paths.DaemonLog()))
		case now.Held:
			return failure(opts, stdout, stderr, now.Cause, fmt.Sprintf("%s, and it did not listen again within %v", what, opts.Timeout),
				fmt.Sprintf("the daemon recreates its socket by itself within a second or two; if calls keep failing, see `agentjail status` and %s, and restart it", paths.DaemonLog()))
		case now.Cause == wire.CauseNotSocket:
			return failure(opts, stdout, stderr, now.Cause, what, "move it away (a daemon refuses to replace it when it starts); then "+startAdvice(opts))
		}
		return failure(opts, stdout, stderr, now.Cause, what, startAdvice(opts))
	}
	if late {
		return failure(opts, stdout, stderr, wire.CauseTimeout, fmt.Sprintf("no answer from the agentjail daemon within %v", opts.Timeout), "see `agentjail status`")
	}
	if notRunning(err) {
		return failure(opts, stdout, stderr, wire.CauseNoDaemon, err.Error(), startAdvice(opts))
	}
	return failure(opts, stdout, stderr, wire.CauseDaemonError, err.Error(), "see `agentjail status`")
}

// Render is Claude Code's answer to a decision: what the hook prints and
// its exit code (the claude adapter of package agent):
//
//	deny                 stdout JSON "deny", reason on stderr, exit 2
//	ask                  stdout JSON "ask", exit 0
//	allow, by a rule     stdout JSON "allow", exit 0
//	allow, no rule fired nothing, exit 0 (the agent's own permission flow goes on)
func Render(d *wire.Decision) (stdout []byte, stderr string, exit int) {
	return RenderFor(agents.Default, nil, d)
}

// RenderFor is the answer of agentName (or of the agent whose shape event
// unmistakably has; event may be nil) to a decision.
func RenderFor(agentName string, event map[string]any, d *wire.Decision) (stdout []byte, stderr string, exit int) {
	ans := agents.For(event, agentName).Render(event, d)
	return ans.Stdout, ans.Stderr, ans.Exit
}

// answer prints the hook's own verdict (failing closed, too large) in the
// dialect of the agent that called.
func answer(opts Options, stdout, stderr io.Writer, v wire.Verdict, reason string) int {
	out, errText, code := RenderFor(opts.Agent, opts.event, &wire.Decision{Verdict: v, Reason: reason})
	stdout.Write(out)
	io.WriteString(stderr, errText)
	return code
}

// failure handles a call that could not be checked, per the fail mode:
// closed if the hook runs with --fail-closed or config.yaml's fail_mode
// (as the daemon last wrote it to its state file) says so. Only this path
// reads the state file: a checked call reads nothing.
//
// A fail-open is said where the person looks: in the agent's own channel
// for a message to the user where it has one (agent.Notice), and on
// stderr; the failure log it is recorded in is what status, the tray
// and the next daemon count.
func failure(opts Options, stdout, stderr io.Writer, cause, what, fix string) int {
	if closed, why := failClosed(opts); closed {
		reason := fmt.Sprintf("agentjail could not check this call (%s) and %s, so it is blocked; %s", what, why, fix)
		recordFailure(opts, "closed", cause, what)
		return answer(opts, stdout, stderr, wire.Deny, reason)
	}
	recordFailure(opts, "open", cause, what)
	msg := fmt.Sprintf("agentjail: %s; this call was allowed unchecked; %s", what, fix)
	ans := agent.Notice(agents.For(opts.event, opts.Agent), opts.event, msg)
	if len(ans.Stdout) > 0 {
		stdout.Write(ans.Stdout)
	}
	io.WriteString(stderr, ans.Stderr)
	return ans.Exit
}

// failClosed reports whether to fail closed, and why. Fail-closed wins
// whenever any source asks for it; a missing or untrusted state file
// leaves the flag to decide.
func failClosed(opts Options) (bool, string) {
	if opts.FailClosed {
		return true, "the hook runs with --fail-closed"
	}
	path := opts.State
	if path == "-" {
		return false, ""
	}
	if path == "" {
		path = paths.HookState()
	}
	if st, err := hookstate.Read(path); err == nil && st.FailMode == "closed" {
		return true, "config.yaml sets fail_mode: closed"
	}
	return false, ""
}

// tooLarge handles an event over the frame limit. Failing open here would
// let anyone slip a command past the guard by padding it, so the user is
// asked instead (denied with --fail-closed).
func tooLarge(opts Options, stdout, stderr io.Writer, n int) int {
	reason := fmt.Sprintf("agentjail cannot check this call: its event is over the %s limit; approve it only if you expected a tool call this large", wire.Size(wire.MaxFrame))
	if n <= wire.MaxFrame {
		reason = fmt.Sprintf("agentjail cannot check this call: the daemon refused its %s event as too large; approve it only if you expected a tool call this large", wire.Size(n))
	}
	return cannotJudge(opts, stdout, stderr, wire.CauseTooLarge, "event too large", reason)
}

// tooComplex handles an event nested deeper than jsonscan.MaxDepth, for the
// same reason and in the same way as tooLarge.
func tooComplex(opts Options, stdout, stderr io.Writer) int {
	reason := fmt.Sprintf("agentjail cannot check this call: its event nests objects or arrays more than %d levels deep; approve it only if you expected a tool call shaped like this", jsonscan.MaxDepth)
	return cannotJudge(opts, stdout, stderr, wire.CauseTooDeep, "event nested too deeply", reason)
}

// cannotJudge asks about a call whose event the agent made impossible
// to check (denies it when failing closed).
func cannotJudge(opts Options, stdout, stderr io.Writer, cause, what, reason string) int {
	if closed, _ := failClosed(opts); closed {
		recordFailure(opts, "closed", cause, what)
		return answer(opts, stdout, stderr, wire.Deny, reason)
	}
	recordFailure(opts, "ask", cause, what)
	return answer(opts, stdout, stderr, wire.Ask, reason)
}

// FailRecord is one line of the hook failure log.
type FailRecord = wire.FailRecord

// failRecord is the failure log's line for this call: the agent of the
// flag (or of the event's shape), and the call as the event names it.
func failRecord(opts Options, mode, cause, what string) FailRecord {
	r := FailRecord{Time: time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00"), Mode: mode, Cause: cause, Error: what, Agent: opts.Agent}
	if opts.event == nil {
		return r
	}
	adapter := agents.For(opts.event, opts.Agent)
	id := adapter.Identify(opts.event)
	r.Agent, r.Session, r.Tool, r.ToolUseID = adapter.Name(), id.Session, id.Tool, id.ID
	r.Cwd, _ = os.Getwd()
	if b, err := json.Marshal(id.Input); err == nil && id.Input != nil && len(b) <= wire.FailInputMax {
		r.Input = b
	}
	return r
}

// recordFailure appends one line to the failure log. It is best effort:
// the warning on stderr has already told the user.
func recordFailure(opts Options, mode, cause, what string) {
	path := opts.FailLog
	if path == "-" {
		return
	}
	if path == "" {
		path = paths.FailLog()
	}
	line, _ := json.Marshal(failRecord(opts, mode, cause, what))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|privatefile.NoFollow, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		// The daemon never ran here yet; create its private home.
		os.MkdirAll(filepath.Dir(path), 0o700)
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|privatefile.NoFollow, 0o600)
	}
	if err != nil {
		return
	}
	f.Write(append(line, '\n'))
	f.Close()
}
