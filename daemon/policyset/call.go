package policyset

import (
	"encoding/json"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/internal/input"
)

// Call is one call the decider judged, built once per request: the agent
// its event was recognised as, the call as that agent names it, and the
// facts derived from it. What the daemon keeps of a call (the decision
// log, the accounting, repeats, approvals) it reads from here, never
// from the event's own keys.
type Call struct {
	Agent agent.Agent // its facts and its adapter
	ID    agent.CallID
	// Derived are the facts the policies judged; nil for a call answered
	// before they were derived (too deep to read, a panic, too late).
	Derived *input.Derived
	// Prompts is set when the agent shows the person its own prompt for
	// an ask about this event (agent.Prompter).
	Prompts bool
}

// newCall is the call of a decoded event, with the facts derived from it
// (nil: none). name is the agent the hook ran for, when the facts do not
// say which agent's event it is.
func newCall(event map[string]any, derived *input.Derived, name string) *Call {
	var a agent.Agent
	if derived != nil {
		a, _ = agents.Named(derived.Agent)
	}
	if a.Adapter == nil {
		a, _ = agents.Named(agents.For(event, name).Name())
	}
	c := &Call{Agent: a, ID: a.Adapter.Identify(event), Derived: derived}
	if p, ok := a.Adapter.(agent.Prompter); ok {
		c.Prompts = p.Prompts(event)
	}
	return c
}

// CallOf is the call of a request answered without judging it (late,
// after a panic, or nested too deep to judge): what its event says, read
// by its agent's adapter, so that the accounting still knows the call
// when it runs after a person approved it. An event that does not decode
// is a call of nothing known.
func CallOf(event []byte, name string) *Call {
	var in map[string]any
	if json.Unmarshal(event, &in) != nil || in == nil {
		in = map[string]any{}
	}
	// The derived facts' key is agentjail's, never the agent's: an
	// event's own field of that name is not taken for them.
	delete(in, input.Key)
	return newCall(in, nil, name)
}
