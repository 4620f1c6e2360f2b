package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/agentjail/agentjail/internal/wire"
)

// verdictSets are the six message sets a decision reads, with where each
// is defined and the verdict module's rule that collects it.
var verdictSets = [...]struct {
	name string // the rule of the verdict module, and the query's variable
	kind wire.Verdict
	org  bool
	path []string // under data
}{
	{"deny", wire.Deny, false, []string{Package, "deny"}},
	{"ask", wire.Ask, false, []string{Package, "ask"}},
	{"allow", wire.Allow, false, []string{Package, "allow"}},
	{"org_deny", wire.Deny, true, []string{Package, "org", "deny"}},
	{"org_ask", wire.Ask, true, []string{Package, "org", "ask"}},
	{"org_allow", wire.Allow, true, []string{Package, "org", "allow"}},
}

// directQuery is the verdict query as evaluated on the decision path:
// through OPA's evaluator itself rather than the rego package, whose
// Eval makes a goroutine per call (to watch ctx) and converts every
// result to Go values; and reading each message set where the policies
// define it, rather than through the verdict module's copy, when that
// gives the same set (see reading). Measured, the module's copies and
// the org sets no loaded file defines were a tenth of a decision's
// allocations.
type directQuery struct {
	compiler *ast.Compiler
	store    storage.Store
	qc       ast.QueryCompiler
	body     ast.Body
	// sets maps each variable of the compiled query to the index of
	// its set in verdictSets.
	sets map[ast.Var]int
}

// setReading is how the verdict query reads one message set.
type setReading int

const (
	readAbsent setReading = iota // nothing defines it: no message
	readDirect                   // read where the policies define it
	readModule                   // read through the verdict module
)

// reading decides how to read the set at path. Directly only when every
// rule defining it is a partial set rule (deny contains m if ...), with
// nothing else at, above or below it: no base data, no deeper rule, no
// rule defining a document it is part of. Its value is then the set the
// verdict module would copy. Anything else goes through the module.
func reading(c *ast.Compiler, data map[string]any, path []string) setReading {
	if hasData(data, path) {
		return readModule
	}
	ref := ast.DefaultRootRef.Copy()
	for _, p := range path {
		ref = append(ref, ast.StringTerm(p))
		if len(ref) <= len(path) && len(c.GetRulesExact(ref)) > 0 {
			return readModule // a rule defines a document the set is part of
		}
	}
	exact := c.GetRulesExact(ref)
	if len(c.GetRulesWithPrefix(ref)) != len(exact) {
		return readModule // rules below it: the document is an object
	}
	if len(exact) == 0 {
		return readAbsent
	}
	for _, r := range exact {
		if r.Head.RuleKind() != ast.MultiValue {
			return readModule
		}
	}
	return readDirect
}

// hasData reports whether the base data has a value at path.
func hasData(data map[string]any, path []string) bool {
	var v any = data
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if v, ok = m[p]; !ok {
			return false
		}
	}
	return true
}

// prepareDirect compiles the direct verdict query against compiler (which
// holds the verdict module) and data, the base data store holds.
func prepareDirect(compiler *ast.Compiler, store storage.Store, data map[string]any) (*directQuery, error) {
	var exprs []string
	for _, s := range verdictSets {
		switch reading(compiler, data, s.path) {
		case readDirect:
			exprs = append(exprs, s.name+" := data."+strings.Join(s.path, "."))
		case readModule:
			exprs = append(exprs, s.name+" := data.agentjail_verdict."+s.name)
		}
	}
	if len(exprs) == 0 {
		exprs = []string{"true"} // no message set at all: one empty result
	}
	body, err := ast.ParseBody(strings.Join(exprs, "; "))
	if err != nil {
		return nil, err
	}
	qc := compiler.QueryCompiler().WithContext(ast.NewQueryContext()).WithStrict(false)
	compiled, err := qc.Compile(body)
	if err != nil {
		return nil, err
	}
	q := &directQuery{compiler: compiler, store: store, qc: qc, body: compiled, sets: map[ast.Var]int{}}
	names := map[string]int{}
	for i, s := range verdictSets {
		names[s.name] = i
	}
	for _, v := range compiled.Vars(ast.VarVisitorParams{SkipRefHead: true}).Sorted() {
		name := v
		if rw, ok := qc.RewrittenVars()[v]; ok {
			name = rw
		}
		if i, ok := names[string(name)]; ok {
			q.sets[v] = i
		}
	}
	if len(q.sets) != len(exprs) && exprs[0] != "true" {
		return nil, fmt.Errorf("the verdict query binds %d of its %d sets", len(q.sets), len(exprs))
	}
	return q, nil
}

