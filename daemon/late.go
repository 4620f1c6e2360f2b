package daemon

import (
	"fmt"
	"time"

	"github.com/agentjail/agentjail/internal/wire"
)

// lateDecision is the answer when a request runs past its budget: deny,
// because a hook that hears nothing lets the call run.
func lateDecision(budget time.Duration, stage string, started time.Time) *wire.Decision {
	msg := fmt.Sprintf("agentjail blocked this call because deciding it took longer than its %v budget (%s); a policy rule is too slow or the daemon is overloaded: see `agentjail status`", budget, stage)
	return &wire.Decision{
		Verdict:    wire.Deny,
		Reason:     msg,
		Rules:      []wire.Rule{{Kind: wire.Deny, ID: "agentjail.deadline", Msg: msg}},
		EvalMicros: time.Since(started).Microseconds(),
	}
}
