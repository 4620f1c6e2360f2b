package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/agentjail/agentjail/internal/wire"
)

// reservedRoots are the documents the daemon itself defines or reads.
// A policy file that could define any of them could decide what the
// daemon sees instead of what the policies say, so no file may:
//
//   - agentjail_verdict (and every other agentjail_* root): the verdict
//     module the daemon evaluates;
//   - config: config.yaml's tuning, which the daemon puts in data.config;
//   - system: OPA's own namespace (decision-log masks, default decision)
//     used by the fleet plugins;
//   - agentjail.org: the root of org bundles, whose rules are locked;
//   - agentjail.agents: the agents' facts the pack reads (PackDocuments);
//   - agentjail.internal: kept for the daemon's future internal rules.
var reservedRoots = []ast.Ref{
	ast.MustParseRef("data.config"),
	ast.MustParseRef("data.system"),
	ast.MustParseRef("data.agentjail.org"),
	ast.MustParseRef("data.agentjail.agents"),
	ast.MustParseRef("data.agentjail.internal"),
	ast.MustParseRef("data.agentjail_verdict"),
}

// reservedPrefix is the start of every top-level document name the daemon
// keeps for itself (agentjail_verdict today), TestPackage excepted.
const reservedPrefix = "agentjail_"

// TestPackage is the package of the tests of package agentjail, as OPA's
// convention names it (package agentjail_test, import data.agentjail).
// The daemon never reads it, so policy files may define it.
const TestPackage = Package + "_test"

// checkModules refuses what no policy file may do, before OPA compiles
// anything, so the file is refused at load with its line and the last good
// set stays in force:
//
//   - define a reserved document (see reservedRoots), directly, through a
//     rule whose ref head reaches into it, or from `package data`;
//   - in a package the pack uses, define a rule named like a built-in
//     (startswith, object.get, ...): OPA resolves the pack's calls to the
//     package's rule first, so it would replace the built-in for the pack;
//   - add to a complete rule, function or default the pack defines: a
//     second `safe if true` or `default safe := true` agrees with nothing
//     OPA could call a conflict, yet turns `not safe` off everywhere.
//     Partial sets and objects (the pack's extensible tables) may be
//     extended, as may deny, ask and allow.
func checkModules(modules map[string]*ast.Module, pack, org map[string]bool) []wire.LoadErr {
	packRules := map[string]packRule{}
	packPkgs := map[string]bool{}
	for name, m := range modules {
		if !pack[name] {
			continue
		}
		packPkgs[m.Package.Path.String()] = true
		for _, r := range m.Rules {
			path := rulePath(m, r)
			prev, seen := packRules[path.String()]
			kind := ruleShape(r)
			if !seen || prev.shape == shapeExtensible {
				packRules[path.String()] = packRule{shape: kind, loc: r.Location}
			}
		}
	}
	var errs []wire.LoadErr
	for name, m := range modules {
		fail := func(loc *ast.Location, format string, args ...any) {
			le := wire.LoadErr{File: name, Message: fmt.Sprintf(format, args...)}
			if loc != nil {
				le.Line, le.Col = loc.Row, loc.Col
			}
			errs = append(errs, le)
		}
		pkg := m.Package.Path
		if org[name] {
			// An org bundle's module writes to agentjail.org and nowhere
			// else: that is what makes all its rules locked.
			if !pkg.HasPrefix(orgRoot) {
				fail(m.Package.Location, "package %s is outside %s: an org bundle's policies must be in package %s (bundle root agentjail/org)", strings.TrimPrefix(pkg.String(), "data."), OrgPackage, OrgPackage)
			}
			continue
		}
		if root, ok := reserved(pkg); ok {
			fail(m.Package.Location, "package %s is reserved: %s is agentjail's own document, so a policy file cannot define it; put your rules in package %s", strings.TrimPrefix(pkg.String(), "data."), root, Package)
			continue
		}
		for _, r := range m.Rules {
			path := rulePath(m, r)
			if root, ok := reserved(path); ok {
				fail(r.Location, "rule %s is reserved: %s is agentjail's own document, so a policy file cannot define it; give the rule another name", path, root)
				continue
			}
			if pack[name] {
				continue
			}
			if packPkgs[pkg.String()] {
				if b := shadowedBuiltin(r); b != "" {
					fail(r.Location, "rule %s shadows the built-in %s for every policy in package %s; give it another name", path, b, strings.TrimPrefix(pkg.String(), "data."))
					continue
				}
			}
			prev, ok := packRules[path.String()]
			if !ok {
				continue
			}
			if prev.shape == shapeExtensible && ruleShape(r) == shapeExtensible {
				continue // extending one of the pack's tables, or deny/ask/allow
			}
			where := ""
			if prev.loc != nil {
				where = fmt.Sprintf(" (%s:%d)", prev.loc.File, prev.loc.Row)
			}
			fail(r.Location, "rule %s is defined by the default pack%s; a policy file cannot redefine it or give it a default, since that would change what the pack's rules see; give your rule another name", path, where)
		}
	}
	sort.Slice(errs, func(i, j int) bool {
		if errs[i].File != errs[j].File {
			return errs[i].File < errs[j].File
		}
		return errs[i].Line < errs[j].Line
	})
	return errs
}

