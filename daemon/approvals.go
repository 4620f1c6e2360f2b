package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/approval"
	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/wire"
)

// Approvals are the calls that wait for a person and the grants people
// gave (the tray answers from them).
func (d *Daemon) Approvals() *approval.Store { return d.approvals }

// held is a call the daemon holds for a person: what it waits on, and,
// once answered, the decision and how it came about (for the log).
type held struct {
	call     approval.Call
	ask      *wire.Decision
	wait     time.Duration
	prompts  bool // the agent shows its own prompt for an ask
	final    *wire.Decision
	approval *decisionlog.Approval
}

// errHookGone ends a hold whose hook went away (the agent gave up).
var errHookGone = errors.New("the hook went away")

// judgeAsk settles an ask from a hook before it is answered: a grant of
// the caller's that covers it allows it; otherwise, if approvals may
// hold it, it is held (the returned held); otherwise the ask stands.
func (d *Daemon) judgeAsk(cfg config.Config, req *wire.Request, c *policyset.Call, dec *wire.Decision, caller int, hook func() int) (*wire.Decision, *held, *decisionlog.Approval) {
	call := approval.CallOf(c.Derived, c.ID, dec, summary(c), caller)
	if g, ok := d.approvals.Covers(call); ok {
		granted := &wire.Decision{
			Verdict: wire.Allow, Explicit: true, Rules: dec.Rules, EvalMicros: dec.EvalMicros, Revision: dec.Revision, Jail: dec.Jail,
			Reason: fmt.Sprintf("Allowed by a person's grant (%s, %s: %s).", g.ID, g.Scope, g.Family),
		}
		return granted, nil, &decisionlog.Approval{By: "grant", Scope: g.Scope, Grant: g.ID, Digest: call.Digest()}
	}
	prompts := agentPrompts(c, hook)
	hold := cfg.ApprovalTimeout > 0 && req.HoldMillis > 0 && (cfg.Approvals != "agent" || !prompts)
	if !hold {
		return dec, nil, nil
	}
	wait := min(cfg.ApprovalTimeout, time.Duration(req.HoldMillis)*time.Millisecond)
	return dec, &held{call: call, ask: dec, wait: wait, prompts: prompts}, nil
}

// agentPrompts reports whether the agent that sent call shows its own
// prompt for an ask (agent.Prompter) in this run: not one started
// headless (claude -p), which hook, the hook's pid, runs under. An agent
// that does not say cannot.
func agentPrompts(call *policyset.Call, hook func() int) bool {
	if !call.Prompts {
		return false
	}
	facts := call.Agent
	return !headlessRun(hook(), facts.Facts)
}

// hold opens h's approval, tells the hook it is held, and waits for a
// person, the end of the wait, or the hook going away; it returns the
// final answer (nil if the hook is gone before it could be told).
func (d *Daemon) hold(ctx context.Context, conn net.Conn, h *held, cfg config.Config) *wire.Response {
	started := time.Now()
	deadline := started.Add(h.wait)
	ticket, ok := d.approvals.Open(h.call, deadline)
	id := ticket.ID
	if !ok {
		d.log.Warn("too many calls wait for a person; this one was not held", "max", approval.MaxPending)
		return &wire.Response{Decision: h.ask}
	}
	h.approval = &decisionlog.Approval{ID: id, Digest: h.call.Digest()}
	if err := writeResponse(conn, &wire.Response{Held: &wire.Held{ID: id, WaitMillis: h.wait.Milliseconds()}}); err != nil {
		// The hook could not be told: nobody waits for this answer.
		ctx, cancel := context.WithCancel(ctx)
		cancel()
		d.ended(h, d.approvals.Wait(ctx, ticket, func() string { return "gone" }), started)
		return nil
	}
	daemonCtx := ctx
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	ctx, gone := context.WithCancelCause(ctx)
	defer gone(nil)
	go func() {
		// The hook sends nothing more: a read returns when it hangs up.
		conn.SetReadDeadline(time.Time{})
		var b [1]byte
		conn.Read(b[:])
		gone(errHookGone)
	}()
	o := d.approvals.Wait(ctx, ticket, func() string {
		switch {
		case errors.Is(context.Cause(ctx), errHookGone):
			return "gone"
		case daemonCtx.Err() != nil:
			return "stopped"
		}
		return "timeout"
	})
	d.ended(h, o, started)
	return &wire.Response{Decision: h.final}
}

