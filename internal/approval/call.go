package approval

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/wire"
)

// LockedPrefix marks the pack's locked rules (engine.LockedPrefix).
const LockedPrefix = "self."

// CallOf is the pending view of a call the policies asked about: d its
// derived facts (nil when it was answered before they were derived), id
// the call as its agent names it, summary the decision log's one line
// for it.
func CallOf(d *input.Derived, id agent.CallID, dec *wire.Decision, summary string, uid int) Call {
	c := Call{Summary: summary, UID: uid, Session: id.Session, Tool: id.Tool}
	if d != nil {
		c.Agent, c.Cwd = d.Agent, d.Cwd
		if d.ToolName != "" {
			c.Tool = d.ToolName
		}
	}
	for _, r := range dec.Rules {
		if r.Kind != wire.Ask {
			continue
		}
		c.Rules = append(c.Rules, r.ID)
		c.Reasons = append(c.Reasons, r.Msg)
		c.Locked = c.Locked || r.Org || r.ID == "" || strings.HasPrefix(r.ID, LockedPrefix)
	}
	c.Input, _ = json.Marshal(id.Input)
	c.Project = ProjectOf(c.Cwd)
	c.Family = family(d)
	return c
}

// family is what a grant for this call covers: for a shell command each
// program (by name) with its first operand, its subcommand ("git
// reset", "npm publish", "rm build"), in order; for a file tool its kind
// and files. Never broader than the call: a family with anything the
// daemon could not read statically (a program found at run time) is
// none, and such a call is allowed once, never granted.
func family(d *input.Derived) string {
	if d == nil {
		return ""
	}
	if d.ToolKind != agent.KindShell {
		paths := d.Paths
		if len(paths) == 0 && d.FilePath != "" {
			paths = []string{d.FilePath}
		}
		if d.ToolKind == "" || len(paths) == 0 {
			return ""
		}
		return d.ToolKind + " " + strings.Join(paths, " ")
	}
	if d.Shell == nil {
		return ""
	}
	var parts []string
	for _, cmd := range d.Shell.Commands {
		if cmd.Dynamic || cmd.Name == "" {
			return ""
		}
		part := path.Base(cmd.Name)
		if len(cmd.Operands) > 0 {
			part += " " + cmd.Operands[0]
		}
		if !slices.Contains(parts, part) {
			parts = append(parts, part)
		}
	}
	return strings.Join(parts, "; ")
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
