// Package daemon is the long-running half of agentjail: it owns the Unix
// socket (private to its user, peer uid checked), answers
// decide/status/reload requests with the policy set in force (package
// policyset, which keeps it compiled and reloads it when policy files or
// config.yaml change or on SIGHUP), and keeps the bookkeeping around
// the answers: approvals, accounting, health, the decision log.
package daemon

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/approval"
	"github.com/agentjail/agentjail/internal/config"

	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/wire"
)

// Options configures New.
type Options struct {
	Socket   string // the Unix socket to listen on
	Home     string // $AGENTJAIL_HOME, made private (0700)
	UserHome string // the user's home directory
	// UID is policyset.Options.UID: the uid the policies see as the hook's
	// (nil: the daemon's own).
	UID     *int
	Pack    fs.FS  // the embedded default policy pack
	Version string // reported by status
	Mode    string // how it runs, reported by status; "" means "headless"
	Tray    string // whether a tray runs and if not why, reported by status
	// Desktop, when set (a tray runs), reports what the tray and the
	// notifications do now; its tray state replaces Tray.
	Desktop Desktop
	Logger  *slog.Logger // nil means slog.Default()
	// LogLevel, when set, is the level of Logger's handler; the daemon sets
	// it from config.yaml's log_level on every load.
	LogLevel *slog.LevelVar
	// OnDecision, when set, hears of every decision after it is logged
	// (the tray and notifications). It must not block.
	OnDecision func(decisionlog.Record)
	// Agents, when set, checks every agent on this machine against the
	// config in force (installer.Agents and installer.AgentProblems): a
	// found agent that is not wired, an agent whose own switch keeps the
	// hook from running, a wired entry whose program is missing or whose
	// flags differ from config.yaml. Its problems join the daemon's
	// health, so the tray is not green while an agent is unguarded; wired
	// says whether any agent has the hook, when the entries, not the last
	// hook call, tell what the installed hook runs with.
	Agents func(cfg config.Config) (problems []wire.Problem, wired bool)
	// System runs the system-mode daemon (`agentjail run --system`): it
	// serves every local user on a socket they can all reach, judges
	// each call as its caller's (uid and home from the peer
	// credentials) with that user's own policies as tightening only,
	// and reads config.yaml and policies/ from ConfigDir, which root
	// owns.
	System bool
	// ConfigDir holds config.yaml and policies/; "" means Home.
	ConfigDir string
	// DecisionLog is the decision log's path; "" means decisions.jsonl
	// in Home.
	DecisionLog string
	// AgentWired, when set, says whether an agent has agentjail's hook
	// (installer.Agents): the calls of an agent not wired are not each
	// unchecked, the agent is reported once as not wired.
	AgentWired func(agent string) bool
	// ProjectOff, when set, lists the settings files of a project (the
	// folder cwd or one above it) that stop agent running the hook there
	// (installer.ProjectOffFor), each "FILE WHY": an unchecked call's
	// cause names the first.
	ProjectOff func(agent, cwd string) []string
	// OnFailOpenRun, when set (a tray runs), hears of each new run of
	// fail-opens (wire.FailOpenRun) to notify the user at once. It must
	// not block.
	OnFailOpenRun func(wire.FailOpenRun)
}

// Desktop is what status shows of the tray and desktop notifications
// (app.Tray). Both must answer at once: the tray asks for the status
// every few seconds.
type Desktop interface {
	// TrayState is the tray's line in status, and whether a tray host
	// shows it (nil: cannot tell); see wire.Status.Tray.
	TrayState() (string, *bool)
	// NotifyStatus is the fate of the last notification.
	NotifyStatus() *wire.NotifyStatus
}