// ended settles h's decision from how its approval ended.
func (d *Daemon) ended(h *held, o approval.Outcome, started time.Time) {
	cfg := d.decider.Config()
	h.approval.By, h.approval.Via, h.approval.Scope, h.approval.Grant = o.By, o.Via, o.Scope, o.Grant
	h.approval.WaitedMillis = time.Since(started).Milliseconds()
	// A call a person lets run runs in the jail the policies gave it.
	dec := &wire.Decision{Rules: h.ask.Rules, EvalMicros: h.ask.EvalMicros, Revision: h.ask.Revision, Jail: h.ask.Jail}
	ask := strings.TrimRight(h.ask.Reason, ". ")
	switch {
	case o.Allow && cfg.Approvals == "both" && h.prompts:
		dec.Verdict, dec.Reason = wire.Ask, h.ask.Reason
	case o.Allow:
		dec.Verdict, dec.Explicit = wire.Allow, true
		dec.Reason = fmt.Sprintf("A person approved this call in agentjail's %s.", viaWords(o.Via))
	case o.By == "person":
		dec.Verdict = wire.Deny
		dec.Reason = fmt.Sprintf("%s. A person denied this call in agentjail's %s: do not run it again unless the user asks you to.", ask, viaWords(o.Via))
	case o.By == "stopped":
		dec.Verdict = wire.Deny
		dec.Reason = fmt.Sprintf("%s. agentjail stopped while this call waited for a person to approve it, so it is blocked: try again once agentjail runs (`agentjail status`).", ask)
	case o.By == "wrong codes":
		dec.Verdict = wire.Deny
		dec.Reason = fmt.Sprintf("%s. agentjail denied this call after %s.", ask, plural.Of(approval.MaxWrongCodes, "wrong approval code"))
	default:
		dec.Verdict = wire.Deny
		dec.Reason = fmt.Sprintf("%s. agentjail held this call for a person to approve and nobody answered within %v, so it is blocked: ask the user to approve it in agentjail's menu bar or notification, or with `agentjail pending` and `agentjail approve` in their own terminal, and then try again.", ask, roundWait(time.Since(started)))
	}
	h.final = dec
}

func viaWords(via string) string {
	switch via {
	case wire.ViaTray:
		return "menu bar"
	case wire.ViaNotification:
		return "notification"
	case wire.ViaTerminal:
		return "terminal (agentjail approve)"
	}
	return "approvals"
}

func roundWait(d time.Duration) time.Duration { return d.Round(time.Second) }

// serveApprovals answers the approval ops for caller.
func (d *Daemon) serveApprovals(req *wire.Request, caller int) *wire.Response {
	a := &wire.Approvals{}
	var err error
	switch req.Op {
	case wire.OpPending:
		a.Pending = d.approvals.Pending(caller, req.ShowCodes)
	case wire.OpAnswer:
		if req.Answer == nil {
			err = errors.New("an answer request needs an answer")
			break
		}
		a.Done, err = d.approvals.Answer(*req.Answer, approval.Answerer{Via: wire.ViaTerminal, UID: caller})
	case wire.OpGrants:
		a.Grants = d.approvals.Grants(caller)
	case wire.OpRevoke:
		if req.Revoke == nil {
			err = errors.New("a revoke request needs a revoke")
			break
		}
		a.Done, err = d.approvals.Revoke(caller, *req.Revoke)
	}
	if err != nil {
		return &wire.Response{Error: &wire.Error{Code: wire.CodeBadRequest, Message: err.Error()}}
	}
	return &wire.Response{Approvals: a}
}
