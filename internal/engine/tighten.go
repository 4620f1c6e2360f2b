package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/agentjail/agentjail/internal/wire"
)

// A Tightening is one user's own policy files in system mode, compiled on
// their own: never with the pack, the org bundles or another user's files,
// so nothing a user file defines can extend, override or feed a rule of
// theirs. It only adds deny and ask rules to a verdict the system policy
// set has already reached (see CompileTightening). It is immutable and
// safe for concurrent use.
type Tightening struct {
	query    verdictQuery
	sources  []wire.Source
	revision string
	rules    int
}

// TightenPackage is the package a tightening file must be in: the one
// every policy adds its rules to, with nothing below or beside it.
const TightenPackage = Package

// ConfigNames are the keys of config.yaml the daemon hands the policies
// under data.config. A tightening file may not define a rule of any of
// these names: in user mode they loosen (allowed_paths, disabled_rules),
// and in a set compiled alone they would silently do nothing. The daemon's
// tests check this list against what it really puts in data.config.
var ConfigNames = []string{"disabled_rules", "protected_paths", "allowed_paths", "production_contexts", "policy_dirs"}

// refusedNames are the names of package agentjail, besides deny and ask,
// that agentjail itself reads from a policy set, with why a tightening
// file may not define them. allow loosens; the tables are read by the
// daemon from the system set only, so in a user's file they would be
// ignored while looking in force (and in user mode a row can make a
// word stop counting as a path, which loosens).
var refusedNames = func() map[string]string {
	m := map[string]string{
		"allow":                  "an allow rule approves calls, which loosens",
		"program_groups":         "the program_groups table is read from the system policies only",
		"shell_roles":            "the shell_roles table decides which words are paths, and is read from the system policies only",
		"written_files":          "the written_files table is read from the system policies only",
		"credential_config_dirs": "the credential_config_dirs table is read from the system policies only",
		"org":                    "agentjail.org holds the locked rules of org bundles",
		"internal":               "agentjail.internal is agentjail's own document",
	}
	for _, n := range ConfigNames {
		m[n] = "it names config.yaml's " + n + ", which only the system configuration sets"
	}
	m["disabled_rules"] = "disabling rules loosens, and only the system configuration sets disabled_rules"
	return m
}()