// Daemon serves decisions on a socket.
type Daemon struct {
	// jailErr says why the profiles of confined calls have no folder.
	jailErr error
	// person is the person channel's listener (see listenPerson); nil
	// where there is none, and then the socket takes a person's answers.
	person  net.Listener
	opts    Options
	log     *slog.Logger
	decider *policyset.Decider
	ln      *listener
	started time.Time
	reload  chan struct{}
	conns   sync.WaitGroup
	workers *workers
	watcher *policyset.Watcher
	// inFlight holds a slot for every request being read or decided: a
	// flood of connections each carrying a full frame must not exhaust
	// memory.
	inFlight chan struct{}
	// waiting holds a slot for every connection whose request has not
	// begun to arrive: a client that connects and sends nothing costs a
	// goroutine and a descriptor, never one of inFlight's slots.
	waiting chan struct{}
	// others holds a slot for every try, status or reload request past
	// reading, and tryWorkers for every try being decided: they never
	// take the last hookReserve slots nor the last of the workers, which
	// are kept for the agents' hooks (see reserve.go).
	others, tryWorkers chan struct{}
	// decisions is the decision log; log is the daemon's own log.
	decisions *decisionlog.Log
	// fleet runs OPA's plugins for config.yaml's opa: section.
	fleet fleet
	// hookSeen is the flags the hook ran with at its last call (a
	// *wire.HookFlags with From "hook call"), and hookTimeout its
	// --timeout: until the next request says otherwise, the budget of a
	// request still being read is measured against it.
	hookSeen    atomic.Pointer[hookCall]
	hookTimeout atomic.Int64
	// repeats tells the second event of one call (another hook of the
	// same agent, or the agent running another agent's hooks) from a new
	// call, so that it is logged and notified once (see repeat.go).
	repeats repeats
	// failRun is the last run of fail-opens seen in the hook's failure
	// log (see failrun.go).
	failRun failRun
	// callers are the connections each user holds (system mode; see
	// maxPerCaller).
	callers callers
	// approvals are the calls held for a person and the grants people
	// gave (see approvals.go).
	approvals *approval.Store
	// ledger remembers the calls judged, to account for every call that
	// ran (see accounting.go).
	ledger *ledger
	// trim gives memory back once decisions stop (see trim.go).
	trim memTrim
	// decided hear of each decided call (see decided.go).
	decided []subscriber
	// transcripts are record files hook events named, for followRecords;
	// followed those already sent.
	transcripts chan transcriptPath
	followedMu  sync.Mutex
	followed    map[string]bool
	// ready is when Run began to answer (Unix milliseconds).
	ready atomic.Int64
	// wiredSeen caches Options.AgentWired.
	wiredMu   sync.Mutex
	wiredSeen map[string]wiredAt
}