// eval evaluates the query on input and returns the rules that fired:
// deny, then ask, then allow, each sorted by message.
func (q *directQuery) eval(ctx context.Context, input ast.Value) ([]wire.Rule, error) {
	txn, err := q.store.NewTransaction(ctx)
	if err != nil {
		return nil, err
	}
	defer q.store.Abort(ctx, txn)
	// The evaluator stops when cancel is set; AfterFunc sets it when
	// ctx ends, with no goroutine until then.
	cancel := topdown.NewCancel()
	stop := context.AfterFunc(ctx, cancel.Cancel)
	defer stop()
	var builtinErrs []topdown.Error
	query := topdown.NewQuery(q.body).
		WithQueryCompiler(q.qc).
		WithCompiler(q.compiler).
		WithStore(q.store).
		WithTransaction(txn).
		WithInput(ast.NewTerm(input)).
		WithIndexing(true).
		WithEarlyExit(true).
		WithCancel(cancel).
		WithBuiltinErrorList(&builtinErrs)
	var sets [len(verdictSets)]*ast.Term
	results := 0
	err = query.Iter(ctx, func(qr topdown.QueryResult) error {
		results++
		for v, t := range qr {
			if i, ok := q.sets[v]; ok {
				sets[i] = t
			}
		}
		return nil
	})
	if err == nil && len(builtinErrs) > 0 {
		// Outside strict mode a failing built-in just makes its rule
		// undefined, which for a deny rule means allow. Refuse that.
		err = &builtinErrs[0]
	}
	if err != nil {
		return nil, err
	}
	if results != 1 {
		return nil, fmt.Errorf("the verdict query returned %d results, want 1", results)
	}
	// In the order of verdictSets, each set in its own order, as the
	// reference path: messages that sort alike stay in that order.
	var rules []wire.Rule
	for i, t := range sets {
		if t != nil {
			rules = append(rules, termMessages(verdictSets[i].kind, verdictSets[i].org, t)...)
		}
	}
	sortRules(rules)
	return rules, nil
}

// termMessages converts one message set as OPA gives it, as messages
// does the Go form of it: a string message is read as it is, an object's
// "id" and "msg" too; anything else goes through the Go form.
func termMessages(kind wire.Verdict, org bool, t *ast.Term) []wire.Rule {
	set, ok := t.Value.(ast.Set)
	if !ok {
		x, err := ast.JSON(t.Value)
		if err != nil {
			x = t.Value.String()
		}
		return markOrg(messages(kind, x), org)
	}
	out := make([]wire.Rule, 0, set.Len())
	set.Foreach(func(m *ast.Term) {
		r := wire.Rule{Kind: kind, Org: org}
		switch v := m.Value.(type) {
		case ast.String:
			r.Msg = string(v)
			out = append(out, r)
			return
		case ast.Object:
			id, _ := termString(v, "id")
			if msg, ok := termString(v, "msg"); ok && msg != "" {
				r.ID, r.Msg = id, msg
				out = append(out, r)
				return
			}
		}
		x, err := ast.JSON(m.Value)
		if err != nil {
			x = m.Value.String()
		}
		r = messageRule(kind, x)
		r.Org = org
		out = append(out, r)
	})
	return out
}

// termString is obj[key] when it is a string.
func termString(obj ast.Object, key string) (string, bool) {
	t := obj.Get(ast.InternedTerm(key))
	if t == nil {
		return "", false
	}
	s, ok := t.Value.(ast.String)
	return string(s), ok
}

func markOrg(rules []wire.Rule, org bool) []wire.Rule {
	for i := range rules {
		rules[i].Org = org
	}
	return rules
}
