package daemon

import (
	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// subscriber hears of each decided call once its answer is sent, or
// could not be: the record the decision log keeps of it. Approvals are
// not one: they are the one step that may change an answer, before it
// is written (judgeAsk, hold).
type subscriber struct {
	name string
	// agentsOnly: a try (the user testing a policy) never reaches it.
	agentsOnly bool
	hear       func(decisionlog.Record)
}

// subscribers are the decided calls' subscribers, in the order they
// hear: the decision log first, so that what the others show is in it.
func (d *Daemon) subscribers() []subscriber {
	subs := []subscriber{
		{name: "decision log", hear: d.decisions.Append},
		{name: "memory trim", hear: func(r decisionlog.Record) { d.trim.busy(r.Time) }},
		{name: "org collector", agentsOnly: true, hear: d.fleetLog},
	}
	if d.opts.OnDecision != nil {
		subs = append(subs, subscriber{name: "tray", agentsOnly: true, hear: d.opts.OnDecision})
	}
	return append(subs, subscriber{name: "daemon log", agentsOnly: true, hear: func(r decisionlog.Record) {
		if r.Verdict == string(wire.Deny) {
			d.log.Info("denied", "rules", r.RuleIDs, "eval_us", r.EvalMicros)
		}
	}})
}

// logApproved records a decision of a call from uid (-1: not known;
// the system daemon records whose call each decision was) and source
// (see wire.Request): a try is logged with its source, and the tray
// (counts, notifications, recent blocks) never hears of it. repeat says
// the call was logged already from another hook; an answer that was not
// delivered is logged all the same, marked, since the agent did not
// hear it (a fail-open hook's is accounted as unchecked instead, in
// serveDecide). appr says how a person or a grant settled it (nil for
// any other).
func (d *Daemon) logApproved(uid int, source string, call *policyset.Call, dec *wire.Decision, appr *decisionlog.Approval, delivered, repeat bool) {
	if source == "" && delivered && repeat {
		// Answered, as the agent waits on this hook too, but the call is
		// in the log already.
		d.log.Debug("the same call again from another hook; logged once", "verdict", dec.Verdict)
		return
	}
	rec := record(call, dec)
	if appr != nil {
		rec.Approval = appr
		if len(rec.RuleIDs) == 0 {
			// Allowed by a person or a grant: the rules that asked.
			for _, r := range dec.Rules {
				if r.Kind == wire.Ask {
					rec.RuleIDs = append(rec.RuleIDs, r.ID)
					rec.Reasons = append(rec.Reasons, r.Msg)
				}
			}
		}
	}
	if uid >= 0 && d.opts.System {
		rec.UID = &uid
	}
	rec.Undelivered = !delivered
	rec.Source = source
	for _, s := range d.decided {
		if source == "" || !s.agentsOnly {
			s.hear(rec)
		}
	}
}
