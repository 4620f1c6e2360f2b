package input

import (
	"strings"

	"sync"

	"github.com/agentjail/agentjail/internal/shell"
)

// Builder makes JSON-shaped values of one representation. The shape of
// input.agentjail is written once, in Encode; Map makes it as Go maps
// and slices, and the engine makes it as OPA's own values, so that a
// decision need not build the Go form only for OPA to convert it.
//
// An object is built on a stack: Mark, then one Field per key, then
// Object with the mark, which takes the fields added since.
type Builder[V any] interface {
	String(s string) V
	Int(i int) V
	Bool(b bool) V
	Strings(ss []string) V // an array of strings
	// Array makes an array of vs; it may keep vs.
	Array(vs []V) V
	// JSON converts a JSON-shaped Go value (maps, slices, strings,
	// numbers, bools), for the parts other packages give as maps.
	JSON(x any) V
	Mark() int
	Field(key string, v V)
	Object(mark int) V
}

// Encode makes d, the value of input.agentjail, with b. Every field is
// present whenever its owner is, even when empty: rules test
// count(input.agentjail.paths) == 0, which an absent field would fail.
func Encode[V any](d *Derived, b Builder[V]) V {
	m := b.Mark()
	b.Field("agent", b.String(d.Agent))
	b.Field("home", b.String(d.Home))
	b.Field("agentjail_home", b.String(d.AgentjailHome))
	b.Field("temp", b.String(d.Temp))
	b.Field("daemon_pid", b.Int(d.DaemonPID))
	dm := b.Mark()
	b.Field("pid", b.Int(d.Daemon.PID))
	b.Field("pgid", b.Int(d.Daemon.PGID))
	b.Field("sid", b.Int(d.Daemon.SID))
	b.Field("ppid", b.Int(d.Daemon.PPID))
	b.Field("cmdlines", b.Strings(d.Daemon.Cmdlines))
	b.Field("cgroup", b.String(d.Daemon.Cgroup))
	b.Field("daemon", b.Object(dm))
	b.Field("tool", b.String(d.ToolKind))
	b.Field("tool_kind", b.String(d.ToolKind))
	b.Field("tool_name", b.String(d.ToolName))
	b.Field("socket", b.String(d.Socket))
	b.Field("cwd", b.String(d.Cwd))
	b.Field("paths", b.Strings(d.Paths))
	b.Field("writes", b.Strings(d.Writes))
	b.Field("unusual_paths", b.Strings(d.Unusual))
	if len(d.Unusual) > 0 || d.UnusualWrite {
		b.Field("unusual", b.Bool(true))
	}
	b.Field("prefixes", b.Strings(d.Prefixes))
	b.Field("urls", b.Strings(d.URLs))
	if d.FilePath != "" {
		b.Field("file_path", b.String(d.FilePath))
	}
	if d.Command != "" || d.Shell != nil {
		b.Field("command", b.String(d.Command)) // a shell call's, even when empty
	}
	if d.Root {
		b.Field("root", b.Bool(true))
	}
	if d.System {
		b.Field("system", b.Bool(true))
	}
	if d.PatchTruncated {
		b.Field("patch_truncated", b.Bool(true))
	}
	if len(d.Touches) > 0 {
		b.Field("touches", b.Strings(d.Touches))
	}
	if len(d.TouchesProse) > 0 {
		b.Field("touches_prose", b.Strings(d.TouchesProse))
	}
	if len(d.PIDs) > 0 {
		pids := make([]V, len(d.PIDs))
		for i, p := range d.PIDs {
			pids[i] = b.Int(int(p))
		}
		b.Field("pids", b.Array(pids))
	}
	if d.TouchesTruncated {
		b.Field("touches_truncated", b.Bool(true))
	}
	if d.Search != nil {
		s := b.Mark()
		b.Field("pattern", b.String(d.Search.Pattern))
		b.Field("glob", b.String(d.Search.Glob))
		b.Field("content", b.Bool(d.Search.Content))
		b.Field("lines", b.Bool(d.Search.Lines))
		b.Field("search", b.Object(s))
	}
	if len(d.GuardConfig) > 0 {
		list := make([]any, len(d.GuardConfig))
		for i, j := range d.GuardConfig {
			list[i] = j.Map()
		}
		b.Field("guard_config", b.JSON(list))
	}
	if len(d.Written) > 0 {
		b.Field("written", b.JSON(writtenList(d.Written)))
	}
	if d.PathsUnresolved {
		b.Field("paths_unresolved", b.Bool(true))
	}
	if len(d.UnknownCwdWrites) > 0 {
		list := make([]any, len(d.UnknownCwdWrites))
		for i, u := range d.UnknownCwdWrites {
			list[i] = map[string]any{"command": u.Command, "path": u.Path, "place": u.Place}
		}
		b.Field("unknown_cwd_writes", b.JSON(list))
	}
	if len(d.Nested) > 0 {
		list := make([]any, len(d.Nested))
		for i, l := range d.Nested {
			list[i] = l.Map()
		}
		b.Field("nested_agents", b.JSON(list))
	}
	if len(d.GitRemotes) > 0 {
		remotes := make(map[string]any, len(d.GitRemotes))
		for k, v := range d.GitRemotes {
			remotes[k] = v
		}
		b.Field("git_remotes", b.JSON(remotes))
	}
	if d.Shell != nil {
		cmds := make([]V, len(d.Shell.Commands))
		for i, c := range d.Shell.Commands {
			cmds[i] = encodeCommand(c, b)
		}
		b.Field("commands", b.Array(cmds))
		names := commandNames(d.Shell.Commands)
		b.Field("names", b.Strings(names))
		b.Field("kinds", b.Strings(kinds(names, d.groups)))
		if repeats(d.Shell.Commands) {
			b.Field("repeats", b.Bool(true))
		}
		if unjudged(d.Shell.Commands) {
			b.Field("unjudged", b.Bool(true))
		}
		if files := unreadable(d.Shell.Commands); len(files) > 0 {
			b.Field("unreadable", b.Strings(files))
		}
		if d.Shell.Error != "" {
			b.Field("parse_error", b.String(d.Shell.Error))
		}
	}
	return b.Object(m)
}

