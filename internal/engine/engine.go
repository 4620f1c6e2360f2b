// Package engine owns OPA: it parses policy files (Rego v0 or v1, detected
// per file), compiles them into one prepared query, evaluates hook inputs
// to verdicts, and runs *_test.rego files. No other package imports OPA.
package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/agentjail/agentjail/internal/shell"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/internal/written"
)

// Source is one policy file's text and the name it is reported under.
type Source struct {
	Name string // "default/ssh.rego" for embedded files, else the file path
	Text []byte
	// Pack marks the embedded default pack: the only source of locked
	// rules, and whose rules other files may extend but not redefine.
	Pack bool
	// Org marks a module of an org bundle (package agentjail.org, see
	// org.go): every rule it adds is locked.
	Org bool
}

// Package is the Rego package every policy adds its rules to.
const Package = "agentjail"

// verdictModule collects the three message sets. A set over an undefined
// rule is empty, so a policy set that never defines ask (say) still
// evaluates. Which rules config.yaml disables is decided after evaluation,
// in Go (see Engine.Eval): nothing a policy file defines can reach it.
const verdictModule = `package agentjail_verdict

deny contains m if some m in data.agentjail.deny

ask contains m if some m in data.agentjail.ask

allow contains m if some m in data.agentjail.allow

org_deny contains m if some m in data.agentjail.org.deny

org_ask contains m if some m in data.agentjail.org.ask

org_allow contains m if some m in data.agentjail.org.allow
`

const query = `deny := data.agentjail_verdict.deny; ask := data.agentjail_verdict.ask; allow := data.agentjail_verdict.allow; ` +
	`org_deny := data.agentjail_verdict.org_deny; org_ask := data.agentjail_verdict.org_ask; org_allow := data.agentjail_verdict.org_allow`

// LockedPrefix starts the id of every rule config.yaml cannot disable:
// the self-protection rules that keep an agent from switching agentjail off.
// The pack's locked rules are also evaluated apart from every user file,
// so no user file can change what they see (see Engine.Eval).
const LockedPrefix = "self."

// unsafeBuiltins keeps evaluation local and deterministic: a policy on
// the hook's path must not wait on the network.
var unsafeBuiltins = map[string]struct{}{
	"http.send":          {},
	"net.lookup_ip_addr": {},
}

// Engine is a compiled policy set. It is immutable and safe for
// concurrent use; a reload builds a new Engine.
type Engine struct {
	query verdictQuery
	// locked evaluates the pack alone, for its locked rules; nil when
	// there are no user files (query is then the pack alone already).
	locked   *verdictQuery
	disabled map[string]bool
	sources  []wire.Source
	revision string
	groups   map[string][]string
	roles    *shell.Roles
	written  *written.Table
	// credentialDirs are data.agentjail.credential_config_dirs (see
	// CredentialDirs).
	credentialDirs []string
	rules          int
	// cache remembers decisions per input; nil when some rule may call a
	// non-deterministic built-in (see analyse).
	cache    *decisionCache
	analysis analysis
	// ids are the rule ids written in the policies; dynamicIDs is set
	// when some rule computes its id (see ruleIDs).
	ids        map[string]bool
	dynamicIDs bool
	// jail evaluates the jail document (see Jail).
	jail *rego.PreparedEvalQuery
}

// Compile parses and compiles sources into an Engine. On any error it
// returns nil and every problem found, each with file, line and column
// where OPA gives them.
//
// data is what policies read under data (the daemon puts config.yaml's
// tuning at data.config). disabled lists the rule ids config.yaml turns
// off; ids starting with LockedPrefix are never turned off.
func Compile(ctx context.Context, sources []Source, data map[string]any, disabled []string) (*Engine, []wire.LoadErr) {
	key, keyed := compileKey(sources, data, disabled)
	if e := lastCompiled.get(key, keyed); e != nil {
		return e, nil
	}
	e, errs := compile(ctx, sources, data, disabled)
	if e != nil && keyed {
		lastCompiled.put(key, e)
	}
	return e, errs
}

