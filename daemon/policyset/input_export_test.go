package policyset

import (
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/wire"
)

// DiffInput compares the input a decision hands OPA for req (built
// directly as OPA's value) with OPA's conversion of the Go map
// input.Build makes of it: "" when they are the same (see engine.DiffInput).
func (d *Decider) DiffInput(req *wire.Request) (string, error) {
	set := d.current.Load()
	env := d.inputEnv(set, req)
	in, _, err := input.Build(req.Event, env)
	if err != nil {
		return "", err
	}
	event, err := input.Decode(req.Event)
	if err != nil {
		return "", err
	}
	return engine.DiffInput(event, input.Derive(event, env), in), nil
}

// EngineOf is the compiled engine in force, for tests of reloading.
func (d *Decider) EngineOf() *engine.Engine { return d.current.Load().engine }
