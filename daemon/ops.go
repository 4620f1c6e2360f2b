package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/jsonscan"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/wire"
)

// request is one request as the connection delivered it: the body, and
// what the connection says about who sent it and when.
type request struct {
	wire.Request
	cfg      config.Config // in force when the request was accepted
	accepted time.Time
	caller   int        // the peer's uid, from its credentials
	person   bool       // it came on the person channel
	hookPID  func() int // the peer's pid, read only when needed
}

// reply is a handler's answer: the response, what to do once it is sent
// (log a decision, told whether it was delivered; nil: nothing), and a
// call held for a person (see approvals.go; nil: none), which is answered
// later and whose after logs the answer it got.
type reply struct {
	resp  *wire.Response
	after func(delivered bool)
	held  *held
}

// answer is a reply of a response alone.
func answer(resp *wire.Response) reply { return reply{resp: resp} }

// failure is a reply of an error.
func failure(code, format string, args ...any) reply {
	return answer(&wire.Response{Error: &wire.Error{Code: code, Message: fmt.Sprintf(format, args...)}})
}

// opHandlers answer each op the daemon knows.
var opHandlers = map[string]func(*Daemon, context.Context, *request) reply{
	wire.OpDecide:  (*Daemon).serveDecide,
	wire.OpStatus:  (*Daemon).serveStatus,
	wire.OpReload:  (*Daemon).serveReload,
	wire.OpRecent:  (*Daemon).serveRecent,
	wire.OpObserve: (*Daemon).serveObserve,
	wire.OpPending: (*Daemon).serveHeldCalls,
	wire.OpAnswer:  (*Daemon).serveHeldCalls,
	wire.OpGrants:  (*Daemon).serveHeldCalls,
	wire.OpRevoke:  (*Daemon).serveHeldCalls,
}

// serve decodes one request body and hands it to its op's handler. Every
// request but a hook's decide takes a share of the capacity kept apart
// from the agents' calls (see takeOther).
func (d *Daemon) serve(ctx context.Context, body []byte, r request) reply {
	err := json.Unmarshal(body, &r.Request)
	r.CallerUID = &r.caller // from the peer credentials, whatever the body said
	if err != nil {
		if jsonscan.TooDeep(body) {
			// An event nested past what Go decodes, from a client that
			// sent it anyway: ask, as for one nested past jsonscan.MaxDepth.
			d.decider.Count(wire.Ask)
			return answer(&wire.Response{Decision: d.decider.TooDeep()})
		}
		return failure(wire.CodeBadRequest, "the request is not valid JSON: %v", err)
	}
	handle, known := opHandlers[r.Op]
	if !known {
		ops := make([]string, 0, len(opHandlers))
		for op := range opHandlers {
			ops = append(ops, op)
		}
		slices.Sort(ops)
		return failure(wire.CodeUnknownOp, "unknown op %q: this daemon knows %s", r.Op, strings.Join(ops, ", "))
	}
	if r.Op != wire.OpDecide || r.Source != "" {
		if !d.takeOther() {
			return failure(wire.CodeBusy, "the daemon is busy with the agents' calls and keeps the rest of its capacity for them; try again in a moment")
		}
		defer d.releaseOther()
	}
	return handle(d, ctx, &r)
}

// serveDecide judges one call: a hook's, or a try's (Source), which is
// the user testing a policy and is neither counted nor shown in the tray.
func (d *Daemon) serveDecide(ctx context.Context, r *request) reply {
	req := &r.Request
	if req.Source != "" && req.Source != wire.SourceTry {
		return failure(wire.CodeBadRequest, "unknown source %q: a decide request comes from the hook (no source) or from %q", req.Source, wire.SourceTry)
	}
	budget, deadline := d.decideBudget(r)
	dec, call, err := d.decideBy(ctx, req, budget, deadline, r.accepted)
	if err != nil {
		return answer(&wire.Response{Error: err})
	}
	hook := req.Source == ""
	if hook {
		d.decider.Count(dec.Verdict)
	}
	if call == nil {
		// Answered before the call was judged (late, too deep, or a
		// panic): log what the event itself says.
		call = policyset.CallOf(req.Event, req.Agent)
	}
	// Whether this is a second hook of one call is settled before the
	// answer is written: the agent sends the next event only once it
	// has this answer, so the calls are judged in the order they came,
	// whereas the logging below runs after the write, when a later
	// request's may have run first.
	repeat := hook && d.repeats.repeated(call, string(dec.Verdict), time.Now())
	var h *held
	var granted *decisionlog.Approval
	if hook && dec.Verdict == wire.Ask && !repeat {
		dec, h, granted = d.judgeAsk(r.cfg, req, call, dec, r.caller, r.hookPID)
	}
	if hook {
		// The accounting learns of the call before its hook hears
		// the answer: the agent's post-tool event, settled at once,
		// can arrive as soon as the call has run, and must find it.
		d.ledger.judged(call.ID, time.Now())
	}
	after := func(delivered bool) {
		if hook {
			if p := call.ID.Transcript; p != "" {
				d.followTranscript(req.Agent, p)
			}
		}
		final, appr := dec, granted
		if h != nil && h.final != nil {
			final, appr = h.final, h.approval
		}
		if hook && !delivered && h == nil && !req.HookFailClosed && r.cfg.FailMode != "closed" {
			// The hook gave up before this answer and, failing open, let
			// the call run: it ran unchecked, whatever was decided.
			d.ledger.forget(call.ID)
			input, _ := json.Marshal(call.ID.Input)
			if call.ID.Input == nil {
				input = nil
			}
			d.lateUnchecked(ranCall{Agent: call.Agent.Name, Session: call.ID.Session, ID: call.ID.ID, Tool: call.ID.Tool, Cwd: req.Cwd, Input: input, Time: time.Now()})
			return
		}
		d.logApproved(r.caller, req.Source, call, final, appr, delivered, repeat)
	}
	return reply{resp: &wire.Response{Decision: dec}, after: after, held: h}
}

