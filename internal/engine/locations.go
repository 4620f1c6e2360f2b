package engine

import "github.com/open-policy-agent/opa/v1/ast"

// dropLocations forgets where each term and expression of the named
// compiled modules was written, once nothing will compile against them
// again. A location is a tenth of a compiled set's objects and nearly a
// third of its bytes, and each one keeps its file's text alive; the
// collector marks them all for as long as the set is in force. Rule
// locations stay, for OPA's conflict errors. Only the pack's modules are
// trimmed: its tests run on a compile of their own (RunTests), and an
// evaluation error in a user's or an org's file keeps its line.
func dropLocations(compiler *ast.Compiler, names map[string]bool) {
	forget := ast.NewGenericVisitor(func(x any) bool {
		switch x.(type) {
		case *ast.Term, *ast.Expr, *ast.With, *ast.SomeDecl, *ast.Every:
			// A nil term, expression or with has no location; the visitor
			// reaches some and every only through an expression that holds one.
			if n := x.(ast.Node); n.Loc() != nil {
				n.SetLoc(nil)
			}
		}
		return false
	})
	for name, m := range compiler.Modules {
		if names[name] {
			for _, r := range m.Rules {
				forget.Walk(r) // a rule's and its head's own locations stay
			}
		}
	}
}
