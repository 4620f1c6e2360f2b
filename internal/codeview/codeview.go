// Package codeview reads an interpreter's code with a real parser and
// writes out the calls it makes with their names resolved and their
// constant strings computed: `const {execSync: run} = require('cp')`
// then `run('r'+'m -rf ~')` is viewed as child_process.execSync("rm -rf
// ~"). The tables that judge code (the shell roles' code APIs, the
// pack's code effects) are regular expressions over a call's usual
// spelling; the view gives them that spelling whatever the code did to
// hide it.
//
// JavaScript is read with github.com/tdewolff/parse/v2/js: pure Go,
// ES2020 with modules, its scopes resolved, and kept up by the minifier
// that depends on it; Lua with github.com/yuin/gopher-lua's parser;
// Python with github.com/go-python/gpython's (python.go says what of
// later Python it reads). Ruby, Perl and PHP have no parser of that
// standing in pure Go, so their code is read by the tables alone.
package codeview

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// languages maps an interpreter to the language a view is made for.
var languages = map[string]string{
	"node": "javascript", "nodejs": "javascript", "deno": "javascript", "bun": "javascript",
	"lua": "lua", "luajit": "lua", "lua5.1": "lua", "lua5.2": "lua", "lua5.3": "lua", "lua5.4": "lua",
	"python": "python", "python3": "python", "pypy3": "python", "pypy": "python",
	"ruby": "plain", "irb": "plain", "jruby": "plain", "perl": "plain",
}

// language is program's language: python3.12 is python3's.
func language(program string) string {
	if l, ok := languages[program]; ok {
		return l
	}
	if v, ok := strings.CutPrefix(program, "python3."); ok && v != "" && strings.Trim(v, "0123456789") == "" {
		return "python"
	}
	return ""
}

// Bounds: code past maxCode is not parsed (the tables still read it),
// and a view holds at most maxCalls calls, each of at most maxLine bytes.
const (
	maxCode  = 64 << 10
	maxCalls = 200
	maxLine  = 4 << 10
	maxDepth = 8 // aliases followed through aliases
	maxAlts  = 4 // values one name may have been given
	maxSteps = 50000
)

// For returns the view of code run by program, one call a line, or ""
// when program's language has no parser here, the code does not parse,
// or no call in it reads otherwise than it is written.
func For(program, code string) string {
	if len(code) > maxCode {
		return ""
	}
	switch language(program) {
	case "javascript":
		return JavaScript(code)
	case "lua":
		return Lua(code)
	case "python":
		return Python(code)
	case "plain":
		return Plain(code)
	}
	return ""
}

// JavaScript returns the view of JavaScript code (see For).
func JavaScript(code string) string { return view(code, 0) }

// view is JavaScript's, for code run by code depth levels down.
func view(code string, depth int) (out string) {
	defer func() {
		if recover() != nil { // a parser's bug must not cost the verdict
			out = ""
		}
	}()
	ast, err := js.Parse(parse.NewInputString(code), js.Options{})
	if err != nil {
		return ""
	}
	r := &resolver{binds: map[*js.Var][]js.IExpr{}, imports: map[string]string{}, steps: maxSteps}
	js.Walk(binder{r}, ast)
	c := &calls{r: r, seen: map[string]bool{}, depth: depth}
	js.Walk(c, ast)
	return strings.Join(c.lines, "\n")
}

// resolver holds what each name was given: a declaration's value, an
// assignment's, a destructured property of either, or an import.
type resolver struct {
	binds   map[*js.Var][]js.IExpr
	imports map[string]string // import names, which the parser keeps as bytes
	// steps bounds the work of following names: names given each other
	// in a ring would otherwise multiply alternatives at every level.
	steps int
}

func root(v *js.Var) *js.Var {
	for i := 0; v.Link != nil && i < 16; i++ {
		v = v.Link
	}
	return v
}

func (r *resolver) bind(b js.IBinding, value js.IExpr) {
	if value == nil {
		return
	}
	switch b := b.(type) {
	case *js.Var:
		v := root(b)
		if len(r.binds[v]) < maxAlts {
			r.binds[v] = append(r.binds[v], value)
		}
	case *js.BindingObject:
		for _, item := range b.List {
			var key []byte
			switch {
			case item.Key == nil:
				if v, ok := item.Value.Binding.(*js.Var); ok {
					key = v.Data
				}
			case item.Key.IsComputed():
				if s, ok := constString(r, item.Key.Computed, 0); ok {
					key = []byte(s)
				}
			default:
				key = item.Key.Literal.Data
				if item.Key.Literal.TokenType == js.StringToken {
					key = []byte(unquote(key))
				}
			}
			if key != nil {
				r.bind(item.Value.Binding, &js.DotExpr{X: value, Y: &js.LiteralExpr{TokenType: js.IdentifierToken, Data: key}})
			}
		}
	}
}

