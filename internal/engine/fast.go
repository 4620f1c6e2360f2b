package engine

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/agentjail/agentjail/internal/wire"
)

// inputValue turns the JSON-shaped input into OPA's value directly.
// Handed the Go value, OPA would first copy it whole through a JSON-shaped
// round trip (util.RoundTripFast) and then convert the copy: measured, a
// tenth of a decision's allocations. ast.InterfaceToValue converts every
// type the input is built from (maps, []any, []string, strings,
// json.Number, ints, bools, nil) directly, and still round-trips anything
// else, so the value is the same.
func inputValue(input any) (ast.Value, error) {
	return ast.InterfaceToValue(input)
}

// nondeterministic are the built-ins whose result is not a function of
// the input and data: a decision that may call one is never cached. OPA
// marks most of them itself (ast.Builtin.Nondeterministic); the prefixes
// catch those it does not (time.now_ns, say) and any added later.
var nondeterministicPrefixes = []string{"time.", "rand.", "uuid.", "http.", "net.", "opa.runtime", "crypto.x509.parse_and_verify", "io.jwt.decode_verify"}

// analysis is what a compiled policy set says about caching its decisions.
type analysis struct {
	// deterministic is set when no rule can call a non-deterministic
	// built-in: the same input then always gets the same decision.
	deterministic bool
	// keys are the top-level input fields any rule reads, and all is set
	// when some rule reads input as a whole or through a variable key:
	// the cache key covers exactly what can change a decision, so a
	// session_id or tool_use_id no rule reads does not defeat the cache.
	keys map[string]bool
	all  bool
}

// analyse walks every module as parsed: the compiler rewrites a bare
// input into a local variable, where a call's arguments can no longer be
// read.
func analyse(modules map[string]*ast.Module) analysis {
	a := analysis{deterministic: true, keys: map[string]bool{}}
	// handled are bare `input` terms already accounted for by the call
	// they are an argument of.
	handled := map[*ast.Term]bool{}
	for _, m := range modules {
		for _, imp := range m.Imports {
			// import input.tool_input as ti: later refs through ti are
			// not seen as input's, so the import counts as the read.
			if r, ok := imp.Path.Value.(ast.Ref); ok {
				a.ref(r)
			}
		}
		// Parents are visited before their children, so a call is seen
		// before the input term it is given.
		ast.NewGenericVisitor(func(x any) bool {
			switch x := x.(type) {
			case *ast.Expr:
				if x.IsCall() {
					a.call(x.Operator(), x.Operands(), handled)
				}
				// `with input as` replaces the input, which the key
				// cannot see through: treat it as reading all of it.
				for _, w := range x.With {
					if r, ok := w.Target.Value.(ast.Ref); ok && r.HasPrefix(ast.InputRootRef) {
						a.all = true
					}
				}
			case ast.Call:
				if len(x) > 0 {
					if op, ok := x[0].Value.(ast.Ref); ok {
						a.call(op, x[1:], handled)
					}
				}
			case *ast.Term:
				if r, ok := x.Value.(ast.Ref); ok && !handled[x] {
					a.ref(r)
				}
			}
			return false
		}).Walk(m)
	}
	return a
}

// call notes object.get(input, "key", default): the pack's way of
// reading one field of input with a default, which reads only that key.
func (a *analysis) call(op ast.Ref, args []*ast.Term, handled map[*ast.Term]bool) {
	if len(args) < 2 || op.String() != "object.get" {
		return
	}
	in, ok := args[0].Value.(ast.Ref)
	if !ok || len(in) != 1 || in[0].Value.Compare(ast.InputRootDocument.Value) != 0 {
		return
	}
	if key, ok := args[1].Value.(ast.String); ok {
		a.keys[string(key)] = true
		handled[args[0]] = true
		return
	}
	// object.get(input, ["key", ...], default) reads below one key.
	if path, ok := args[1].Value.(*ast.Array); ok && path.Len() > 0 {
		if key, ok := path.Elem(0).Value.(ast.String); ok {
			a.keys[string(key)] = true
			handled[args[0]] = true
		}
	}
}

func (a *analysis) ref(r ast.Ref) {
	if len(r) == 0 {
		return
	}
	head, ok := r[0].Value.(ast.Var)
	if !ok {
		return
	}
	if head.Equal(ast.InputRootDocument.Value) {
		if len(r) < 2 {
			a.all = true
			return
		}
		if s, ok := r[1].Value.(ast.String); ok {
			a.keys[string(s)] = true
		} else {
			a.all = true
		}
		return
	}
	name := r.String()
	if b, ok := ast.BuiltinMap[name]; ok && b.Nondeterministic {
		a.deterministic = false
		return
	}
	for _, p := range nondeterministicPrefixes {
		if strings.HasPrefix(name, p) {
			a.deterministic = false
			return
		}
	}
}

// cacheMax bounds the decision cache. A cached decision is a few rule
// messages; past the bound the cache starts over, which costs one
// evaluation per entry and never grows memory.
const cacheMax = 4096

