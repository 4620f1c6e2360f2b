// Package input builds the policy input from one hook event: the event
// exactly as the agent sent it (unknown fields kept), plus what the daemon
// derives, under the single key input.agentjail. Policies read derived
// facts from there instead of re-deriving them in Rego.
package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
)

// Key is the top-level input field that holds derived facts. Whatever the
// event carried under this key is replaced: only the daemon writes it.
const Key = "agentjail"

// Env is what the daemon knows beyond the event.
type Env struct {
	Home          string // the user's home directory
	AgentjailHome string // $AGENTJAIL_HOME
	ClientCwd     string // the hook's working directory, used when the event has no absolute cwd
	Agent         string // "claude-code" when empty
}

// Derived is the documented shape of input.agentjail.
type Derived struct {
	Agent         string `json:"agent"`
	Home          string `json:"home"`
	AgentjailHome string `json:"agentjail_home"`
	// Cwd is the event's cwd made absolute (against the hook's cwd) and
	// cleaned; the hook's cwd when the event has none.
	Cwd string `json:"cwd"`
	// FilePath is the tool's path argument (file_path, notebook_path or
	// path) with ~ and $HOME expanded, made absolute against Cwd, and
	// cleaned. Empty when the tool names no path.
	FilePath string `json:"file_path,omitempty"`
}

// ErrNotObject is returned for an event that is not a JSON object.
var ErrNotObject = errors.New("the event is not a JSON object")

// Build decodes event and returns the policy input and its derived part.
func Build(event []byte, env Env) (map[string]any, *Derived, error) {
	var in map[string]any
	dec := json.NewDecoder(bytes.NewReader(event))
	dec.UseNumber() // keep numbers exact; OPA reads json.Number
	if err := dec.Decode(&in); err != nil || in == nil {
		return nil, nil, ErrNotObject
	}
	if dec.More() {
		return nil, nil, ErrNotObject
	}
	d := Derive(in, env)
	in[Key] = d.Map()
	return in, d, nil
}

// Derive computes the derived facts for a decoded event.
func Derive(event map[string]any, env Env) *Derived {
	d := &Derived{Agent: env.Agent, Home: env.Home, AgentjailHome: env.AgentjailHome}
	if d.Agent == "" {
		d.Agent = "claude-code"
	}
	cwd, _ := event["cwd"].(string)
	d.Cwd = Abs(cwd, env.ClientCwd, env.Home)
	if d.Cwd == "" {
		d.Cwd = filepath.Clean(env.ClientCwd)
	}
	if ti, ok := event["tool_input"].(map[string]any); ok {
		for _, k := range []string{"file_path", "notebook_path", "path"} {
			if p, ok := ti[k].(string); ok && p != "" {
				d.FilePath = Abs(p, d.Cwd, env.Home)
				break
			}
		}
	}
	return d
}

// Map is d as a JSON-shaped value for the policy input.
func (d *Derived) Map() map[string]any {
	m := map[string]any{
		"agent":          d.Agent,
		"home":           d.Home,
		"agentjail_home": d.AgentjailHome,
		"cwd":            d.Cwd,
	}
	if d.FilePath != "" {
		m["file_path"] = d.FilePath
	}
	return m
}

// Abs expands a leading ~, $HOME or ${HOME} to home, makes p absolute
// against base, and cleans it. An empty p gives "".
func Abs(p, base, home string) string {
	if p == "" {
		return ""
	}
	p = ExpandHome(p, home)
	if !filepath.IsAbs(p) {
		if base == "" {
			return filepath.Clean(p)
		}
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// ExpandHome replaces a leading ~, $HOME or ${HOME} with home.
func ExpandHome(p, home string) string {
	if home == "" {
		return p
	}
	for _, prefix := range []string{"~", "$HOME", "${HOME}"} {
		if p == prefix {
			return home
		}
		if strings.HasPrefix(p, prefix+"/") {
			return home + p[len(prefix):]
		}
	}
	return p
}
