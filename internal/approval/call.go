package approval

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentjail/agentjail/internal/wire"
)

// LockedPrefix marks the pack's locked rules (engine.LockedPrefix).
const LockedPrefix = "self."

// CallOf is the pending view of a call the policies asked about: in is
// the policy input (the event, and the daemon's derivation under
// "agentjail"), summary the decision log's one line for it.
func CallOf(in map[string]any, dec *wire.Decision, summary string, uid int) Call {
	derived, _ := in["agentjail"].(map[string]any)
	c := Call{Summary: summary, UID: uid}
	c.Agent, _ = derived["agent"].(string)
	c.Session, _ = in["session_id"].(string)
	if c.Session == "" {
		c.Session, _ = in["sessionId"].(string)
	}
	c.Cwd, _ = derived["cwd"].(string)
	if c.Tool, _ = derived["tool_name"].(string); c.Tool == "" {
		c.Tool, _ = in["tool_name"].(string)
	}
	for _, r := range dec.Rules {
		if r.Kind != wire.Ask {
			continue
		}
		c.Rules = append(c.Rules, r.ID)
		c.Reasons = append(c.Reasons, r.Msg)
		c.Locked = c.Locked || r.Org || r.ID == "" || strings.HasPrefix(r.ID, LockedPrefix)
	}
	c.Input, _ = json.Marshal(toolInput(in))
	c.Project = ProjectOf(c.Cwd)
	c.Family = family(derived)
	return c
}

// toolInput is the call's input whatever the agent calls its field.
func toolInput(in map[string]any) any {
	for _, k := range []string{"tool_input", "toolArgs", "tool_args", "args", "input", "parameters"} {
		if v, ok := in[k]; ok {
			return v
		}
	}
	return in
}

// family is what a grant for this call covers: for a shell command each
// program (by name) with its first operand, its subcommand ("git
// reset", "npm publish", "rm build"), in order; for a file tool its kind
// and files. Never broader than the call: a family with anything the
// daemon could not read statically (a program found at run time) is
// none, and such a call is allowed once, never granted.
func family(derived map[string]any) string {
	kind, _ := derived["tool"].(string)
	if kind != "shell" {
		paths := strings_(derived["paths"])
		if len(paths) == 0 {
			if p, _ := derived["file_path"].(string); p != "" {
				paths = []string{p}
			}
		}
		if kind == "" || len(paths) == 0 {
			return ""
		}
		return kind + " " + strings.Join(paths, " ")
	}
	cmds, _ := derived["commands"].([]any)
	var parts []string
	for _, x := range cmds {
		cmd, _ := x.(map[string]any)
		if dyn, _ := cmd["dynamic"].(bool); dyn {
			return ""
		}
		name, _ := cmd["name"].(string)
		if name == "" {
			return ""
		}
		part := path.Base(name)
		if ops := strings_(cmd["operands"]); len(ops) > 0 {
			part += " " + ops[0]
		}
		if !slices.Contains(parts, part) {
			parts = append(parts, part)
		}
	}
	return strings.Join(parts, "; ")
}

func strings_(v any) []string {
	var out []string
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// ProjectOf is dir's project: the nearest folder at or above it with a
// .git, or dir itself.
func ProjectOf(dir string) string {
	if dir == "" {
		return ""
	}
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return filepath.Clean(dir)
		}
		d = up
	}
}