// RefusedTighteningNames lists every rule name a tightening file may not
// define, sorted (for docs and tests).
func RefusedTighteningNames() []string {
	out := make([]string, 0, len(refusedNames))
	for n := range refusedNames {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// maxTightenRounds bounds the compiles of one CompileTightening: each
// round after the first leaves out the files the previous one blamed.
const maxTightenRounds = 3

// CompileTightening compiles one user's policy files (Rego v0 or v1, file
// by file, as Compile) into a Tightening that may only tighten. A file is
// refused whole, with file and line, when it:
//
//   - is in a package other than agentjail (TightenPackage);
//   - defines allow, or any other name agentjail reads from a policy set
//     besides deny and ask (see refusedNames and ConfigNames);
//   - gives deny or ask a default, or defines them as anything but a set
//     of messages (a complete rule, an object, a function);
//   - defines anything Compile refuses (a reserved document).
//
// Helper rules and functions are fine: the set compiles alone, so they
// are private to it. The good files still load; the returned errors name
// every file left out. The Tightening is nil when no file is left (or
// when the rest does not compile), which tightens nothing.
func CompileTightening(ctx context.Context, sources []Source) (*Tightening, []wire.LoadErr) {
	modules := make(map[string]*ast.Module, len(sources))
	texts := make(map[string]Source, len(sources))
	var errs []wire.LoadErr
	for _, src := range sources {
		mod, _, err := Parse(src.Name, src.Text)
		if err != nil {
			errs = append(errs, astErrorsOf(src.Name, err)...)
			continue
		}
		if bad := checkTightening(src.Name, mod); len(bad) > 0 {
			errs = append(errs, bad...)
			continue
		}
		modules[src.Name] = mod
		texts[src.Name] = Source{Name: src.Name, Text: src.Text}
	}
	for round := 0; len(modules) > 0 && round < maxTightenRounds; round++ {
		t, cerrs := compileTightening(ctx, modules, texts)
		if len(cerrs) == 0 {
			return t, sortLoadErrs(errs)
		}
		errs = append(errs, cerrs...)
		blamed := false
		for _, e := range cerrs {
			if _, ok := modules[e.File]; ok {
				delete(modules, e.File)
				blamed = true
			}
		}
		if !blamed {
			break // an error of no file: nothing left out would mend it
		}
	}
	return nil, sortLoadErrs(errs)
}

// compileTightening compiles modules (parsed afresh from texts: the
// compiler annotates what it is given, and a failed round must not leak
// into the next) with the verdict module.
func compileTightening(ctx context.Context, modules map[string]*ast.Module, texts map[string]Source) (*Tightening, []wire.LoadErr) {
	fresh := make(map[string]*ast.Module, len(modules))
	sources := make([]Source, 0, len(modules))
	infos := make([]wire.Source, 0, len(modules))
	for name := range modules {
		mod, version, err := Parse(name, texts[name].Text)
		if err != nil {
			return nil, astErrorsOf(name, err)
		}
		fresh[name] = mod
		sources = append(sources, texts[name])
		infos = append(infos, wire.Source{Name: name, RegoVersion: version})
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Name < infos[j].Name })
	// No data at all: a user's file reads nothing of the system's
	// configuration, and nothing it reads can be fed from outside it.
	q, _, errs := prepareVerdict(ctx, fresh, map[string]any{})
	if len(errs) > 0 {
		return nil, errs
	}
	return &Tightening{query: q, sources: infos, revision: revisionOf(sources), rules: countRules(fresh)}, nil
}

// checkTightening refuses what a tightening file may not define (see
// CompileTightening), each with its line.
func checkTightening(name string, m *ast.Module) []wire.LoadErr {
	var errs []wire.LoadErr
	fail := func(loc *ast.Location, format string, args ...any) {
		le := wire.LoadErr{File: name, Message: fmt.Sprintf(format, args...)}
		if loc != nil {
			le.Line, le.Col = loc.Row, loc.Col
		}
		errs = append(errs, le)
	}
	if pkg := m.Package.Path; !pkg.Equal(policyRoot) {
		fail(m.Package.Location, "package %s: in system mode your own policies may only add deny and ask rules, in package %s; change the package line to `package %s`", strings.TrimPrefix(pkg.String(), "data."), TightenPackage, TightenPackage)
		return errs
	}
	costly := func(op string, loc *ast.Location) {
		if why := costlyBuiltins[op]; why != "" {
			fail(loc, "%s is refused in your own policies in system mode: %s; judge what the input holds instead", op, why)
		}
	}
	// A call is an expression of its own (f(x)) or a term inside one
	// (count(f(x)) > 0).
	ast.WalkExprs(m, func(e *ast.Expr) bool {
		if e.IsCall() {
			costly(e.Operator().String(), e.Location)
		}
		return false
	})
	ast.WalkTerms(m, func(t *ast.Term) bool {
		if call, ok := t.Value.(ast.Call); ok && len(call) > 0 {
			costly(call[0].String(), t.Location)
		}
		return false
	})
	for _, r := range m.Rules {
		head := r.Head.Ref()
		if len(head) == 0 {
			continue
		}
		rule, _ := head[0].Value.(ast.Var)
		switch name := string(rule); {
		case refusedNames[name] != "":
			fail(r.Location, "rule %s is refused in system mode, where your own policies may only tighten: %s; remove it, or ask an administrator to add it to the system policies", name, refusedNames[name])
		case name == "deny" || name == "ask":
			if why := notMessageSet(r); why != "" {
				fail(r.Location, "rule %s %s, which could make it stay silent; write it as `%s contains msg if { ... }` (or `%s[msg] { ... }`)", name, why, name, name)
			}
		default:
			if root, ok := reserved(rulePath(m, r)); ok {
				fail(r.Location, "rule %s is reserved: %s is agentjail's own document, so a policy file cannot define it; give the rule another name", name, root)
			}
		}
	}
	return errs
}

// costlyBuiltins are refused in a user's own policies: they run inside
// the system daemon every user shares, where a call that builds a huge
// value (numbers.range(1, 1e9)) would take the memory every user's hook
// needs, and one that reads the daemon's own state would show it to any
// user. (http.send and net.lookup_ip_addr are refused everywhere.)
var costlyBuiltins = map[string]string{
	"numbers.range":      "it can build a list as long as it is told, in the daemon every user shares",
	"numbers.range_step": "it can build a list as long as it is told, in the daemon every user shares",
	"net.cidr_expand":    "it can build a list of every address of a network, in the daemon every user shares",
	"opa.runtime":        "it shows the shared daemon's own environment",
}

// notMessageSet says how a deny or ask rule is not a plain partial set of
// messages, or "" when it is one.
func notMessageSet(r *ast.Rule) string {
	switch {
	case r.Default:
		return "has a default"
	case len(r.Head.Args) > 0:
		return "is a function"
	case len(r.Head.Ref()) > 1:
		return "reaches into the set with a dotted or bracketed name"
	case r.Head.RuleKind() != ast.MultiValue:
		return "is a complete rule, not a set that rules add messages to"
	}
	return ""
}

func sortLoadErrs(errs []wire.LoadErr) []wire.LoadErr {
	sort.SliceStable(errs, func(i, j int) bool {
		if errs[i].File != errs[j].File {
			return errs[i].File < errs[j].File
		}
		return errs[i].Line < errs[j].Line
	})
	return errs
}

// Eval evaluates input (JSON-shaped, as for Engine.Eval) and returns the
// deny and ask rules that fired, each marked User. On an evaluation
// failure it returns a deny rule naming it, with the error: a user's own
// policy that fails blocks that user's call, never lets it through.
func (t *Tightening) Eval(ctx context.Context, input any) ([]wire.Rule, error) {
	v, err := inputValue(input)
	if err == nil {
		var rules []wire.Rule
		if rules, err = t.query.direct.eval(ctx, v); err == nil {
			kept := rules[:0]
			for _, r := range rules {
				// The verdict module reads allow and org too; a file
				// defining them is refused, so nothing is dropped here
				// but in a set that slipped past the check.
				if (r.Kind == wire.Deny || r.Kind == wire.Ask) && !r.Org {
					r.User = true
					kept = append(kept, r)
				}
			}
			return kept, nil
		}
	}
	msg := "agentjail blocked this call because one of your own policies failed to evaluate: " + err.Error() + "; fix it (see `agentjail status`)"
	return []wire.Rule{{Kind: wire.Deny, ID: "agentjail.user_eval_error", Msg: msg, User: true}}, &EvalError{Err: err}
}

// Sources lists the user's files in force, each with its Rego version.
func (t *Tightening) Sources() []wire.Source { return t.sources }

// Revision is a short hash of every file's name and text.
func (t *Tightening) Revision() string { return t.revision }

// Rules is how many deny and ask rules the files define.
func (t *Tightening) Rules() int { return t.rules }
