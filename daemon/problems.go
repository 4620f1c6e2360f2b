package daemon

import "github.com/agentjail/agentjail/internal/wire"

// Problems are the policy files that did not load and the config error
// of the last load, for `agentjail try --offline`, which must warn that
// it decides without them.
func (d *Decider) Problems() ([]wire.LoadErr, string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]wire.LoadErr(nil), d.loadErrs...), d.configErr
}