// New loads policies and takes the socket. It fails if another daemon
// owns the socket or the default pack does not compile.
func New(ctx context.Context, opts Options) (*Daemon, error) {
	if opts.Mode == "" {
		opts.Mode = "headless"
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	if opts.ConfigDir == "" {
		opts.ConfigDir = opts.Home
	}
	if opts.DecisionLog == "" {
		opts.DecisionLog = filepath.Join(opts.Home, paths.DecisionLogName)
	}
	ln, err := listenFor(opts)
	if err != nil {
		return nil, err
	}
	if !opts.System {
		if err := os.MkdirAll(filepath.Join(opts.Home, paths.PoliciesName), 0o700); err != nil {
			ln.Close()
			return nil, fmt.Errorf("creating the policies folder: %w", err)
		}
	}
	jailDir, jailPerm, jailErr := jailPlace(opts)
	dec, err := policyset.New(ctx, policyset.Options{Pack: opts.Pack, Home: opts.Home, ConfigDir: opts.ConfigDir, System: opts.System, UserHome: opts.UserHome, Socket: opts.Socket, UID: opts.UID, KeepLastGood: true, Serving: true, JailDir: jailDir, JailPerm: jailPerm})
	if err != nil {
		ln.Close()
		return nil, err
	}
	d := &Daemon{
		opts:      opts,
		log:       log,
		decider:   dec,
		jailErr:   jailErr,
		person:    listenPerson(opts.Socket, log),
		ln:        ln,
		started:   time.Now(),
		reload:    make(chan struct{}, 1),
		workers:   newWorkers(2 * runtime.GOMAXPROCS(0)),
		inFlight:  make(chan struct{}, maxInFlight),
		waiting:   make(chan struct{}, maxWaiting),
		others:    make(chan struct{}, maxInFlight-hookReserve),
		decisions: decisionlog.New(decisionlog.Options{Path: opts.DecisionLog}),
	}
	d.approvals = approval.New(approval.Options{GrantsFile: filepath.Join(opts.Home, "grants.json"), GrantExpiry: dec.Config().GrantExpiry})
	if err := d.approvals.LoadError(); err != nil {
		log.Warn("the grants are not in force", "err", err)
	}
	d.ledger = newLedger()
	d.decided = d.subscribers()
	d.transcripts, d.followed = make(chan transcriptPath, 64), map[string]bool{}
	d.tryWorkers = make(chan struct{}, tryWorkerCap(d.workers.n))
	d.watcher = policyset.NewWatcher(dec, log)
	// A hook that started this daemon left a marker so others would not
	// start more; it is up now, so the next hook to find none must start one.
	os.Remove(filepath.Join(opts.Home, paths.AutoStartName))
	d.logLoad()
	return d, nil
}

// RecentDenies are the latest denies, newest first.
func (d *Daemon) RecentDenies(n int) []decisionlog.Record { return d.decisions.RecentDenies(n) }

// Decider is the daemon's policy evaluator.
func (d *Daemon) Decider() *policyset.Decider { return d.decider }

// Reload asks the daemon to reload soon (as SIGHUP does).
func (d *Daemon) Reload() {
	select {
	case d.reload <- struct{}{}:
	default:
	}
}

// Run serves until ctx ends, then stops accepting, lets requests in
// flight finish (briefly), and removes the socket. Failures to accept a
// connection are logged and retried, never fatal: a guard that stops
// serving fails every later call open.
func (d *Daemon) Run(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var bg sync.WaitGroup
	bg.Go(func() { d.watcher.Run(ctx, d.reload, d.logLoad) })
	bg.Go(func() { d.guardSocket(ctx, cancel) })
	bg.Go(func() { d.watchFailOpens(ctx) })
	bg.Go(func() { d.followRecords(ctx) })
	bg.Go(func() { d.trim.run(ctx) })
	bg.Go(func() {
		<-ctx.Done()
		d.ln.stopListening()
		if d.person != nil {
			d.person.Close()
		}
	})
	if d.person != nil {
		bg.Go(func() { d.servePerson(ctx) })
	}
	d.ready.Store(time.Now().UnixMilli())
	d.ln.Serving()
	d.log.Info("agentjail is serving", "socket", d.opts.Socket, "pid", os.Getpid(), "mode", d.opts.Mode)

	backoff := time.Duration(0)
	for {
		conn, err := d.ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				break
			}
			// Out of file descriptors, say: the guard must outlive it.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			d.log.Warn("accept failed; retrying", "err", err, "in", backoff)
			time.Sleep(backoff)
			continue
		}
		backoff = 0
		d.conns.Go(func() { d.handle(ctx, conn, false) })
	}
	cancel()
	if d.waitConns(2 * time.Second) {
		d.workers.stop()
	}
	d.ln.Close()
	d.closeFleet()
	if err := d.decisions.Close(); err != nil {
		d.log.Warn("closing the decision log", "err", err)
	}
	bg.Wait()
	d.log.Info("agentjail stopped", "socket", d.opts.Socket)
}

// waitConns waits up to max for connections to finish and reports
// whether they all did.
func (d *Daemon) waitConns(max time.Duration) bool {
	done := make(chan struct{})
	go func() { d.conns.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(max):
		d.log.Warn("stopping with requests still in flight")
		return false
	}
}

// maxInFlight bounds the requests read or decided at once. Each may hold
// a frame of up to wire.MaxFrame and the input built from it; an agent
// runs a handful of tool calls at a time, so this is never reached in use.
const maxInFlight = 128

