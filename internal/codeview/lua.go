package codeview

import (
	"strconv"
	"strings"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// Lua is read with gopher-lua's parser (Lua 5.1, pure Go, kept up with
// the interpreter it belongs to). Lua has no resolved scopes there, so
// a name stands for every value it is given anywhere in the code.

// Lua returns the view of Lua code (see For).
func Lua(code string) string { return luaView(code, 0) }

func luaView(code string, depth int) (out string) {
	defer func() {
		if recover() != nil {
			out = ""
		}
	}()
	chunk, err := parse.Parse(strings.NewReader(code), "code")
	if err != nil {
		return ""
	}
	l := &luaReader{binds: map[string][]ast.Expr{}, seen: map[string]bool{}, depth: depth, steps: maxSteps}
	l.bindAll(chunk)
	l.callsIn(chunk)
	return strings.Join(l.lines, "\n")
}

type luaReader struct {
	binds map[string][]ast.Expr
	lines []string
	seen  map[string]bool
	depth int
	steps int
}

// luaBlocks are a statement's inner blocks and the expressions it holds.
func luaBlocks(s ast.Stmt) (blocks [][]ast.Stmt, exprs []ast.Expr) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		exprs = append(append(exprs, s.Lhs...), s.Rhs...)
	case *ast.LocalAssignStmt:
		exprs = s.Exprs
	case *ast.FuncCallStmt:
		exprs = []ast.Expr{s.Expr}
	case *ast.DoBlockStmt:
		blocks = [][]ast.Stmt{s.Stmts}
	case *ast.WhileStmt:
		blocks, exprs = [][]ast.Stmt{s.Stmts}, []ast.Expr{s.Condition}
	case *ast.RepeatStmt:
		blocks, exprs = [][]ast.Stmt{s.Stmts}, []ast.Expr{s.Condition}
	case *ast.IfStmt:
		blocks, exprs = [][]ast.Stmt{s.Then, s.Else}, []ast.Expr{s.Condition}
	case *ast.NumberForStmt:
		blocks, exprs = [][]ast.Stmt{s.Stmts}, []ast.Expr{s.Init, s.Limit, s.Step}
	case *ast.GenericForStmt:
		blocks, exprs = [][]ast.Stmt{s.Stmts}, s.Exprs
	case *ast.FuncDefStmt:
		exprs = []ast.Expr{s.Func}
	case *ast.ReturnStmt:
		exprs = s.Exprs
	}
	return blocks, exprs
}

// luaInner are an expression's inner expressions and blocks.
func luaInner(e ast.Expr) (exprs []ast.Expr, blocks [][]ast.Stmt) {
	switch e := e.(type) {
	case *ast.AttrGetExpr:
		exprs = []ast.Expr{e.Object, e.Key}
	case *ast.TableExpr:
		for _, f := range e.Fields {
			exprs = append(exprs, f.Key, f.Value)
		}
	case *ast.FuncCallExpr:
		exprs = append([]ast.Expr{e.Func, e.Receiver}, e.Args...)
	case *ast.LogicalOpExpr:
		exprs = []ast.Expr{e.Lhs, e.Rhs}
	case *ast.RelationalOpExpr:
		exprs = []ast.Expr{e.Lhs, e.Rhs}
	case *ast.StringConcatOpExpr:
		exprs = []ast.Expr{e.Lhs, e.Rhs}
	case *ast.ArithmeticOpExpr:
		exprs = []ast.Expr{e.Lhs, e.Rhs}
	case *ast.UnaryMinusOpExpr:
		exprs = []ast.Expr{e.Expr}
	case *ast.UnaryNotOpExpr:
		exprs = []ast.Expr{e.Expr}
	case *ast.UnaryLenOpExpr:
		exprs = []ast.Expr{e.Expr}
	case *ast.FunctionExpr:
		blocks = [][]ast.Stmt{e.Stmts}
	}
	return exprs, blocks
}

func (l *luaReader) bindAll(stmts []ast.Stmt) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.LocalAssignStmt:
			for i, name := range s.Names {
				if i < len(s.Exprs) {
					l.bind(name, s.Exprs[i])
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range s.Lhs {
				if id, ok := lhs.(*ast.IdentExpr); ok && i < len(s.Rhs) {
					l.bind(id.Value, s.Rhs[i])
				}
			}
		}
		blocks, exprs := luaBlocks(s)
		for _, b := range blocks {
			l.bindAll(b)
		}
		for _, e := range exprs {
			l.bindIn(e)
		}
	}
}

func (l *luaReader) bindIn(e ast.Expr) {
	if e == nil {
		return
	}
	exprs, blocks := luaInner(e)
	for _, b := range blocks {
		l.bindAll(b)
	}
	for _, x := range exprs {
		l.bindIn(x)
	}
}

func (l *luaReader) bind(name string, e ast.Expr) {
	if len(l.binds[name]) < maxAlts {
		l.binds[name] = append(l.binds[name], e)
	}
}

func (l *luaReader) callsIn(stmts []ast.Stmt) {
	for _, s := range stmts {
		blocks, exprs := luaBlocks(s)
		for _, e := range exprs {
			l.callsInExpr(e)
		}
		for _, b := range blocks {
			l.callsIn(b)
		}
	}
}

func (l *luaReader) callsInExpr(e ast.Expr) {
	if e == nil || len(l.lines) >= maxCalls {
		return
	}
	if call, ok := e.(*ast.FuncCallExpr); ok {
		l.call(call)
	}
	exprs, blocks := luaInner(e)
	for _, x := range exprs {
		l.callsInExpr(x)
	}
	for _, b := range blocks {
		l.callsIn(b)
	}
}