func compile(ctx context.Context, sources []Source, data map[string]any, disabled []string) (*Engine, []wire.LoadErr) {
	defer compactHeap()()
	modules, infos, errs := parseAll(sources)
	if len(errs) > 0 {
		return nil, errs
	}
	pack, org := origins(sources)
	if errs := checkModules(modules, pack, org); len(errs) > 0 {
		return nil, errs
	}
	data = withPackData(data, sources)
	if data == nil {
		data = map[string]any{}
	}
	pq, compiler, errs := prepareVerdict(ctx, modules, data)
	if len(errs) > 0 {
		return nil, errs
	}
	e := &Engine{query: pq, sources: infos, revision: revisionOf(sources), rules: countRules(modules), disabled: map[string]bool{}}
	e.ids, e.dynamicIDs = ruleIDs(modules)
	e.analysis = analyse(modules)
	e.cache = newDecisionCache(e.analysis)
	// The locked rules are the pack's self.* rules and every org rule;
	// they are evaluated apart from the user's files when those files
	// extend anything they read.
	locked := lockedModules(pack, org)
	if len(pack) > 0 && len(locked) < len(modules) && packReadsUserRules(compiler, locked) {
		packOnly := make(map[string]*ast.Module, len(locked))
		for name := range locked {
			packOnly[name] = modules[name]
		}
		lq, lockedCompiler, errs := prepareVerdict(ctx, packOnly, data)
		if len(errs) > 0 {
			return nil, errs
		}
		e.locked = &lq
		defer dropLocations(lockedCompiler, pack) // once compile is done with it
	}
	for _, id := range disabled {
		if !strings.HasPrefix(id, LockedPrefix) {
			e.disabled[id] = true
		}
	}
	store := dataStore(data)
	groups, err := programGroups(ctx, compiler, store)
	if err != nil {
		return nil, []wire.LoadErr{{Message: "data.agentjail.program_groups: " + err.Error()}}
	}
	e.groups = groups
	roles, err := shellRoles(ctx, compiler, store)
	if err != nil {
		return nil, []wire.LoadErr{{Message: "data.agentjail.shell_roles: " + err.Error()}}
	}
	e.roles = roles
	if e.written, err = writtenFiles(ctx, compiler, store); err != nil {
		return nil, []wire.LoadErr{{Message: "data.agentjail.written_files: " + err.Error()}}
	}
	e.credentialDirs = credentialDirs(ctx, compiler, store)
	if e.jail, err = prepareJail(ctx, compiler, store); err != nil {
		return nil, []wire.LoadErr{{Message: "data.agentjail.jail: " + err.Error()}}
	}
	dropLocations(compiler, pack)
	return e, nil
}

// shellRoles reads the policies' data.agentjail.shell_roles: what
// programs do with their arguments (see shell.Roles). The daemon hands
// it to the shell parser for each call, so the pack's tables, and the
// rows a user's policy adds, decide which words are paths.
func shellRoles(ctx context.Context, compiler *ast.Compiler, store storage.Store) (*shell.Roles, error) {
	rs, err := rego.New(rego.Query("x := data.agentjail.shell_roles"), rego.Compiler(compiler), rego.Store(store)).Eval(ctx)
	if err != nil || len(rs) == 0 {
		return nil, err // undefined: no roles
	}
	raw, err := json.Marshal(rs[0].Bindings["x"])
	if err != nil {
		return nil, err
	}
	var roles shell.Roles
	if err := json.Unmarshal(raw, &roles); err != nil {
		return nil, fmt.Errorf("does not have the shape of the pack's table (see policies/roles.rego): %w", err)
	}
	return &roles, nil
}

// ShellRoles is the policies' shell_roles table (nil if none).
func (e *Engine) ShellRoles() *shell.Roles { return e.roles }

