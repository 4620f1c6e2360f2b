package policyset

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"
	"unicode/utf8"

	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/jsonscan"
	"github.com/agentjail/agentjail/internal/wire"
)

// Caps on what one answer carries. A policy may emit any number of
// messages of any length (a rule that quotes the command, a rule per
// item of a list); an answer over wire.MaxFrame would be dropped, and a
// hook without an answer applies its fail mode. With these caps an
// answer stays far below the frame limit whatever the policies say.
const (
	maxReasonMsgs = 10   // messages joined into Reason
	maxRules      = 50   // entries in Rules
	maxMsgBytes   = 1000 // bytes of one message
)

// capDecision clips every message and keeps the first maxRules rules and
// the first maxReasonMsgs messages of the winning kind, saying how many
// more there were. Rules lists deny first, then ask, then allow, so the
// rules that decided are the ones kept.
func capDecision(dec *wire.Decision) {
	long := false
	for _, r := range dec.Rules {
		if len(r.Msg) > maxMsgBytes || len(r.ID) > maxMsgBytes {
			long = true
			break
		}
	}
	if !long && len(dec.Rules) <= maxReasonMsgs {
		return // nothing to cap: the reason stays exactly as evaluated
	}
	winner := dec.Verdict
	if winner == wire.Allow && !dec.Explicit {
		winner = "" // no rule decided
	}
	// The reason, rebuilt from the winning kind's messages as the engine
	// builds it (sorted, adjacent duplicates once).
	var msgs []string
	for _, r := range dec.Rules {
		if r.Kind == winner && (len(msgs) == 0 || msgs[len(msgs)-1] != r.Msg) {
			msgs = append(msgs, r.Msg)
		}
	}
	if len(msgs) > 0 {
		shown := msgs[:min(len(msgs), maxReasonMsgs)]
		parts := make([]string, len(shown), len(shown)+1)
		for i, m := range shown {
			parts[i] = clipMsg(m)
		}
		if more := len(msgs) - len(shown); more > 0 {
			parts = append(parts, fmt.Sprintf("and %d more", more))
		}
		dec.Reason = engine.JoinReasons(parts)
	}
	if len(dec.Rules) > maxRules {
		dec.Omitted += len(dec.Rules) - maxRules
		dec.Rules = dec.Rules[:maxRules:maxRules]
	}
	for i := range dec.Rules {
		dec.Rules[i].Msg = clipMsg(dec.Rules[i].Msg)
		dec.Rules[i].ID = clipMsg(dec.Rules[i].ID)
	}
}

// clipMsg cuts s to maxMsgBytes on a rune boundary.
func clipMsg(s string) string {
	if len(s) <= maxMsgBytes {
		return s
	}
	cut := maxMsgBytes - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// panicDecision is the answer when deciding panicked: deny, naming an
// internal error, and the daemon goes on serving.
func panicDecision(p any) *wire.Decision {
	msg := fmt.Sprintf("agentjail blocked this call because of an internal error while deciding (%v); this is a bug in agentjail: the daemon log has the details", p)
	msg = clipMsg(msg)
	return &wire.Decision{
		Verdict: wire.Deny,
		Reason:  msg,
		Rules:   []wire.Rule{{Kind: wire.Deny, ID: "agentjail.internal_error", Msg: msg}},
	}
}

// tooDeepDecision answers an event nested past jsonscan.MaxDepth. The agent
// writes tool_input, so a bad-request error here (which the hook fails
// open) would let it slip any call past the guard by nesting it: the
// user is asked instead, as the hook asks about an event too large.
func tooDeepDecision(revision string) *wire.Decision {
	msg := fmt.Sprintf("agentjail cannot check this call: its event nests objects or arrays more than %d levels deep; approve it only if you expected a tool call shaped like this", jsonscan.MaxDepth)
	return &wire.Decision{
		Verdict:  wire.Ask,
		Reason:   msg,
		Rules:    []wire.Rule{{Kind: wire.Ask, ID: "agentjail.too_deep", Msg: msg}},
		Revision: revision,
	}
}

// TooDeep is the answer, with the set in force, to an event nested past
// wire.MaxDepth that the server could not even parse (see tooDeepDecision).
func (d *Decider) TooDeep() *wire.Decision {
	return tooDeepDecision(d.current.Load().engine.Revision())
}

// Judge is Decide for a server that answers by a deadline: a panic (in
// deriving or evaluating) is turned into a deny for this one request,
// its stack returned for the log; the call judged is returned when
// keepCall is set (the daemon's bookkeeping reads it; nil for an event
// too deep to read, or after a panic); and the verdict is not counted:
// the caller counts what it answered (Count), which past a deadline is
// not what Judge found.
func (d *Decider) Judge(ctx context.Context, req *wire.Request, keepCall bool) (dec *wire.Decision, call *Call, stack []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			d.evalErrs.Add(1)
			d.mu.Lock()
			d.lastEvalErr = clipMsg(fmt.Sprintf("internal error: %v", p))
			d.mu.Unlock()
			dec, call, stack, err = panicDecision(p), nil, debug.Stack(), nil
		}
	}()
	dec, call, err = d.decide(ctx, req, keepCall)
	return dec, call, nil, err
}

// Late records a request that ran past its budget as an evaluation error.
func (d *Decider) Late(budget time.Duration, stage string) {
	d.evalError(fmt.Sprintf("a request ran past its %v budget (%s)", budget, stage))
}

// evalError counts an evaluation error, and when and why it happened:
// status is degraded for wire.ProblemWindow after the last one.
func (d *Decider) evalError(msg string) {
	d.evalErrs.Add(1)
	d.mu.Lock()
	d.lastEvalErr = msg
	d.lastEvalAt = time.Now()
	d.mu.Unlock()
}

// Count adds a verdict the caller received to the counters.
func (d *Decider) Count(v wire.Verdict) {
	switch v {
	case wire.Deny:
		d.denies.Add(1)
	case wire.Ask:
		d.asks.Add(1)
	default:
		d.allows.Add(1)
	}
}