// binder walks the code once for what names are given.
type binder struct{ r *resolver }

func (b binder) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.VarDecl:
		for _, el := range n.List {
			b.r.bind(el.Binding, el.Default)
		}
	case *js.BinaryExpr:
		if n.Op == js.EqToken {
			if v, ok := n.X.(*js.Var); ok {
				b.r.bind(v, n.Y)
			}
		}
	case *js.CallExpr:
		// import('m').then(m => ...): the callback's parameter is what
		// the promise gives, the module.
		if d, ok := n.X.(*js.DotExpr); ok && nameOf(d.Y) == "then" && len(n.Args.List) > 0 {
			var params []js.BindingElement
			switch f := n.Args.List[0].Value.(type) {
			case *js.ArrowFunc:
				params = f.Params.List
			case *js.FuncDecl:
				params = f.Params.List
			}
			if len(params) > 0 {
				if call, ok := d.X.(*js.CallExpr); ok {
					if _, isModule := required(b.r, call, 0); isModule {
						b.r.bind(params[0].Binding, d.X)
					}
				}
			}
		}
	case *js.ImportStmt:
		mod := module(unquote(n.Module))
		if n.Default != nil {
			b.r.imports[string(n.Default)] = mod
		}
		for _, a := range n.List {
			name, as := string(a.Name), string(a.Binding)
			switch {
			case name == "*":
				b.r.imports[as] = mod
			case as == "":
				b.r.imports[name] = mod + "." + name
			default:
				b.r.imports[as] = mod + "." + name
			}
		}
	}
	return b
}

func (binder) Exit(js.INode) {}

// calls walks the code for its calls and writes the view of each that
// reads otherwise than it is written.
type calls struct {
	r     *resolver
	lines []string
	seen  map[string]bool
	depth int // how deep in code run by code (eval of a string) this is
}

func (c *calls) Enter(n js.INode) js.IVisitor {
	if len(c.lines) >= maxCalls {
		return nil
	}
	var callee js.IExpr
	var args []js.Arg
	switch n := n.(type) {
	case *js.CallExpr:
		callee, args = n.X, n.Args.List
	case *js.NewExpr:
		callee = n.X
		if n.Args != nil {
			args = n.Args.List
		}
	default:
		return c
	}
	for _, fn := range c.r.render(callee, 0) {
		w := &writer{}
		w.add(fn)
		w.text.WriteByte('(')
		for i, a := range args {
			if i > 0 {
				w.text.WriteString(", ")
			}
			if a.Rest {
				w.text.WriteString("...")
			}
			w.add(c.r.first(a.Value, 0))
		}
		w.text.WriteByte(')')
		line := w.text.String()
		if w.changed && len(line) <= maxLine && !c.seen[line] {
			c.seen[line] = true
			c.lines = append(c.lines, line)
		}
		// A program and its argument list, as the command line it runs:
		// the shell tables read command lines.
		if argvCalls[fn.text] && len(args) >= 2 {
			if line, ok := c.r.commandLine(args[0].Value, args[1].Value); ok && !c.seen[line] {
				c.seen[line] = true
				c.lines = append(c.lines, "child_process.execSync("+quote(line)+")")
			}
		}
		// Code that runs a constant string as code: its calls are the
		// code's calls too.
		if runsString[fn.text] && len(args) > 0 && c.depth < 2 {
			if src, ok := constString(c.r, args[len(args)-1].Value, 0); ok && len(src) <= maxCode {
				if fn.text == "Function" {
					src = "(function(){\n" + src + "\n})" // a body: return is allowed
				}
				if inner := view(src, c.depth+1); inner != "" {
					c.lines = append(c.lines, inner)
				}
			}
		}
	}
	return c
}

// argvCalls are the calls that run a program with a list of arguments.
var argvCalls = map[string]bool{
	"child_process.spawn": true, "child_process.spawnSync": true, "child_process.execFile": true,
	"child_process.execFileSync": true, "Bun.spawn": true, "Bun.spawnSync": true,
}