// decisionCache holds the rules that fired per input, for one compiled
// policy set: a reload builds a new Engine and so a new, empty cache.
type decisionCache struct {
	keys map[string]bool
	all  bool
	mu   sync.Mutex
	m    map[[sha256.Size]byte][]wire.Rule

	hits, misses int64
}

func newDecisionCache(a analysis) *decisionCache {
	if !a.deterministic {
		return nil
	}
	return &decisionCache{keys: a.keys, all: a.all, m: make(map[[sha256.Size]byte][]wire.Rule)}
}

// keyWriters are scratch buffers for cache keys, reused across decisions.
var keyWriters = sync.Pool{New: func() any { return newKeyWriter() }}

// key is a hash of the canonical encoding of the fields of v the
// policies read. Objects are written in key order, every value with its
// type and length, so two inputs share a key only if the policies cannot
// tell them apart (up to a SHA-256 collision).
func (c *decisionCache) key(v ast.Value) ([sha256.Size]byte, bool) {
	obj, ok := v.(ast.Object)
	if !ok {
		return [sha256.Size]byte{}, false
	}
	w := keyWriters.Get().(*keyWriter)
	w.buf = append(w.buf[:0], 'o')
	w.cache = c
	obj.Foreach(w.topField)
	sum := sha256.Sum256(w.buf)
	w.cache = nil
	if cap(w.buf) <= 1<<20 { // do not keep a huge event's buffer around
		keyWriters.Put(w)
	}
	return sum, true
}

// keyWriter writes values canonically into buf. Its callbacks are made
// once, with the writer: a closure made per object would be an
// allocation per object of every input.
type keyWriter struct {
	buf   []byte
	cache *decisionCache // whose keys topField keeps
	// topField writes a top-level field the policies read; field and
	// elem write any object field and set element.
	topField, field func(k, v *ast.Term)
	elem            func(t *ast.Term)
}

func newKeyWriter() *keyWriter {
	w := &keyWriter{buf: make([]byte, 0, 4096)}
	w.topField = func(k, v *ast.Term) {
		if s, ok := k.Value.(ast.String); ok && (w.cache.all || w.cache.keys[string(s)]) {
			w.value(k.Value)
			w.value(v.Value)
		}
	}
	w.field = func(k, v *ast.Term) {
		w.value(k.Value)
		w.value(v.Value)
	}
	w.elem = func(t *ast.Term) { w.value(t.Value) }
	return w
}

// value writes v unambiguously: a type byte, then lengths before
// contents.
func (w *keyWriter) value(v ast.Value) {
	switch v := v.(type) {
	case ast.Null:
		w.buf = append(w.buf, 'n')
	case ast.Boolean:
		if v {
			w.buf = append(w.buf, 't')
		} else {
			w.buf = append(w.buf, 'f')
		}
	case ast.Number:
		w.bytes('#', string(v))
	case ast.String:
		w.bytes('s', string(v))
	case *ast.Array:
		w.buf = append(w.buf, 'a')
		w.buf = binary.AppendUvarint(w.buf, uint64(v.Len()))
		for i := range v.Len() {
			w.value(v.Elem(i).Value)
		}
	case ast.Object:
		w.buf = append(w.buf, 'o')
		w.buf = binary.AppendUvarint(w.buf, uint64(v.Len()))
		v.Foreach(w.field) // in key order
	case ast.Set:
		w.buf = append(w.buf, 'S')
		w.buf = binary.AppendUvarint(w.buf, uint64(v.Len()))
		v.Foreach(w.elem)
	default:
		// Not a JSON value (the input never holds one): its text, marked.
		w.bytes('?', v.String())
	}
}

func (w *keyWriter) bytes(kind byte, s string) {
	w.buf = append(w.buf, kind)
	w.buf = binary.AppendUvarint(w.buf, uint64(len(s)))
	w.buf = append(w.buf, s...)
}

func (c *decisionCache) get(k [sha256.Size]byte) ([]wire.Rule, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rules, ok := c.m[k]
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	return rules, ok
}

func (c *decisionCache) put(k [sha256.Size]byte, rules []wire.Rule) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= cacheMax {
		clear(c.m)
	}
	c.m[k] = rules
}

type noCacheKey struct{}

// NoCache marks ctx so that Eval neither reads nor fills the decision
// cache: benchmarks use it to measure evaluation itself on any events.
func NoCache(ctx context.Context) context.Context {
	return context.WithValue(ctx, noCacheKey{}, true)
}

// CacheStats reports the decision cache's hits and misses since this
// policy set was compiled, and whether there is a cache at all (there is
// none when some rule may call a non-deterministic built-in).
func (e *Engine) CacheStats() (hits, misses int64, enabled bool) {
	c := e.cache
	if c == nil {
		return 0, 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses, true
}

// Cacheable reports whether this policy set's decisions are cached: no
// loaded rule calls a non-deterministic built-in.
func (e *Engine) Cacheable() bool { return e.cache != nil }