// packReadsUserRules reports whether any rule of the pack depends, at any
// depth, on a rule a user file defines: a user file extending one of the
// pack's tables (the only way it can, see checkModules). Only then can
// the pack's locked rules decide differently with the user files than
// without, and only then are they evaluated apart (which doubles the
// cost of a decision). A user file that only adds its own rules and
// helpers costs nothing extra.
func packReadsUserRules(compiler *ast.Compiler, pack map[string]bool) bool {
	if compiler.Graph == nil {
		return true
	}
	user := map[*ast.Rule]bool{}
	var queue []*ast.Rule
	for name, m := range compiler.Modules {
		for _, r := range m.Rules {
			if pack[name] {
				queue = append(queue, r)
			} else {
				user[r] = true
			}
		}
	}
	seen := map[*ast.Rule]bool{}
	for len(queue) > 0 {
		r := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if seen[r] {
			continue
		}
		seen[r] = true
		for dep := range compiler.Graph.Dependencies(r) {
			d, ok := dep.(*ast.Rule)
			if !ok {
				return true // a node this code does not know: be safe
			}
			if user[d] {
				return true
			}
			queue = append(queue, d)
		}
	}
	return false
}

// verdictQuery is the verdict query of one compiled policy set, in the
// two forms it is evaluated in.
type verdictQuery struct {
	reference rego.PreparedEvalQuery // through the rego package (EvalReference)
	direct    *directQuery           // on the decision path (see directQuery)
}

// prepareVerdict compiles modules with the verdict module into both forms
// of the verdict query.
func prepareVerdict(ctx context.Context, modules map[string]*ast.Module, data map[string]any) (verdictQuery, *ast.Compiler, []wire.LoadErr) {
	pq, compiler, errs := prepare(ctx, modules, data)
	if len(errs) > 0 {
		return verdictQuery{}, nil, errs
	}
	direct, err := prepareDirect(compiler, dataStore(data), data)
	if err != nil {
		return verdictQuery{}, nil, []wire.LoadErr{{Message: "the verdict query: " + err.Error()}}
	}
	return verdictQuery{reference: pq, direct: direct}, compiler, nil
}

// prepare compiles modules with the verdict module into the verdict query.
// It parses the verdict module afresh each time: the compiler annotates
// the modules it is given.
func prepare(ctx context.Context, modules map[string]*ast.Module, data map[string]any) (rego.PreparedEvalQuery, *ast.Compiler, []wire.LoadErr) {
	verdict, err := ast.ParseModuleWithOpts("agentjail/verdict.rego", verdictModule, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		return rego.PreparedEvalQuery{}, nil, []wire.LoadErr{{File: "agentjail/verdict.rego", Message: err.Error()}}
	}
	all := make(map[string]*ast.Module, len(modules)+1)
	for name, m := range modules {
		all[name] = m
	}
	all["agentjail/verdict.rego"] = verdict
	compiler := newCompiler()
	compiler.Compile(all)
	if compiler.Failed() {
		return rego.PreparedEvalQuery{}, nil, astErrors(compiler.Errors)
	}
	pq, err := rego.New(
		rego.Query(query),
		rego.Compiler(compiler),
		rego.Store(dataStore(data)),
	).PrepareForEval(ctx)
	if err != nil {
		return rego.PreparedEvalQuery{}, nil, []wire.LoadErr{{Message: err.Error()}}
	}
	return pq, compiler, nil
}

// countRules counts the deny, ask and allow rules of package agentjail.
func countRules(modules map[string]*ast.Module) int {
	n := 0
	for _, m := range modules {
		if p := m.Package.Path.String(); p != "data."+Package && p != "data."+OrgPackage {
			continue
		}
		for _, r := range m.Rules {
			switch r.Head.Name.String() {
			case "deny", "ask", "allow":
				n++
			}
		}
	}
	return n
}

// Rules is how many deny, ask and allow rules are in force.
func (e *Engine) Rules() int { return e.rules }

// programGroups reads the policies' data.agentjail.program_groups, an
// object from program name to the groups of rules that care about it.
// The daemon turns it into input.agentjail.kinds for each call, so that
// a rule can start with `"download" in input.agentjail.kinds`, a test
// OPA's rule index answers without entering the rule.
func programGroups(ctx context.Context, compiler *ast.Compiler, store storage.Store) (map[string][]string, error) {
	rs, err := rego.New(rego.Query("x := data.agentjail.program_groups"), rego.Compiler(compiler), rego.Store(store)).Eval(ctx)
	if err != nil || len(rs) == 0 {
		return nil, err // undefined: no groups
	}
	obj, ok := rs[0].Bindings["x"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be an object of program name to a list of group names")
	}
	groups := make(map[string][]string, len(obj))
	for program, v := range obj {
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%s: must be a list of group names", program)
		}
		for _, g := range list {
			s, ok := g.(string)
			if !ok {
				return nil, fmt.Errorf("%s: group names must be strings", program)
			}
			groups[program] = append(groups[program], s)
		}
	}
	return groups, nil
}