// handle serves the one request a connection carries; person is set for
// one that came on the person channel. One request per
// connection keeps the protocol trivial for the hook, which makes a single
// call per process, and saves the daemon a read that would only see EOF.
//
// A decide request has one deadline, measured from here, or from when
// its hook started if that was earlier (see hookDeadline): the request
// budget (config.RequestBudget, below the hook's own deadline) covers
// waiting for a slot and a worker, parsing, deriving and evaluating.
// Past it the answer is deny, never silence: a hook that hears nothing
// lets the call run.
func (d *Daemon) handle(ctx context.Context, conn net.Conn, person bool) {
	accepted := time.Now()
	defer conn.Close()
	defer func() {
		if r := recover(); r != nil {
			d.log.Error("request handler panicked", "panic", r)
			writeResponse(conn, &wire.Response{Error: &wire.Error{Code: wire.CodeInternal, Message: fmt.Sprint("the daemon failed: ", r)}})
		}
	}()
	caller, err := checkPeer(conn, d.opts.System)
	if err != nil {
		d.log.Warn("refused a connection", "err", err)
		return
	}
	cfg := d.decider.Config()
	if d.opts.System {
		if !d.callers.take(caller) {
			d.refuseOverShare(conn, cfg, accepted)
			return
		}
		defer d.callers.release(caller)
	}
	body, freeSlot, ok := d.readRequest(conn, cfg, accepted, caller)
	defer freeSlot()
	if !ok {
		return
	}
	r := d.serve(ctx, body, request{cfg: cfg, accepted: accepted, caller: caller, person: person, hookPID: func() int { return connPID(conn) }})
	if r.held != nil {
		// A call held for a person waits without a request slot: its
		// decision is made, and the slots are for calls being decided.
		freeSlot()
		if r.resp = d.hold(ctx, conn, r.held, cfg); r.resp == nil {
			r.after(false)
			return
		}
	}
	err = writeResponse(conn, r.resp)
	if err != nil {
		d.log.Warn("the answer could not be delivered", "err", err)
	}
	if r.after != nil {
		r.after(err == nil) // the hook has its answer; bookkeeping does not delay it
	}
}

// refuseOverShare answers a caller past its user's share (see
// maxPerCaller): its request is drained without a slot and denied, so a
// flood costs this user's calls alone.
func (d *Daemon) refuseOverShare(conn net.Conn, cfg config.Config, accepted time.Time) {
	conn.SetReadDeadline(time.Now().Add(cfg.ReadTimeout))
	br := frameReaders.Get().(*bufio.Reader)
	br.Reset(conn)
	discardFrame(br)
	br.Reset(nil)
	frameReaders.Put(br)
	d.decider.Count(wire.Deny)
	writeResponse(conn, &wire.Response{Decision: overShareDecision(accepted)})
}

// readRequest reads the connection's request under a request slot, by
// the budget of the last hook's deadline if that is shorter than
// config.yaml's read_timeout (the request has not said its own yet). What
// it cannot read, or read in time, it answers itself (ok false): a deny
// when the budget ran out, since a hook that gets an error may let the
// call run. freeSlot gives the slot back; it may be called more than once.
func (d *Daemon) readRequest(conn net.Conn, cfg config.Config, accepted time.Time, caller int) (body []byte, freeSlot func(), ok bool) {
	budget := requestBudget(cfg, time.Duration(d.hookTimeout.Load()))
	deadline := accepted.Add(budget)
	readBy := time.Now().Add(cfg.ReadTimeout)
	budgetBound := readBy.After(deadline)
	if budgetBound {
		readBy = deadline
	}
	conn.SetReadDeadline(readBy)
	br := frameReaders.Get().(*bufio.Reader)
	br.Reset(conn)
	defer func() {
		br.Reset(nil)
		frameReaders.Put(br)
	}()
	slot := false
	freeSlot = func() {
		if slot {
			slot = false
			<-d.inFlight
		}
	}
	err := d.awaitRequest(br)
	if err == nil {
		if !d.takeSlot(deadline) {
			// Every slot is taken. Answer without reading the request into
			// memory: drain it, then deny.
			conn.SetReadDeadline(time.Now().Add(cfg.ReadTimeout))
			discardFrame(br)
			d.decider.Late(budget, "waiting for a free request slot")
			d.decider.Count(wire.Deny)
			writeResponse(conn, &wire.Response{Decision: lateDecision(budget, "waiting for a free request slot", accepted)})
			return nil, freeSlot, false
		}
		slot = true
		body, err = wire.ReadFrame(br)
	}
	if err == nil {
		return body, freeSlot, true
	}
	var werr *wire.Error
	var nerr net.Error
	switch {
	case errors.Is(err, io.EOF):
	case errors.As(err, &werr):
		writeResponse(conn, &wire.Response{Error: werr})
	case errors.As(err, &nerr) && nerr.Timeout() && budgetBound:
		// The budget ran out while the request was still arriving (an
		// overloaded machine): deny, as for any request past its budget.
		dec := lateDecision(budget, "reading the request", accepted)
		d.decider.Late(budget, "reading the request")
		d.decider.Count(wire.Deny)
		// Nothing of the call was read, so nothing is logged here: a hook
		// that gave up recorded the call in its failure log, which the
		// accounting reads (faillog.go).
		writeResponse(conn, &wire.Response{Decision: dec})
	case errors.As(err, &nerr) && nerr.Timeout():
		writeResponse(conn, &wire.Response{Error: &wire.Error{Code: wire.CodeTimeout, Message: "no complete request arrived within read_timeout"}})
	default:
		writeResponse(conn, &wire.Response{Error: &wire.Error{Code: wire.CodeBadRequest, Message: "reading the request: " + err.Error()}})
	}
	return nil, freeSlot, false
}