// commandLine is program and args written as a shell command line, when
// both are constant (a word that is the home, ~, stays unquoted).
func (r *resolver) commandLine(program, args js.IExpr) (string, bool) {
	prog, ok := constString(r, program, 0)
	if !ok {
		return "", false
	}
	list, ok := constList(r, args, 0)
	if !ok {
		return "", false
	}
	words := []string{shellWord(prog)}
	for _, a := range list {
		words = append(words, shellWord(a))
	}
	return strings.Join(words, " "), true
}

func shellWord(s string) string {
	if s == "~" || strings.HasPrefix(s, "~/") && !strings.ContainsAny(s, " '\"$`\\;|&<>(){}*?[]!#\n") {
		return s
	}
	if s != "" && !strings.ContainsAny(s, " '\"$`\\;|&<>(){}*?[]!#~\n\t") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// runsString are the calls that run their (last) string argument as
// JavaScript.
var runsString = map[string]bool{"eval": true, "Function": true, "vm.runInThisContext": true, "vm.runInNewContext": true, "vm.runInContext": true, "vm.Script": true}

// globalObjects are the names of the global object: globalThis.eval is
// eval.
var globalObjects = map[string]bool{"globalThis": true, "global": true, "window": true, "self": true}

func (*calls) Exit(js.INode) {}

// piece is an expression's rendering and whether it reads otherwise
// than the code spells it (a name resolved, a string computed).
type piece struct {
	text    string
	changed bool
}

type writer struct {
	text    strings.Builder
	changed bool
}

func (w *writer) add(p piece) {
	w.text.WriteString(p.text)
	w.changed = w.changed || p.changed
}

// first is e's first rendering: an argument's alternatives are not
// multiplied out, the callee's are.
func (r *resolver) first(e js.IExpr, depth int) piece {
	if alts := r.render(e, depth); len(alts) > 0 {
		return alts[0]
	}
	return piece{}
}

// render writes e as the call tables read it: a module for require()
// and imports, a name through what it was given, a constant string
// computed and quoted. A name given several values has an alternative
// for each.
func (r *resolver) render(e js.IExpr, depth int) []piece {
	if e == nil {
		return []piece{{}}
	}
	if r.steps--; r.steps < 0 {
		return []piece{{text: "…"}}
	}
	if s, ok := constString(r, e, depth); ok {
		_, literal := e.(*js.LiteralExpr)
		return []piece{{quote(s), !literal}}
	}
	if depth > maxDepth {
		return []piece{{text: "…"}}
	}
	switch e := e.(type) {
	case *js.Var:
		v := root(e)
		if mod, ok := r.imports[string(v.Data)]; ok {
			return []piece{{mod, true}}
		}
		var out []piece
		for _, val := range r.binds[v] {
			if callsItself(val, v) {
				continue
			}
			for _, p := range r.render(val, depth+1) {
				out = append(out, piece{p.text, true})
			}
		}
		if len(out) == 0 || len(out) > maxAlts {
			return []piece{{text: string(v.Data)}}
		}
		return out
	case *js.GroupExpr:
		return r.render(e.X, depth)
	case *js.DotExpr:
		if g, ok := e.X.(*js.Var); ok && globalObjects[string(g.Data)] && r.binds[root(g)] == nil {
			return []piece{{nameOf(e.Y), true}} // globalThis.eval is eval
		}
		if inner, ok := e.X.(*js.DotExpr); ok && nameOf(e.Y) == "constructor" && nameOf(inner.Y) == "constructor" {
			return []piece{{"Function", true}} // [].constructor.constructor is Function
		}
		var out []piece
		for _, p := range r.render(e.X, depth+1) {
			out = append(out, piece{p.text + "." + nameOf(e.Y), p.changed})
		}
		return out
	case *js.IndexExpr:
		key, isConst := constString(r, e.Y, depth+1)
		if g, ok := e.X.(*js.Var); ok && isConst && globalObjects[string(g.Data)] && r.binds[root(g)] == nil {
			return []piece{{key, true}} // globalThis['ev'+'al'] is eval
		}
		var out []piece
		for _, p := range r.render(e.X, depth+1) {
			if isConst && isIdent(key) {
				_, literal := e.Y.(*js.LiteralExpr)
				out = append(out, piece{p.text + "." + key, p.changed || !literal})
			} else {
				out = append(out, piece{p.text + "[" + r.first(e.Y, depth+1).text + "]", p.changed})
			}
		}
		return out
	case *js.CallExpr:
		if mod, ok := required(r, e, depth); ok {
			return []piece{{mod, true}}
		}
		fn := r.render(e.X, depth+1)
		w := &writer{}
		w.add(fn[0])
		w.text.WriteByte('(')
		for i, a := range e.Args.List {
			if i > 0 {
				w.text.WriteString(", ")
			}
			w.add(r.render(a.Value, depth+1)[0])
		}
		w.text.WriteByte(')')
		return []piece{{w.text.String(), w.changed}}
	case *js.ArrayExpr:
		w := &writer{}
		w.text.WriteByte('[')
		for i, el := range e.List {
			if i > 0 {
				w.text.WriteString(", ")
			}
			if el.Value != nil {
				w.add(r.render(el.Value, depth+1)[0])
			}
		}
		w.text.WriteByte(']')
		return []piece{{w.text.String(), w.changed}}
	case *js.BinaryExpr:
		if e.Op == js.AddToken {
			x, y := r.render(e.X, depth+1)[0], r.render(e.Y, depth+1)[0]
			return []piece{{x.text + " + " + y.text, x.changed || y.changed}}
		}
	case *js.ArrowFunc, *js.FuncDecl:
		return []piece{{text: "function"}}
	}
	s := e.String()
	if len(s) > maxLine {
		s = s[:maxLine]
	}
	return []piece{{text: s}}
}

// callsItself reports a value that reads its own name (x = x + 1),
// which would otherwise be followed to the depth bound.
func callsItself(val js.IExpr, v *js.Var) bool {
	found := false
	js.Walk(varFinder{v, &found}, val)
	return found
}

type varFinder struct {
	v     *js.Var
	found *bool
}

func (f varFinder) Enter(n js.INode) js.IVisitor {
	if x, ok := n.(*js.Var); ok && root(x) == f.v {
		*f.found = true
	}
	if *f.found {
		return nil
	}
	return f
}

func (varFinder) Exit(js.INode) {}

// required is the module require('m') or import('m') loads.
func required(r *resolver, e *js.CallExpr, depth int) (string, bool) {
	name := ""
	switch x := e.X.(type) {
	case *js.Var:
		name = string(root(x).Data)
	case *js.LiteralExpr:
		name = string(x.Data) // import(...)
	}
	if name != "require" && name != "import" || len(e.Args.List) != 1 {
		return "", false
	}
	s, ok := constString(r, e.Args.List[0].Value, depth+1)
	if !ok {
		return "", false
	}
	return module(s), true
}

// module is how a module is named in the tables: child_process for
// 'node:child_process'.
func module(s string) string {
	s = strings.TrimPrefix(s, "node:")
	return strings.NewReplacer("/", "_", "-", "_", "@", "").Replace(s)
}

// constString computes e when it is a constant string: literals and
// templates, joined with +, names given one constant, and the usual
// ways code hides a string (atob, Buffer.from(x, 'base64').toString(),
// String.fromCharCode, [..].join, .split(”).reverse().join(”)).
func constString(r *resolver, e js.IExpr, depth int) (string, bool) {
	if r.steps--; depth > maxDepth || r.steps < 0 {
		return "", false
	}
	switch e := e.(type) {
	case *js.LiteralExpr:
		if e.TokenType == js.StringToken {
			return unquote(e.Data), true
		}
	case *js.TemplateExpr:
		if e.Tag != nil {
			return "", false
		}
		var b strings.Builder
		for _, part := range e.List {
			b.WriteString(cook(templateText(part.Value)))
			s, ok := constString(r, part.Expr, depth+1)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		b.WriteString(cook(templateText(e.Tail)))
		return b.String(), true
	case *js.GroupExpr:
		return constString(r, e.X, depth)
	case *js.BinaryExpr:
		if e.Op != js.AddToken {
			return "", false
		}
		x, ok := constString(r, e.X, depth+1)
		if !ok {
			return "", false
		}
		y, ok := constString(r, e.Y, depth+1)
		return x + y, ok
	case *js.Var:
		vals := r.binds[root(e)]
		if len(vals) != 1 || callsItself(vals[0], root(e)) {
			return "", false
		}
		return constString(r, vals[0], depth+1)
	case *js.CallExpr:
		if d, ok := e.X.(*js.DotExpr); ok && nameOf(d.Y) == "homedir" && len(e.Args.List) == 0 && r.first(d.X, depth+1).text == "os" {
			return "~", true
		}
		if homeVariables[r.path(e, depth)] {
			return "~", true // Deno.env.get("HOME")
		}
		return constCall(r, e, depth)
	case *js.DotExpr, *js.IndexExpr:
		if homeVariables[r.path(e, depth)] {
			return "~", true
		}
	}
	return "", false
}

// homeVariables are the expressions that read $HOME: a string joined to
// one names a place in the home, written ~ in the view.
var homeVariables = map[string]bool{"process.env.HOME": true, "process.env.USERPROFILE": true, "Bun.env.HOME": true, "import.meta.env.HOME": true}

// path is a member expression's dotted name (process.env.HOME), its
// names resolved, or "" when a part of it is computed.
func (r *resolver) path(e js.IExpr, depth int) string {
	if depth > maxDepth {
		return ""
	}
	switch e := e.(type) {
	case *js.Var:
		return r.first(e, depth+1).text
	case *js.DotExpr:
		if x := r.path(e.X, depth+1); x != "" {
			return x + "." + nameOf(e.Y)
		}
	case *js.IndexExpr:
		if key, ok := constString(r, e.Y, depth+1); ok && isIdent(key) {
			if x := r.path(e.X, depth+1); x != "" {
				return x + "." + key
			}
		}
	case *js.CallExpr:
		// Deno.env.get("HOME")
		if d, ok := e.X.(*js.DotExpr); ok && nameOf(d.Y) == "get" && len(e.Args.List) == 1 {
			if key, ok := constString(r, e.Args.List[0].Value, depth+1); ok && key == "HOME" && r.path(d.X, depth+1) == "Deno.env" {
				return "process.env.HOME"
			}
		}
	}
	return ""
}

func constCall(r *resolver, e *js.CallExpr, depth int) (string, bool) {
	args := e.Args.List
	arg := func(i int) (string, bool) {
		if i >= len(args) {
			return "", false
		}
		return constString(r, args[i].Value, depth+1)
	}
	switch fn := e.X.(type) {
	case *js.Var:
		if string(fn.Data) == "atob" {
			s, ok := arg(0)
			if !ok {
				return "", false
			}
			return decode(s, "base64")
		}
	case *js.DotExpr:
		method := nameOf(fn.Y)
		if obj, ok := fn.X.(*js.Var); ok && string(obj.Data) == "String" && method == "fromCharCode" {
			var b strings.Builder
			for _, a := range args {
				lit, ok := a.Value.(*js.LiteralExpr)
				if !ok || lit.TokenType != js.DecimalToken && lit.TokenType != js.NumericToken && lit.TokenType != js.IntegerToken {
					return "", false
				}
				n, err := strconv.Atoi(string(lit.Data))
				if err != nil || n < 0 || n > utf8.MaxRune {
					return "", false
				}
				b.WriteRune(rune(n))
			}
			return b.String(), true
		}
		switch method {
		case "toString":
			// Buffer.from(S, enc).toString()
			inner, ok := fn.X.(*js.CallExpr)
			if !ok {
				return constString(r, fn.X, depth+1)
			}
			if d, ok := inner.X.(*js.DotExpr); ok && nameOf(d.Y) == "from" {
				if b, ok := d.X.(*js.Var); ok && string(b.Data) == "Buffer" && len(inner.Args.List) >= 1 {
					s, ok := constString(r, inner.Args.List[0].Value, depth+1)
					if !ok {
						return "", false
					}
					enc := "utf8"
					if len(inner.Args.List) > 1 {
						if enc, ok = constString(r, inner.Args.List[1].Value, depth+1); !ok {
							return "", false
						}
					}
					return decode(s, enc)
				}
			}
		case "join":
			sep := ","
			if len(args) > 0 {
				var ok bool
				if sep, ok = arg(0); !ok {
					return "", false
				}
			}
			parts, ok := constList(r, fn.X, depth+1)
			if !ok {
				return "", false
			}
			return strings.Join(parts, sep), true
		}
	}
	return "", false
}

// constList computes an array of constant strings: a literal array,
// s.split(sep), and .reverse() of either.
func constList(r *resolver, e js.IExpr, depth int) ([]string, bool) {
	if depth > maxDepth {
		return nil, false
	}
	switch e := e.(type) {
	case *js.ArrayExpr:
		var out []string
		for _, el := range e.List {
			if el.Spread || el.Value == nil {
				return nil, false
			}
			s, ok := constString(r, el.Value, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	case *js.CallExpr:
		d, ok := e.X.(*js.DotExpr)
		if !ok {
			return nil, false
		}
		switch nameOf(d.Y) {
		case "reverse":
			l, ok := constList(r, d.X, depth+1)
			slices.Reverse(l)
			return l, ok
		case "split":
			s, ok := constString(r, d.X, depth+1)
			if !ok || len(e.Args.List) != 1 {
				return nil, false
			}
			sep, ok := constString(r, e.Args.List[0].Value, depth+1)
			if !ok {
				return nil, false
			}
			if sep == "" {
				return strings.Split(s, ""), true // JavaScript splits UTF-16 units; runes are near enough here
			}
			return strings.Split(s, sep), true
		}
	case *js.Var:
		vals := r.binds[root(e)]
		if len(vals) == 1 {
			return constList(r, vals[0], depth+1)
		}
	}
	return nil, false
}

func decode(s, enc string) (string, bool) {
	switch strings.ToLower(enc) {
	case "base64", "base64url":
		s = strings.TrimRight(strings.TrimSpace(s), "=")
		for _, e := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			if b, err := e.DecodeString(s); err == nil && utf8.Valid(b) {
				return string(b), true
			}
		}
	case "hex":
		if b, err := hex.DecodeString(s); err == nil && utf8.Valid(b) {
			return string(b), true
		}
	case "utf8", "utf-8", "ascii", "latin1", "binary":
		return s, true
	}
	return "", false
}

func nameOf(e js.IExpr) string {
	switch e := e.(type) {
	case *js.LiteralExpr:
		return string(e.Data)
	case *js.Var:
		return string(e.Data)
	}
	return e.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// quote writes s as a literal the call tables' string pattern reads
// whole: in a quote s does not hold, newlines as the line breaks of a
// command line.
func quote(s string) string {
	s = strings.ReplaceAll(s, "\n", "; ")
	for _, q := range []string{`"`, `'`, "`"} {
		if !strings.Contains(s, q) {
			return q + s + q
		}
	}
	return strconv.Quote(s)
}

// templateText is a template's text between its delimiters: the
// parser keeps the backtick, "${" and "}" with it.
func templateText(b []byte) []byte {
	if len(b) > 0 && (b[0] == '`' || b[0] == '}') {
		b = b[1:]
	}
	if bytes.HasSuffix(b, []byte("${")) {
		return b[:len(b)-2]
	}
	return bytes.TrimSuffix(b, []byte("`"))
}

// unquote is a JavaScript string literal's value.
func unquote(b []byte) string {
	if len(b) < 2 {
		return string(b)
	}
	return cook(b[1 : len(b)-1])
}

// cook resolves a string's or template's escapes.
func cook(b []byte) string {
	if !bytes.ContainsRune(b, '\\') {
		return string(b)
	}
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 == len(b) {
			out.WriteByte(c)
			continue
		}
		i++
		switch b[i] {
		case 'n':
			out.WriteByte('\n')
		case 't':
			out.WriteByte('\t')
		case 'r':
			out.WriteByte('\r')
		case '0':
			out.WriteByte(0)
		case 'x':
			if i+2 < len(b) {
				if n, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8); err == nil {
					out.WriteRune(rune(n))
					i += 2
					continue
				}
			}
			out.WriteByte('x')
		case 'u':
			if i+1 < len(b) && b[i+1] == '{' {
				if end := bytes.IndexByte(b[i:], '}'); end > 0 {
					if n, err := strconv.ParseUint(string(b[i+2:i+end]), 16, 32); err == nil {
						out.WriteRune(rune(n))
						i += end
						continue
					}
				}
			} else if i+4 < len(b) {
				if n, err := strconv.ParseUint(string(b[i+1:i+5]), 16, 16); err == nil {
					out.WriteRune(rune(n))
					i += 4
					continue
				}
			}
			out.WriteByte('u')
		case '\n':
			// a line continuation
		default:
			out.WriteByte(b[i])
		}
	}
	return out.String()
}
