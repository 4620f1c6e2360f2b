package engine

import (
	"context"
	"strconv"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/wire"
)

// EvalCall evaluates one call: its event as input.Decode returned it and
// what input.Derive derived from it. It decides as Eval does on the map
// input.Build makes of them, without making that map: the derived part
// is built directly as OPA's value (see input.Encode), which measured as
// a fifth of a decision's allocations when built as Go maps and then
// converted.
func (e *Engine) EvalCall(ctx context.Context, event map[string]any, d *input.Derived) (*wire.Decision, error) {
	v, err := callValue(event, d)
	if err != nil {
		return e.failed(err), &EvalError{Err: err}
	}
	return e.evalValue(ctx, v)
}

// callValue is the policy input of a call as OPA's value: the event's
// fields, except one named input.Key, and the derived facts under it.
func callValue(event map[string]any, d *input.Derived) (ast.Value, error) {
	b := builders.Get().(*termBuilder)
	defer b.release()
	m := b.Mark()
	for k, x := range event {
		if k == input.Key {
			continue // replaced, as input.Build replaces it
		}
		v, err := ast.InterfaceToValue(x)
		if err != nil {
			return nil, err
		}
		b.Field(k, b.term(v))
	}
	b.Field(input.Key, input.Encode(d, b))
	return b.Object(m).Value, nil
}

// DiffInput compares the value EvalCall hands OPA for a call with OPA's
// own conversion of in, the map input.Build makes of the same call. It
// returns "" when they are equal, else both as text. Tests check every
// case they decide with it.
func DiffInput(event map[string]any, d *input.Derived, in map[string]any) string {
	direct, err := callValue(event, d)
	if err != nil {
		return "direct: " + err.Error()
	}
	want, err := ast.InterfaceToValue(in)
	if err != nil {
		return "reference: " + err.Error()
	}
	if direct.Compare(want) == 0 && want.Compare(direct) == 0 {
		return ""
	}
	return "direct:    " + direct.String() + "\nreference: " + want.String()
}

// termBuilder makes JSON-shaped values as OPA's terms (see
// input.Builder). Terms and array slots are handed out of chunks, one
// allocation for many, each slot once; the stack of fields is reused.
type termBuilder struct {
	terms  []ast.Term
	ptrs   []*ast.Term
	fields [][2]*ast.Term
	// recent are short strings' terms, kept from one call to the next:
	// most strings of an input recur in it (a command's cwd, its name)
	// or in the next one (the home, the temp folder, the project).
	recent map[string]*ast.Term
	// lastInt is the last integer made past the interned ones (the
	// daemon's pid, in every input).
	lastInt     int
	lastIntTerm *ast.Term
}

// Bounds of termBuilder.recent: what a string costs to look up must stay
// below what it costs to make, and the map must not grow without end.
const (
	recentMaxLen  = 128
	recentEntries = 512
)

// builders keeps each worker's stack of fields from one call to the next.
var builders = sync.Pool{New: func() any { return &termBuilder{} }}

// release returns b to the pool. The chunks' free slots stay with it:
// a slot handed out is never handed out again.
func (b *termBuilder) release() {
	clear(b.fields[:cap(b.fields)])
	b.fields = b.fields[:0]
	if cap(b.fields) <= 1024 { // do not keep a huge event's stack around
		builders.Put(b)
	}
}

// chunk is how many terms one allocation holds.
const chunk = 64

func (b *termBuilder) term(v ast.Value) *ast.Term {
	if len(b.terms) == cap(b.terms) {
		b.terms = make([]ast.Term, 0, chunk)
	}
	b.terms = append(b.terms, ast.Term{Value: v})
	return &b.terms[len(b.terms)-1]
}

// list returns n slots for an array's elements, capped so that an
// append to the array cannot write into the next array's slots.
func (b *termBuilder) list(n int) []*ast.Term {
	if n > chunk {
		return make([]*ast.Term, n)
	}
	if len(b.ptrs)+n > cap(b.ptrs) {
		b.ptrs = make([]*ast.Term, 0, chunk)
	}
	start := len(b.ptrs)
	b.ptrs = b.ptrs[:start+n]
	return b.ptrs[start : start+n : start+n]
}