// hookDeadline is the request's deadline counted from when its hook
// started (start, Unix milliseconds) rather than from when the daemon
// accepted it, when that is earlier. A start in the future (clocks set
// back) or none leaves deadline as it is.
func hookDeadline(deadline time.Time, start int64, budget time.Duration) time.Time {
	if start <= 0 {
		return deadline
	}
	if byHook := time.UnixMilli(start).Add(budget); byHook.Before(deadline) {
		return byHook
	}
	return deadline
}

// takeSlot takes a slot among maxInFlight, waiting no later than
// deadline, and reports whether it got one. A free slot, the usual case,
// costs no timer.
func (d *Daemon) takeSlot(deadline time.Time) bool {
	select {
	case d.inFlight <- struct{}{}:
		return true
	default:
	}
	wait := time.NewTimer(time.Until(deadline))
	defer wait.Stop()
	select {
	case d.inFlight <- struct{}{}:
		return true
	case <-wait.C:
		return false
	}
}

// frameReaders buffer a request's reading: one read usually brings the
// frame's header and body together, where reading the header first
// takes a second read (and a trip through the poller). A body larger
// than the buffer is read straight into its own slice.
var frameReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4<<10) }}

// discardFrame reads one frame without keeping it.
func discardFrame(r io.Reader) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return
	}
	n := int64(binary.BigEndian.Uint32(hdr[:]))
	if n <= wire.MaxFrame {
		io.CopyN(io.Discard, r, n)
	}
}

// writeResponse writes resp. An answer too large for a frame (the
// explained input of a huge event) loses its explanation, and failing
// that becomes a plain deny: the hook always gets a verdict.
func writeResponse(conn net.Conn, resp *wire.Response) error {
	conn.SetWriteDeadline(time.Now().Add(2 * time.Second))
	err := wire.WriteFrame(conn, resp)
	var werr *wire.Error
	if !errors.As(err, &werr) || werr.Code != wire.CodeTooLarge || resp.Decision == nil {
		return err
	}
	slim := *resp.Decision
	slim.Input = nil
	if err = wire.WriteFrame(conn, &wire.Response{Decision: &slim}); !errors.As(err, &werr) || werr.Code != wire.CodeTooLarge {
		return err
	}
	msg := "agentjail blocked this call because its answer was too large to send; a policy emits too much text: see `agentjail try`"
	return wire.WriteFrame(conn, &wire.Response{Decision: &wire.Decision{
		Verdict: wire.Deny, Reason: msg, Revision: slim.Revision,
		Rules: []wire.Rule{{Kind: wire.Deny, ID: "agentjail.too_large", Msg: msg}},
	}})
}