func (l *luaReader) call(c *ast.FuncCallExpr) {
	for _, fn := range l.callee(c, 0) {
		w := &writer{}
		w.add(fn)
		w.text.WriteByte('(')
		for i, a := range c.Args {
			if i > 0 {
				w.text.WriteString(", ")
			}
			w.add(l.render(a, 0)[0])
		}
		w.text.WriteByte(')')
		line := w.text.String()
		if w.changed && len(line) <= maxLine && !l.seen[line] {
			l.seen[line] = true
			l.lines = append(l.lines, line)
		}
		// load("...")() and loadstring run a string as Lua.
		if (fn.text == "load" || fn.text == "loadstring") && len(c.Args) > 0 && l.depth < 2 {
			if src, ok := l.constString(c.Args[0], 0); ok && len(src) <= maxCode {
				if inner := luaView(src, l.depth+1); inner != "" {
					l.lines = append(l.lines, inner)
				}
			}
		}
	}
}

// callee is what a call calls: obj:method for a method call.
func (l *luaReader) callee(c *ast.FuncCallExpr, depth int) []piece {
	if c.Receiver != nil {
		var out []piece
		for _, r := range l.render(c.Receiver, depth+1) {
			out = append(out, piece{r.text + ":" + c.Method, r.changed})
		}
		return out
	}
	return l.render(c.Func, depth+1)
}

func (l *luaReader) render(e ast.Expr, depth int) []piece {
	if e == nil {
		return []piece{{}}
	}
	if l.steps--; l.steps < 0 || depth > maxDepth {
		return []piece{{text: "…"}}
	}
	if s, ok := l.constString(e, depth); ok {
		_, literal := e.(*ast.StringExpr)
		return []piece{{quote(s), !literal}}
	}
	switch e := e.(type) {
	case *ast.IdentExpr:
		var out []piece
		for _, v := range l.binds[e.Value] {
			if id, ok := v.(*ast.IdentExpr); ok && id.Value == e.Value {
				continue
			}
			for _, p := range l.render(v, depth+1) {
				out = append(out, piece{p.text, true})
			}
		}
		if len(out) == 0 || len(out) > maxAlts {
			return []piece{{text: e.Value}}
		}
		return out
	case *ast.AttrGetExpr:
		key := "[…]"
		if s, ok := l.constString(e.Key, depth+1); ok {
			key = s
		}
		_, literal := e.Key.(*ast.StringExpr)
		var out []piece
		for _, p := range l.render(e.Object, depth+1) {
			out = append(out, piece{p.text + "." + key, p.changed || !literal})
		}
		return out
	case *ast.FuncCallExpr:
		if id, ok := e.Func.(*ast.IdentExpr); ok && id.Value == "require" && len(e.Args) == 1 {
			if m, ok := l.constString(e.Args[0], depth+1); ok {
				return []piece{{m, true}}
			}
		}
		w := &writer{}
		w.add(l.callee(e, depth)[0])
		w.text.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				w.text.WriteString(", ")
			}
			w.add(l.render(a, depth+1)[0])
		}
		w.text.WriteByte(')')
		return []piece{{w.text.String(), w.changed}}
	case *ast.StringConcatOpExpr:
		x, y := l.render(e.Lhs, depth+1)[0], l.render(e.Rhs, depth+1)[0]
		return []piece{{x.text + " .. " + y.text, x.changed || y.changed}}
	case *ast.FunctionExpr:
		return []piece{{text: "function"}}
	case *ast.NumberExpr:
		return []piece{{text: e.Value}}
	}
	return []piece{{text: "…"}}
}

// constString computes e when it is a constant string: literals joined
// with .., names given one constant, string.char, :reverse() and
// string.reverse, and os.getenv("HOME") as ~.
func (l *luaReader) constString(e ast.Expr, depth int) (string, bool) {
	if l.steps--; l.steps < 0 || depth > maxDepth {
		return "", false
	}
	switch e := e.(type) {
	case *ast.StringExpr:
		return e.Value, true
	case *ast.NumberExpr:
		return e.Value, true // "x" .. 1 is "x1"
	case *ast.StringConcatOpExpr:
		x, ok := l.constString(e.Lhs, depth+1)
		if !ok {
			return "", false
		}
		y, ok := l.constString(e.Rhs, depth+1)
		return x + y, ok
	case *ast.IdentExpr:
		if vals := l.binds[e.Value]; len(vals) == 1 {
			if id, ok := vals[0].(*ast.IdentExpr); !ok || id.Value != e.Value {
				return l.constString(vals[0], depth+1)
			}
		}
	case *ast.FuncCallExpr:
		if e.Receiver != nil {
			if e.Method == "reverse" && len(e.Args) == 0 {
				if s, ok := l.constString(e.Receiver, depth+1); ok {
					return reverse(s), true
				}
			}
			return "", false
		}
		name := l.render(e.Func, depth+1)[0].text
		switch name {
		case "os.getenv":
			if len(e.Args) == 1 {
				if v, ok := l.constString(e.Args[0], depth+1); ok && v == "HOME" {
					return "~", true
				}
			}
		case "string.reverse":
			if len(e.Args) == 1 {
				if s, ok := l.constString(e.Args[0], depth+1); ok {
					return reverse(s), true
				}
			}
		case "string.char":
			var b strings.Builder
			for _, a := range e.Args {
				n, ok := a.(*ast.NumberExpr)
				if !ok {
					return "", false
				}
				c, err := strconv.Atoi(n.Value)
				if err != nil || c < 0 || c > 255 {
					return "", false
				}
				b.WriteByte(byte(c))
			}
			return b.String(), true
		}
	}
	return "", false
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