func (b *termBuilder) String(s string) *ast.Term {
	switch {
	case s == "":
		return ast.InternedEmptyString
	case len(s) > recentMaxLen:
		return b.term(ast.String(s))
	}
	if t, ok := b.recent[s]; ok {
		return t
	}
	if b.recent == nil || len(b.recent) >= recentEntries {
		b.recent = make(map[string]*ast.Term, recentEntries)
	}
	// A term of its own, not from a chunk: it may outlive this input.
	t := ast.StringTerm(s)
	b.recent[s] = t
	return t
}

func (b *termBuilder) Int(i int) *ast.Term {
	if ast.HasInternedIntNumberTerm(i) {
		return ast.InternedTerm(i)
	}
	if b.lastIntTerm == nil || b.lastInt != i {
		b.lastInt, b.lastIntTerm = i, ast.NewTerm(ast.Number(strconv.Itoa(i)))
	}
	return b.lastIntTerm
}

func (b *termBuilder) Bool(v bool) *ast.Term { return ast.InternedTerm(v) }

func (b *termBuilder) Strings(ss []string) *ast.Term {
	if len(ss) == 0 {
		return ast.InternedEmptyArray
	}
	elems := b.list(len(ss))
	for i, s := range ss {
		elems[i] = b.String(s)
	}
	return b.term(ast.NewArray(elems...))
}

func (b *termBuilder) Array(vs []*ast.Term) *ast.Term {
	if len(vs) == 0 {
		return ast.InternedEmptyArray
	}
	return b.term(ast.NewArray(vs...))
}

func (b *termBuilder) JSON(x any) *ast.Term {
	v, err := ast.InterfaceToValue(x)
	if err != nil {
		// Encode gives only JSON-shaped values from this module's own
		// packages: a failure is a bug there, not a bad event.
		panic("engine: input value: " + err.Error())
	}
	return b.term(v)
}

func (b *termBuilder) Mark() int { return len(b.fields) }

func (b *termBuilder) Field(key string, v *ast.Term) {
	b.fields = append(b.fields, [2]*ast.Term{b.key(key), v})
}

func (b *termBuilder) Object(mark int) *ast.Term {
	if mark == len(b.fields) {
		return ast.InternedEmptyObject
	}
	obj := ast.NewObject(b.fields[mark:]...) // copies the fields
	clear(b.fields[mark:])
	b.fields = b.fields[:mark]
	return b.term(obj)
}

// key is the term of an object key: shared when interned (see
// internedStrings), made for any other.
func (b *termBuilder) key(k string) *ast.Term {
	if ast.HasInternedValue(k) {
		return ast.InternedTerm(k)
	}
	return b.String(k)
}

// internedStrings are made once for the process and shared by every
// input, OPA's conversions included: the keys of input.agentjail
// (TestInputKeysInterned checks the list is whole), the keys events
// carry, and values most events share.
var internedStrings = []string{
	// input.agentjail
	"agent", "home", "agentjail_home", "temp", "daemon_pid", "tool", "tool_kind", "tool_name", "socket", "cwd",
	"paths", "writes", "unusual_paths", "unusual", "prefixes", "urls", "file_path", "command", "patch_truncated",
	"search", "pattern", "glob", "content", "lines", "guard_config", "written", "nested_agents", "git_remotes", "commands", "names",
	"kinds", "parse_error", "root", "system", "unreadable", "repeats", "touches", "touches_prose", "touches_truncated", "pids", "unknown_cwd_writes", "paths_unresolved", "path", "place",
	// input.agentjail.daemon
	"daemon", "pid", "pgid", "sid", "ppid", "cmdlines", "cgroup",
	// input.agentjail.commands[_]
	"program", "name", "args", "flags", "operands", "dynamic", "wrappers", "via", "pipe_from", "subst",
	"remote", "depth", "text", "uses", "maybe", "dry_run", "assigns", "redirects", "op", "target", "prefix",
	"background", "patterns", "unjudged", "kind", "why",
	// events
	"session_id", "transcript_path", "hook_event_name", "tool_input", "tool_use_id", "permission_mode",
	"description", "old_string", "new_string", "replace_all", "notebook_path",
	// values
	"PreToolUse", "Bash", "Read", "Write", "Edit", "MultiEdit", "Glob", "Grep", "WebFetch", "default",
	"claude-code", "shell", "read", "write", "edit", "list", "fetch", "agent", "other",
}

func init() {
	// OPA allows interning only while the program starts.
	ast.InternStringTerm(internedStrings...)
}