// repeats reports a command that runs in a loop or a function calling
// itself (input.agentjail.repeats), so that rules about loops skip
// every other call without looking at its commands.
func repeats(cmds []shell.Command) bool {
	for _, c := range cmds {
		if c.Repeats != "" {
			return true
		}
	}
	return false
}

// unreadable are the files commands run that are there but the daemon
// may not read (the system daemon's own user, kept out of a private
// folder), so what they run is unknown.
func unreadable(cmds []shell.Command) []string {
	var out []string
	for _, c := range cmds {
		if f, ok := strings.CutSuffix(c.Unread, ": "+shell.UnreadDenied); ok {
			out = append(out, f)
		}
	}
	return out
}

// unjudged reports a command with a glob, archive or patch the parser
// could not read to the end (input.agentjail.unjudged), so that the rules
// about them skip every other call at once.
func unjudged(cmds []shell.Command) bool {
	for _, c := range cmds {
		if len(c.Unjudged) > 0 {
			return true
		}
	}
	return false
}

// encodeCommand makes one parsed command of input.agentjail.commands.
func encodeCommand[V any](c shell.Command, b Builder[V]) V {
	m := b.Mark()
	b.Field("program", b.String(c.Program))
	b.Field("name", b.String(c.Name))
	b.Field("args", b.Strings(c.Args))
	b.Field("flags", b.Strings(c.Flags))
	b.Field("operands", b.Strings(c.Operands))
	b.Field("paths", b.Strings(c.Paths))
	b.Field("writes", b.Strings(c.Writes))
	b.Field("dynamic", b.Bool(c.Dynamic))
	b.Field("glob", b.Bool(c.Glob))
	b.Field("wrappers", b.Strings(c.Wrappers))
	b.Field("via", b.String(c.Via))
	b.Field("pipe_from", b.Strings(c.PipeFrom))
	b.Field("subst", b.Strings(c.Subst))
	b.Field("cwd", b.String(c.Cwd))
	b.Field("remote", b.Bool(c.Remote))
	b.Field("depth", b.Int(c.Depth))
	b.Field("prefixes", b.Strings(c.Prefixes))
	b.Field("text", b.Strings(c.Text))
	b.Field("uses", b.Strings(c.Uses))
	b.Field("maybe", b.Strings(c.Maybe))
	b.Field("dry_run", b.Bool(c.DryRun))
	b.Field("repeats", b.String(c.Repeats))
	b.Field("background", b.Bool(c.Background))
	// Rare: only set when there are some (rules read them with
	// object.get), so that every other call carries nothing more.
	if len(c.Patterns) > 0 {
		b.Field("patterns", b.Strings(c.Patterns))
	}
	if len(c.CodeView) > 0 {
		b.Field("code_view", b.Strings(c.CodeView))
	}
	if len(c.Unjudged) > 0 {
		unjudged := make([]V, len(c.Unjudged))
		for i, u := range c.Unjudged {
			um := b.Mark()
			b.Field("kind", b.String(u.Kind))
			b.Field("root", b.String(u.Root))
			b.Field("why", b.String(u.Why))
			unjudged[i] = b.Object(um)
		}
		b.Field("unjudged", b.Array(unjudged))
	}
	a := b.Mark()
	for k, v := range c.Assigns {
		b.Field(k, b.String(v))
	}
	b.Field("assigns", b.Object(a))
	redirects := make([]V, len(c.Redirects))
	for i, r := range c.Redirects {
		rm := b.Mark()
		b.Field("op", b.String(r.Op))
		b.Field("target", b.String(r.Target))
		b.Field("path", b.String(r.Path))
		b.Field("prefix", b.String(r.Prefix))
		redirects[i] = b.Object(rm)
	}
	b.Field("redirects", b.Array(redirects))
	return b.Object(m)
}

// goBuilder makes Go maps and slices (see Derived.Map).
type goBuilder struct {
	fields []goField
}

// goBuilders keep their stacks of fields from one Map to the next.
var goBuilders = sync.Pool{New: func() any { return &goBuilder{fields: make([]goField, 0, 64)} }}

type goField struct {
	key string
	val any
}

func (*goBuilder) String(s string) any     { return s }
func (*goBuilder) Int(i int) any           { return i }
func (*goBuilder) Bool(b bool) any         { return b }
func (*goBuilder) Strings(ss []string) any { return strings2any(ss) }
func (*goBuilder) Array(vs []any) any      { return vs }
func (*goBuilder) JSON(x any) any          { return x }
func (g *goBuilder) Mark() int             { return len(g.fields) }

func (g *goBuilder) Field(key string, v any) {
	g.fields = append(g.fields, goField{key, v})
}

func (g *goBuilder) Object(mark int) any {
	m := make(map[string]any, len(g.fields)-mark)
	for _, f := range g.fields[mark:] {
		m[f.key] = f.val
	}
	clear(g.fields[mark:]) // let the values go
	g.fields = g.fields[:mark]
	return m
}