// ProgramGroups is the policies' program_groups table (nil if none).
func (e *Engine) ProgramGroups() map[string][]string { return e.groups }

func newCompiler() *ast.Compiler {
	// WithCapabilities would also drop these builtins, but its error reads
	// "undefined function", and wording.go explains the unsafe-call error
	// to the user in our words.
	//lint:ignore SA1019 the replacement loses the unsafe-call error wording.go reads
	return ast.NewCompiler().
		WithUnsafeBuiltins(unsafeBuiltins).
		WithDefaultRegoVersion(ast.RegoV1)
}

// parseAll parses each source in the Rego version it is written in.
func parseAll(sources []Source) (map[string]*ast.Module, []wire.Source, []wire.LoadErr) {
	modules := make(map[string]*ast.Module, len(sources))
	infos := make([]wire.Source, 0, len(sources))
	var errs []wire.LoadErr
	for _, src := range sources {
		mod, version, err := Parse(src.Name, src.Text)
		if err != nil {
			errs = append(errs, astErrorsOf(src.Name, err)...)
			continue
		}
		modules[src.Name] = mod
		infos = append(infos, wire.Source{Name: src.Name, RegoVersion: version})
	}
	return modules, infos, errs
}

// Parse parses one file as Rego v1 and, failing that, as v0, and reports
// which it was. When neither parses, the v1 error is returned for a file
// that uses v1 keywords, else the error of the attempt that got further
// into the file: it is the one about the real mistake.
func Parse(name string, text []byte) (*ast.Module, string, error) {
	v1, err1 := ast.ParseModuleWithOpts(name, string(text), ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err1 == nil {
		return v1, "v1", nil
	}
	v0, err0 := ast.ParseModuleWithOpts(name, string(text), ast.ParserOptions{RegoVersion: ast.RegoV0})
	if err0 == nil {
		return v0, "v0", nil
	}
	if mixed := mixedVersions(name, text, err1); mixed != nil {
		return nil, "", mixed
	}
	if !looksV1.Match(text) && furthest(err0) > furthest(err1) {
		return nil, "", err0
	}
	return nil, "", err1
}

// looksV1 spots Rego v1 keywords, so a broken v1 file is reported with
// the v1 parser's error rather than the v0 one's.
var looksV1 = regexp.MustCompile(`\bif\b|\bcontains\s+[^(\s]|import\s+rego\.v1`)

// furthest is the last row any of err's messages point at.
func furthest(err error) int {
	row := 0
	var errs ast.Errors
	if errors.As(err, &errs) {
		for _, e := range errs {
			if e.Location != nil && e.Location.Row > row {
				row = e.Location.Row
			}
		}
	}
	return row
}

func astErrorsOf(file string, err error) []wire.LoadErr {
	var errs ast.Errors
	if errors.As(err, &errs) {
		out := astErrors(errs)
		for i := range out {
			if out[i].File == "" {
				out[i].File = file
			}
		}
		return out
	}
	return []wire.LoadErr{{File: file, Message: err.Error()}}
}

func astErrors(errs ast.Errors) []wire.LoadErr {
	out := make([]wire.LoadErr, 0, len(errs))
	for _, e := range errs {
		le := wire.LoadErr{Message: offlineMessage(e.Message)}
		if e.Location != nil {
			le.File, le.Line, le.Col = e.Location.File, e.Location.Row, e.Location.Col
		}
		out = append(out, le)
	}
	return out
}

func revisionOf(sources []Source) string {
	sorted := append([]Source(nil), sources...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	h := sha256.New()
	for _, s := range sorted {
		fmt.Fprintf(h, "%s\x00%d\x00", s.Name, len(s.Text))
		h.Write(s.Text)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// Sources lists the files in force, each with its Rego version.
func (e *Engine) Sources() []wire.Source { return e.sources }

// Revision is a short hash of every source's name and text.
func (e *Engine) Revision() string { return e.revision }

// EvalError is a failure at evaluation time: a rule that conflicts, a
// built-in that errors, a deadline. It must never be read as allow.
type EvalError struct{ Err error }

func (e *EvalError) Error() string { return "policy evaluation failed: " + e.Err.Error() }
func (e *EvalError) Unwrap() error { return e.Err }

// Eval evaluates input (a JSON-shaped value: maps, slices, strings,
// numbers, bools, nil) and returns the verdict. On an *EvalError it still
// returns a deny decision naming the error, so a caller that ignores the
// error fails safe.
//
// The input is handed to OPA as a value built directly from it, and when
// the policy set is deterministic (see analyse) the rules an input fired
// are remembered for the next identical input.
func (e *Engine) Eval(ctx context.Context, input any) (*wire.Decision, error) {
	v, err := inputValue(input)
	if err != nil {
		return e.failed(err), &EvalError{Err: err}
	}
	return e.evalValue(ctx, v)
}

// evalValue evaluates the input as OPA's value, answering from the
// decision cache when it can.
func (e *Engine) evalValue(ctx context.Context, v ast.Value) (*wire.Decision, error) {
	var key [32]byte
	cached := false
	if e.cache != nil && ctx.Value(noCacheKey{}) == nil {
		key, cached = e.cache.key(v)
		if cached {
			if rules, ok := e.cache.get(key); ok {
				return e.decision(slices.Clone(rules)), nil
			}
		}
	}
	rules, err := e.fired(func(q *verdictQuery) ([]wire.Rule, error) { return q.direct.eval(ctx, v) })
	if err != nil {
		return e.failed(err), &EvalError{Err: err}
	}
	if cached {
		e.cache.put(key, slices.Clip(rules))
	}
	return e.decision(slices.Clone(rules)), nil
}

// EvalReference is Eval as it was before the fast path: the Go value is
// handed to OPA to convert (through its JSON-shaped round trip), and no
// decision is cached. Tests check that both decide every case alike.
func (e *Engine) EvalReference(ctx context.Context, input any) (*wire.Decision, error) {
	rules, err := e.fired(func(q *verdictQuery) ([]wire.Rule, error) {
		return evalQuery(ctx, q.reference, rego.EvalInput(input))
	})
	if err != nil {
		return e.failed(err), &EvalError{Err: err}
	}
	return e.decision(rules), nil
}

func (e *Engine) decision(rules []wire.Rule) *wire.Decision {
	d := &wire.Decision{Revision: e.revision, Rules: rules}
	decide(d)
	return d
}

// fired evaluates the verdict query with eval and returns the rules that
// fired and are in force.
func (e *Engine) fired(eval func(*verdictQuery) ([]wire.Rule, error)) ([]wire.Rule, error) {
	rules, err := eval(&e.query)
	if err != nil {
		return nil, err
	}
	kept := rules[:0]
	for _, r := range rules {
		// config.yaml's disabled_rules, applied here in Go rather than in
		// Rego, where a policy file could redefine what decides it.
		if r.Org || !e.disabled[r.ID] || strings.HasPrefix(r.ID, LockedPrefix) {
			kept = append(kept, r)
		}
	}
	rules = kept
	if e.locked != nil {
		// The pack's locked rules, evaluated over the pack alone: a user
		// file that extends a table they read (or anything else it
		// defines) cannot make them stay silent.
		locked, err := eval(e.locked)
		if err != nil {
			return nil, err
		}
		have := make(map[wire.Rule]bool, len(rules))
		for _, r := range rules {
			have[r] = true
		}
		for _, r := range locked {
			if (r.Org || strings.HasPrefix(r.ID, LockedPrefix)) && !have[r] {
				rules = append(rules, r)
			}
		}
		sortRules(rules)
	}
	return rules, nil
}

// evalQuery runs the verdict query and returns the rules that fired:
// deny, then ask, then allow, each sorted by message.
func evalQuery(ctx context.Context, q rego.PreparedEvalQuery, opts ...rego.EvalOption) ([]wire.Rule, error) {
	var builtinErrs []topdown.Error
	rs, err := q.Eval(ctx, append(opts, rego.EvalBuiltinErrorList(&builtinErrs))...)
	if err == nil && len(builtinErrs) > 0 {
		// Outside strict mode a failing built-in just makes its rule
		// undefined, which for a deny rule means allow. Refuse that.
		err = &builtinErrs[0]
	}
	if err != nil {
		return nil, err
	}
	if len(rs) != 1 {
		return nil, fmt.Errorf("the verdict query returned %d results, want 1", len(rs))
	}
	b := rs[0].Bindings
	var rules []wire.Rule
	rules = append(rules, messages(wire.Deny, b["deny"])...)
	rules = append(rules, messages(wire.Ask, b["ask"])...)
	rules = append(rules, messages(wire.Allow, b["allow"])...)
	rules = append(rules, orgMessages(b)...)
	sortRules(rules)
	return rules, nil
}

func (e *Engine) failed(err error) *wire.Decision {
	msg := "agentjail blocked this call because a policy failed to evaluate: " + err.Error() + "; fix the policy (see `agentjail status`)"
	return &wire.Decision{
		Verdict:  wire.Deny,
		Reason:   msg,
		Rules:    []wire.Rule{{Kind: wire.Deny, ID: "agentjail.eval_error", Msg: msg}},
		Revision: e.revision,
	}
}

// decide applies the verdict order: any deny, else any ask, else any
// allow (explicit), else allow with nothing fired.
func decide(d *wire.Decision) {
	var winner wire.Verdict
	for _, kind := range []wire.Verdict{wire.Deny, wire.Ask, wire.Allow} {
		var msgs []string
		for _, r := range d.Rules {
			// Rules is sorted by message, so a message two rules share
			// (a user pasting a pack rule) is adjacent and shown once.
			if r.Kind == kind && (len(msgs) == 0 || msgs[len(msgs)-1] != r.Msg) {
				msgs = append(msgs, r.Msg)
			}
		}
		if len(msgs) > 0 {
			winner = kind
			d.Reason = JoinReasons(msgs)
			break
		}
	}
	switch winner {
	case "":
		d.Verdict = wire.Allow
	case wire.Allow:
		d.Verdict, d.Explicit = wire.Allow, true
	default:
		d.Verdict = winner
	}
}

// messages converts one message set. A message is a string, or an object
// with "msg" and an optional stable "id"; anything else is shown as JSON
// rather than dropped, so a rule that fired is never silently lost.
func messages(kind wire.Verdict, v any) []wire.Rule {
	set, _ := v.([]any)
	out := make([]wire.Rule, 0, len(set))
	for _, m := range set {
		out = append(out, messageRule(kind, m))
	}
	sortRules(out)
	return out
}

// messageRule converts one message (see messages).
func messageRule(kind wire.Verdict, m any) wire.Rule {
	r := wire.Rule{Kind: kind}
	switch m := m.(type) {
	case string:
		r.Msg = m
	case map[string]any:
		r.ID, _ = m["id"].(string)
		r.Msg, _ = m["msg"].(string)
		if r.Msg == "" {
			r.Msg = ast.MustInterfaceToValue(m).String()
		}
	default:
		r.Msg = fmt.Sprint(m)
	}
	return r
}

// kindOrder puts deny before ask before allow.
var kindOrder = map[wire.Verdict]int{wire.Deny: 0, wire.Ask: 1, wire.Allow: 2}

// sortRules orders rules by kind, then message, then id, so a message two
// rules share is adjacent (decide shows it once).
func sortRules(rules []wire.Rule) {
	sort.SliceStable(rules, func(i, j int) bool {
		a, b := rules[i], rules[j]
		if a.Kind != b.Kind {
			return kindOrder[a.Kind] < kindOrder[b.Kind]
		}
		if a.Msg != b.Msg {
			return a.Msg < b.Msg
		}
		return a.ID < b.ID
	})
}