// decideBudget is how long a decide request may take, and by when it is
// answered: the budget from the hook's own timeout (noting a hook's), the
// deadline counted from when its hook started when that is earlier.
func (d *Daemon) decideBudget(r *request) (time.Duration, time.Time) {
	hookTimeout := time.Duration(r.HookTimeoutMillis) * time.Millisecond
	if r.Source == "" && r.HookTimeoutMillis > 0 {
		d.sawHook(hookTimeout, r.HookFailClosed)
	}
	budget := requestBudget(r.cfg, hookTimeout)
	deadline := r.accepted.Add(budget)
	if r.Source == "" {
		start := r.HookStartMillis
		if start > 0 && start < d.ready.Load() {
			// The call waited on the backlog while this daemon
			// started, and its hook waits wire.StartGrace longer
			// for a starting daemon: so does its budget.
			start += wire.StartGrace.Milliseconds()
		}
		deadline = hookDeadline(deadline, start, budget)
	}
	return budget, deadline
}

// serveStatus reports the daemon's health; in system mode, with the
// caller's own policies and why any was left out.
func (d *Daemon) serveStatus(ctx context.Context, r *request) reply {
	st := d.Status()
	if d.opts.System {
		if r.caller != 0 {
			// The last evaluation error may quote another user's
			// call; its count stays, its text is root's to read.
			st.LastEvalErr = ""
		}
		if mine := d.decider.UserLoadErrors(ctx, r.caller); len(mine) > 0 {
			st.LoadErrors = append(st.LoadErrors, mine...)
			// The caller's own policies: refused or broken files
			// degrade their health as they would in user mode.
			st.Problems = append(st.Problems, wire.Problem{
				Kind:    "policy",
				Message: fmt.Sprintf("%s in your own policies, the first: %s; what loads of them is in force, with the machine's", plural.Of(len(mine), "problem"), mine[0].String()),
				Fix:     "fix or remove the file (`agentjail policy test` shows the errors); in system mode your policies may only add deny and ask rules",
			})
		}
	}
	return answer(&wire.Response{Status: st})
}

// serveReload loads the policies and config again now.
func (d *Daemon) serveReload(ctx context.Context, _ *request) reply {
	d.decider.Load(ctx)
	d.logLoad()
	return answer(&wire.Response{Status: d.Status()})
}

// serveObserve takes an agent's post-tool event for the accounting.
func (d *Daemon) serveObserve(_ context.Context, r *request) reply {
	d.observe(&r.Request)
	return answer(&wire.Response{})
}

// serveHeldCalls lists and answers the calls held for a person and the
// grants. A person's answer comes only on the person channel, and never
// from a confined call.
func (d *Daemon) serveHeldCalls(_ context.Context, r *request) reply {
	if r.PersonOnly() && !r.person && d.person != nil {
		return failure(wire.CodeBadRequest, "agentjail takes a person's answers only on its person channel, which no tool call can reach: run `agentjail pending` and `agentjail approve` in a terminal")
	}
	if r.PersonOnly() && peerApart(r.hookPID()) {
		return failure(wire.CodeBadRequest, "agentjail takes no answer from a confined call: run `agentjail pending` and `agentjail approve` in a terminal")
	}
	return answer(d.serveApprovals(&r.Request, r.caller))
}

// serveRecent lists the caller's latest decisions.
func (d *Daemon) serveRecent(_ context.Context, r *request) reply {
	rec, werr := d.recent(r.Recent, r.caller)
	if werr != nil {
		return answer(&wire.Response{Error: werr})
	}
	return answer(&wire.Response{Recent: rec})
}