// decideBy decides req on a worker and answers by deadline whatever
// happens: a deny if no worker was free in time, or if the
// worker has not finished (derivation cannot be interrupted; evaluation
// is cancelled at the deadline too). A late worker's result is dropped.
func (d *Daemon) decideBy(ctx context.Context, req *wire.Request, budget time.Duration, deadline, accepted time.Time) (*wire.Decision, *policyset.Call, *wire.Error) {
	if !time.Now().Before(deadline) {
		// Its hook's budget ran out before the request was read (the
		// daemon was kept busy): answer at once, without working on a
		// call whose hook is giving up.
		d.decider.Late(budget, "waiting to be read")
		return lateDecision(budget, "waiting to be read", accepted), nil, nil
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	type result struct {
		dec  *wire.Decision
		call *policyset.Call
		err  error
	}
	done := make(chan result, 1) // buffered: a late worker never blocks
	job := func() {
		if ctx.Err() != nil {
			return // abandoned while it waited for this worker
		}
		dec, call, stack, err := d.decider.Judge(ctx, req, true)
		if stack != nil {
			d.log.Error("panic while deciding; the call was denied", "reason", dec.Reason, "stack", string(stack))
		}
		done <- result{dec, call, err}
	}
	stage := "waiting for a free worker"
	if req.Source != "" {
		// A try never takes the workers kept for the hooks.
		if !d.takeTryWorker(ctx) {
			return nil, nil, &wire.Error{Code: wire.CodeBusy, Message: "the daemon's workers are busy with the agents' calls; try again in a moment"}
		}
		inner := job
		job = func() { defer d.releaseTryWorker(); inner() }
	}
	submitted := d.workers.submit(ctx, job)
	if !submitted && req.Source != "" {
		d.releaseTryWorker() // the job that would have released it never runs
	}
	if submitted {
		stage = "deciding"
		select {
		case r := <-done:
			if r.err != nil {
				var werr *wire.Error
				if !errors.As(r.err, &werr) {
					werr = &wire.Error{Code: wire.CodeInternal, Message: r.err.Error()}
				}
				return nil, nil, werr
			}
			return r.dec, r.call, nil
		case <-ctx.Done():
			select {
			case r := <-done: // finished just as time ran out: use it
				if r.err == nil {
					return r.dec, r.call, nil
				}
			default:
			}
		}
	}
	d.decider.Late(budget, stage)
	return lateDecision(budget, stage, accepted), nil, nil
}

// Status reports the daemon's health.
func (d *Daemon) Status() *wire.Status {
	st := &wire.Status{
		PID:       os.Getpid(),
		Version:   d.opts.Version,
		StartedAt: d.started.UTC().Format(time.RFC3339),
		Socket:    d.opts.Socket,
		Home:      d.opts.Home,
		Mode:      d.opts.Mode,
		Tray:      d.opts.Tray,
	}
	st.Confinement = d.confinement()
	st.Answers = d.answers()
	st.Headless = d.opts.Desktop == nil
	if d.opts.Desktop != nil {
		st.Tray, st.TrayShown = d.opts.Desktop.TrayState()
		st.Notify = d.opts.Desktop.NotifyStatus()
	}
	d.decider.FillStatus(st)
	st.DecisionsSince = st.StartedAt // the decider's counters start with the daemon
	st.LogErrors, st.LastLogError = d.decisions.Failures()
	d.fillHealth(st)
	d.fillFailRun(st, time.Now())
	d.fillOrg(st)
	d.fillAccounting(st)
	return st
}

func (d *Daemon) logLoad() {
	d.approvals.SetGrantExpiry(d.decider.Config().GrantExpiry)
	// Every load ends here: the opa: section may have changed with it.
	d.syncFleet()
	if d.opts.LogLevel != nil {
		var level slog.Level
		if level.UnmarshalText([]byte(d.decider.Config().LogLevel)) == nil {
			d.opts.LogLevel.Set(level)
		}
	}
	st := d.Status()
	for _, e := range st.LoadErrors {
		d.log.Error("policy not loaded; the last good policy set stays in force", "error", e.String())
	}
	if st.ConfigError != "" {
		d.log.Error("config not loaded", "in_force", st.ConfigInForce)
	}
	if st.LastGoodError != "" {
		d.log.Warn(st.LastGoodError)
	}
	d.log.Info("policies in force", "revision", st.Revision, "files", len(st.Sources))
	d.writeHookState()
	// Parsing and compiling the pack leaves several times its size in
	// garbage, which an idle daemon would otherwise hold for minutes:
	// give it back now.
	debug.FreeOSMemory()
	dropBinaryPages()
}