type ruleShapeKind int

const (
	shapeFixed      ruleShapeKind = iota // a complete rule, function or default: one value
	shapeExtensible                      // a partial set or object: files add to it
)

type packRule struct {
	shape ruleShapeKind
	loc   *ast.Location
}

// ruleShape says whether other files may add to r's document.
func ruleShape(r *ast.Rule) ruleShapeKind {
	if r.Default || len(r.Head.Args) > 0 {
		return shapeFixed
	}
	if r.Head.RuleKind() == ast.MultiValue || hasVars(r) {
		return shapeExtensible
	}
	return shapeFixed
}

// rulePath is the document r defines, as far as it is known before
// evaluation: the package path, then the ground part of the head's ref.
func rulePath(m *ast.Module, r *ast.Rule) ast.Ref {
	full := m.Package.Path.Copy()
	head := r.Head.Ref()
	if len(head) > 0 {
		// The head's first term is a Var naming the rule; as a path it is
		// that name as a string.
		full = append(full, ast.StringTerm(string(head[0].Value.(ast.Var))))
		full = append(full, head[1:]...)
	}
	return full.GroundPrefix()
}

// hasVars reports whether r's ref goes on past its ground part (a partial
// set or object), so it defines documents only evaluation names.
func hasVars(r *ast.Rule) bool { return !r.Head.Ref().IsGround() }

// policyRoot is the package the policies write to: it sits above the
// reserved agentjail.org, so its rules are checked one by one instead.
var policyRoot = ast.MustParseRef("data." + Package)

// reserved reports the reserved root that path defines, reaches into, or
// sits above (`package data` could define any of them).
func reserved(path ast.Ref) (string, bool) {
	if len(path) >= 2 {
		if s, ok := path[1].Value.(ast.String); ok && strings.HasPrefix(string(s), reservedPrefix) && string(s) != TestPackage {
			return "data." + reservedPrefix + "*", true
		}
	}
	for _, root := range reservedRoots {
		if path.HasPrefix(root) || (root.HasPrefix(path) && !path.Equal(policyRoot)) {
			return root.String(), true
		}
	}
	return "", false
}

// shadowedBuiltin is the built-in (or built-in namespace, like object or
// regex) that r's name hides, or "".
func shadowedBuiltin(r *ast.Rule) string {
	head := r.Head.Ref()
	if len(head) == 0 {
		return ""
	}
	name := string(head[0].Value.(ast.Var))
	if _, ok := ast.BuiltinMap[name]; ok {
		return name
	}
	if builtinNamespaces[name] {
		return name + ".*"
	}
	return ""
}

// builtinNamespaces are the first parts of dotted built-in names.
var builtinNamespaces = func() map[string]bool {
	out := map[string]bool{}
	for name := range ast.BuiltinMap {
		if i := strings.IndexByte(name, '.'); i > 0 {
			out[name[:i]] = true
		}
	}
	return out
}()
