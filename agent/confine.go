package agent

import (
	"bytes"
	"encoding/json"

	"github.com/agentjail/agentjail/internal/wire"
)

// Confiner is an adapter whose agent runs a shell call as a hook rewrote
// it: the hook has an allowed shell call run under agentjail's launcher,
// which confines it and then runs the original command. An agent whose
// adapter is not one is judged, not confined.
type Confiner interface {
	// Confine is the answer to d on event with the shell call's command
	// replaced by wrap(command); false when event is not a shell call
	// this agent lets a hook rewrite.
	Confine(event map[string]any, d *wire.Decision, wrap func(command string) string) (Answer, bool)
}

// RewriteCommand is a tool input (an object, or its JSON as DecodeTop
// keeps it) with the string member key replaced by wrap of it; every
// other member is kept as the agent sent it. False when the input is not
// an object or key is not a non-empty string in it.
func RewriteCommand(toolInput any, key string, wrap func(string) string) (map[string]any, bool) {
	var in map[string]any
	switch v := toolInput.(type) {
	case map[string]any:
		in = make(map[string]any, len(v))
		for k, x := range v {
			in[k] = x
		}
	case json.RawMessage:
		dec := json.NewDecoder(bytes.NewReader(v))
		dec.UseNumber()
		if dec.Decode(&in) != nil || in == nil {
			return nil, false
		}
	case string:
		// Some agents send the input as a JSON string.
		return RewriteCommand(json.RawMessage(v), key, wrap)
	default:
		return nil, false
	}
	cmd, ok := in[key].(string)
	if !ok || cmd == "" {
		return nil, false
	}
	in[key] = wrap(cmd)
	return in, true
}
