package codeview

import (
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"compress/zlib"
	"encoding/ascii85"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/parser"
	"github.com/go-python/gpython/py"
)

// Python is read with gpython's parser: pure Go, kept up with the
// interpreter it belongs to, Python 3.4's grammar. Later syntax it
// lacks is f-strings, which are rewritten as the concatenations they
// mean before parsing (pyFStrings); code with other later syntax (:=,
// match) does not parse and is read by the tables alone. As in Lua, a
// name stands for every value it is given anywhere in the code.

// Python returns the view of Python code (see For).
func Python(code string) string { return pyView(code, 0) }

func pyView(code string, depth int) (out string) {
	defer func() {
		if recover() != nil {
			out = ""
		}
	}()
	tree, err := parser.ParseString(pyFStrings(code)+"\n", py.ExecMode)
	if err != nil {
		return ""
	}
	p := &pyReader{binds: map[string][]pyBind{}, imports: map[string]string{}, local: map[string]pyConst{}, funcs: map[string]*ast.Arguments{}, seen: map[string]bool{}, depth: depth, steps: maxSteps}
	ast.Walk(tree, p.bindNode)
	ast.Walk(tree, p.bindParams)
	ast.Walk(tree, p.callNode)
	return strings.Join(p.lines, "\n")
}

type pyReader struct {
	binds   map[string][]pyBind
	imports map[string]string // a name and the module (or module.name) it was imported as
	funcs   map[string]*ast.Arguments
	local   map[string]pyConst
	lines   []string
	seen    map[string]bool
	depth   int
	steps   int
}

// pyBind is a value a name was given; added is s += value.
type pyBind struct {
	value ast.Expr
	added bool
}

// pyConst is a comprehension variable's value while its element is
// computed: ”.join(chr(c) for c in [114, 109]).
type pyConst struct {
	s     string
	n     int
	isInt bool
}

func (p *pyReader) bind(name string, b pyBind) {
	if len(p.binds[name]) < 2*maxAlts {
		p.binds[name] = append(p.binds[name], b)
	}
}

func (p *pyReader) bindNode(n ast.Ast) bool {
	switch n := n.(type) {
	case *ast.Import:
		for _, a := range n.Names {
			name := string(a.Name)
			if a.AsName != "" {
				p.imports[string(a.AsName)] = name
			} else {
				top, _, _ := strings.Cut(name, ".")
				p.imports[top] = top // import os.path binds os
			}
		}
	case *ast.ImportFrom:
		for _, a := range n.Names {
			if a.Name == "*" {
				continue
			}
			as := string(a.AsName)
			if as == "" {
				as = string(a.Name)
			}
			p.imports[as] = string(n.Module) + "." + string(a.Name)
		}
	case *ast.Assign:
		for _, t := range n.Targets {
			p.bindTarget(t, n.Value)
			if name, ok := t.(*ast.Name); ok {
				if l, ok := n.Value.(*ast.Lambda); ok {
					p.funcs[string(name.Id)] = l.Args
				}
			}
		}
	case *ast.FunctionDef:
		p.funcs[string(n.Name)] = n.Args
	case *ast.AugAssign:
		if name, ok := n.Target.(*ast.Name); ok && n.Op == ast.Add {
			p.bind(string(name.Id), pyBind{n.Value, true})
		}
	}
	return true
}

// bindParams gives a function's parameters the arguments of its calls:
// def run(c): os.system(c) then run('id'), or (lambda f: f('id'))(os.system).
func (p *pyReader) bindParams(n ast.Ast) bool {
	c, ok := n.(*ast.Call)
	if !ok {
		return true
	}
	var params *ast.Arguments
	switch fn := c.Func.(type) {
	case *ast.Lambda:
		params = fn.Args
	case *ast.Name:
		params = p.funcs[string(fn.Id)]
	}
	if params == nil {
		return true
	}
	for i, a := range c.Args {
		if i < len(params.Args) {
			p.bind(string(params.Args[i].Arg), pyBind{value: a})
		}
	}
	for _, k := range c.Keywords {
		p.bind(string(k.Arg), pyBind{value: k.Value})
	}
	return true
}

// bindTarget binds a = v, and a, b = x, y pairwise.
func (p *pyReader) bindTarget(t, v ast.Expr) {
	switch t := t.(type) {
	case *ast.Name:
		p.bind(string(t.Id), pyBind{value: v})
	case *ast.Tuple, *ast.List:
		targets, values := pyElts(t), pyElts(v)
		if len(targets) == len(values) {
			for i := range targets {
				p.bindTarget(targets[i], values[i])
			}
		}
	}
}

func pyElts(e ast.Expr) []ast.Expr {
	switch e := e.(type) {
	case *ast.Tuple:
		return e.Elts
	case *ast.List:
		return e.Elts
	}
	return nil
}

func (p *pyReader) callNode(n ast.Ast) bool {
	if len(p.lines) >= maxCalls {
		return false
	}
	if c, ok := n.(*ast.Call); ok {
		p.call(c)
	}
	return true
}

// pyArgvCalls are the calls that run a program from a list of words, and
// where in their arguments the list stands (-1: os.execl's path, arg0,
// arg1...; -2: each argument is a word).
var pyArgvCalls = map[string]int{
	"subprocess.run": 0, "subprocess.call": 0, "subprocess.check_call": 0,
	"subprocess.check_output": 0, "subprocess.Popen": 0, "subprocess.getoutput": 0,
	"os.execv": 1, "os.execve": 1, "os.execvp": 1, "os.execvpe": 1,
	"os.spawnv": 2, "os.spawnve": 2, "os.spawnvp": 2, "os.spawnvpe": 2,
	"os.posix_spawn": 1, "os.posix_spawnp": 1, "pty.spawn": 0,
	"os.execl": -1, "os.execle": -1, "os.execlp": -1, "os.execlpe": -1,
	"asyncio.create_subprocess_exec": -2,
}

// pyRunsCode are the calls that run their first argument as Python.
var pyRunsCode = map[string]bool{"exec": true, "eval": true, "compile": true}

func (p *pyReader) call(c *ast.Call) {
	for _, fn := range p.callee(c, 0) {
		w := &writer{changed: p.depth > 0} // code run by code: every call is hidden
		w.add(fn)
		w.text.WriteByte('(')
		for i, a := range c.Args {
			if i > 0 {
				w.text.WriteString(", ")
			}
			w.add(p.render(a, 0)[0])
		}
		for i, k := range c.Keywords {
			if i > 0 || len(c.Args) > 0 {
				w.text.WriteString(", ")
			}
			w.text.WriteString(string(k.Arg) + "=")
			w.add(p.render(k.Value, 0)[0])
		}
		w.text.WriteByte(')')
		p.add(w.text.String(), w.changed)
		if at, ok := pyArgvCalls[fn.text]; ok {
			if line, ok := p.commandLine(c, at); ok {
				p.add("os.system("+quote(line)+")", true)
			}
		}
		if pyRunsCode[fn.text] && len(c.Args) > 0 && p.depth < 2 {
			if src, ok := p.constString(c.Args[0], 0); ok && len(src) <= maxCode {
				if inner := pyView(src, p.depth+1); inner != "" {
					p.lines = append(p.lines, inner)
				}
			}
		}
	}
}

func (p *pyReader) add(line string, changed bool) {
	if changed && len(line) <= maxLine && !p.seen[line] {
		p.seen[line] = true
		p.lines = append(p.lines, line)
	}
}

// commandLine is the command line an argv call runs, when its words are
// constant.
func (p *pyReader) commandLine(c *ast.Call, at int) (string, bool) {
	var words []string
	switch {
	case at < 0:
		// os.execl(path, arg0, arg1...) runs path with arg1...: arg0 is
		// only the name it is given; create_subprocess_exec(prog, arg1...).
		args := c.Args
		if at == -1 && len(args) >= 2 {
			args = append([]ast.Expr{args[0]}, args[2:]...)
		}
		for _, a := range args {
			s, ok := p.constString(a, 0)
			if !ok {
				return "", false
			}
			words = append(words, s)
		}
	case at < len(c.Args):
		if s, ok := p.constString(c.Args[at], 0); ok {
			return s, true // subprocess.run("ls -la", shell=True), pty.spawn("sh")
		}
		list, ok := p.constList(c.Args[at], 0)
		if !ok {
			return "", false
		}
		words = list
	}
	if len(words) == 0 {
		return "", false
	}
	for i, s := range words {
		words[i] = shellWord(s)
	}
	return strings.Join(words, " "), true
}

// callee is what a call calls: getattr(x, 'name')(...) calls x.name.
func (p *pyReader) callee(c *ast.Call, depth int) []piece {
	return p.render(c.Func, depth+1)
}

// pyBuiltins are the names of the builtins module: builtins.exec is exec.
var pyBuiltins = map[string]bool{"builtins": true, "__builtins__": true, "__builtin__": true}

// render writes e as the call tables read it: a module for its imports
// and __import__, a name through what it was given, getattr as the
// attribute, a constant string computed and quoted.
func (p *pyReader) render(e ast.Expr, depth int) []piece {
	if e == nil {
		return []piece{{}}
	}
	if p.steps--; p.steps < 0 || depth > maxDepth {
		return []piece{{text: "…"}}
	}
	if s, ok := p.constString(e, depth); ok && utf8.ValidString(s) {
		_, literal := e.(*ast.Str)
		return []piece{{quote(s), !literal}}
	}
	switch e := e.(type) {
	case *ast.Name:
		name := string(e.Id)
		if mod, ok := p.imports[name]; ok {
			return []piece{{mod, mod != name}}
		}
		var out []piece
		for _, b := range p.binds[name] {
			if b.added || pyReads(b.value, name) {
				continue
			}
			for _, r := range p.render(b.value, depth+1) {
				out = append(out, piece{r.text, true})
			}
		}
		if len(out) == 0 || len(out) > maxAlts {
			return []piece{{text: name}}
		}
		return out
	case *ast.Attribute:
		var out []piece
		for _, r := range p.render(e.Value, depth+1) {
			if pyBuiltins[r.text] {
				out = append(out, piece{string(e.Attr), true})
				continue
			}
			out = append(out, piece{r.text + "." + string(e.Attr), r.changed})
		}
		return out
	case *ast.Subscript:
		idx, ok := e.Slice.(*ast.Index)
		if !ok {
			break
		}
		key, isConst := p.constString(idx.Value, depth+1)
		var out []piece
		for _, r := range p.render(e.Value, depth+1) {
			switch {
			case isConst && r.text == "sys.modules":
				out = append(out, piece{key, true})
			case isConst && (r.text == "globals()" || r.text == "locals()" || r.text == "vars()" || pyBuiltins[strings.TrimSuffix(r.text, ".__dict__")]):
				out = append(out, p.render(&ast.Name{Id: ast.Identifier(key)}, depth+1)...)
			case isConst && strings.HasSuffix(r.text, ".__dict__"):
				out = append(out, piece{strings.TrimSuffix(r.text, ".__dict__") + "." + key, true})
			case isConst && strings.HasPrefix(r.text, "vars(") && strings.HasSuffix(r.text, ")"):
				out = append(out, piece{r.text[5:len(r.text)-1] + "." + key, true})
			default:
				out = append(out, piece{r.text + "[" + p.render(idx.Value, depth+1)[0].text + "]", r.changed})
			}
		}
		return out
	case *ast.Call:
		fn := p.render(e.Func, depth+1)[0]
		switch fn.text {
		case "__import__", "importlib.import_module", "importlib.__import__":
			if len(e.Args) > 0 {
				if mod, ok := p.constString(e.Args[0], depth+1); ok {
					return []piece{{mod, true}}
				}
			}
		case "getattr":
			if len(e.Args) >= 2 {
				if attr, ok := p.constString(e.Args[1], depth+1); ok {
					var out []piece
					for _, r := range p.render(e.Args[0], depth+1) {
						if pyBuiltins[r.text] {
							out = append(out, piece{attr, true})
						} else {
							out = append(out, piece{r.text + "." + attr, true})
						}
					}
					return out
				}
			}
		}
		w := &writer{}
		w.add(fn)
		w.text.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				w.text.WriteString(", ")
			}
			w.add(p.render(a, depth+1)[0])
		}
		w.text.WriteByte(')')
		return []piece{{w.text.String(), w.changed}}
	case *ast.List, *ast.Tuple:
		open, close := "[", "]"
		if _, ok := e.(*ast.Tuple); ok {
			open, close = "(", ")"
		}
		w := &writer{}
		w.text.WriteString(open)
		for i, el := range pyElts(e) {
			if i > 0 {
				w.text.WriteString(", ")
			}
			w.add(p.render(el, depth+1)[0])
		}
		w.text.WriteString(close)
		return []piece{{w.text.String(), w.changed}}
	case *ast.Num:
		return []piece{{text: pyNumber(e)}}
	case *ast.BinOp:
		if e.Op == ast.Add {
			x, y := p.render(e.Left, depth+1)[0], p.render(e.Right, depth+1)[0]
			return []piece{{x.text + " + " + y.text, x.changed || y.changed}}
		}
	case *ast.Lambda:
		return []piece{{text: "lambda"}}
	case *ast.NameConstant:
		switch e.Value {
		case py.True:
			return []piece{{text: "True"}}
		case py.False:
			return []piece{{text: "False"}}
		case py.None:
			return []piece{{text: "None"}}
		}
	}
	return []piece{{text: "…"}}
}

func pyNumber(n *ast.Num) string {
	if s, ok := n.N.(py.I__str__); ok {
		if v, err := s.M__str__(); err == nil {
			if str, ok := v.(py.String); ok {
				return string(str)
			}
		}
	}
	return "…"
}

// pyReads reports a value that reads name (x = x + 'y').
func pyReads(e ast.Expr, name string) bool {
	found := false
	ast.Walk(e, func(n ast.Ast) bool {
		if x, ok := n.(*ast.Name); ok && string(x.Id) == name {
			found = true
		}
		return !found
	})
	return found
}

// name is e's dotted name with imports resolved (os.path.join), or "".
func (p *pyReader) name(e ast.Expr, depth int) string {
	switch e.(type) {
	case *ast.Name, *ast.Attribute, *ast.Call, *ast.Subscript:
		return p.render(e, depth+1)[0].text
	}
	return ""
}

// constString computes e when it is a constant string: literals joined
// with + and %, names given one constant (and += more), .format,
// .join, .replace, slices, chr, the decoders of base64, hex, rot13 and
// zlib, and the expressions of the home as ~.
func (p *pyReader) constString(e ast.Expr, depth int) (string, bool) {
	if p.steps--; p.steps < 0 || depth > maxDepth {
		return "", false
	}
	switch e := e.(type) {
	case *ast.Str:
		return string(e.S), true
	case *ast.Bytes:
		return string(e.S), true
	case *ast.Name:
		if c, ok := p.local[string(e.Id)]; ok && !c.isInt {
			return c.s, true
		}
		binds := p.binds[string(e.Id)]
		if len(binds) == 0 || binds[0].added || pyReads(binds[0].value, string(e.Id)) {
			return "", false
		}
		s, ok := p.constString(binds[0].value, depth+1)
		for _, b := range binds[1:] {
			if !ok || !b.added {
				return "", false
			}
			var more string
			more, ok = p.constString(b.value, depth+1)
			s += more
		}
		return s, ok
	case *ast.BinOp:
		switch e.Op {
		case ast.Add, ast.Div: // Path('/home') / '.ssh' joins
			x, ok := p.constString(e.Left, depth+1)
			if !ok {
				return "", false
			}
			y, ok := p.constString(e.Right, depth+1)
			if e.Op == ast.Div {
				return pyJoin(x, y), ok
			}
			return x + y, ok
		case ast.Modulo:
			format, ok := p.constString(e.Left, depth+1)
			if !ok {
				return "", false
			}
			args := pyElts(e.Right)
			if _, isTuple := e.Right.(*ast.Tuple); !isTuple {
				args = []ast.Expr{e.Right}
			}
			return p.percent(format, args, depth)
		}
	case *ast.Subscript:
		if p.name(e.Value, depth) == "os.environ" {
			if idx, ok := e.Slice.(*ast.Index); ok {
				if k, ok := p.constString(idx.Value, depth+1); ok && k == "HOME" {
					return "~", true
				}
			}
			return "", false
		}
		s, ok := p.constString(e.Value, depth+1)
		if !ok {
			return "", false
		}
		if sl, ok := e.Slice.(*ast.Slice); ok {
			return p.slice(s, sl, depth)
		}
	case *ast.Call:
		return p.constCall(e, depth)
	}
	return "", false
}

// slice computes s[lower:upper:step] over its characters.
func (p *pyReader) slice(s string, sl *ast.Slice, depth int) (string, bool) {
	runes := []rune(s)
	bound := func(e ast.Expr, def int) (int, bool) {
		if e == nil {
			return def, true
		}
		n, ok := p.constInt(e, depth+1)
		if n < 0 {
			n += len(runes)
		}
		return max(0, min(n, len(runes))), ok
	}
	step, ok := 1, true
	if sl.Step != nil {
		if step, ok = p.constInt(sl.Step, depth+1); !ok || step == 0 {
			return "", false
		}
	}
	var out []rune
	if step > 0 {
		lo, ok1 := bound(sl.Lower, 0)
		hi, ok2 := bound(sl.Upper, len(runes))
		if !ok1 || !ok2 {
			return "", false
		}
		for i := lo; i < hi; i += step {
			out = append(out, runes[i])
		}
		return string(out), true
	}
	if sl.Lower != nil || sl.Upper != nil {
		return "", false // s[::-k] is the usual reversal; bounds with it are not
	}
	for i := len(runes) - 1; i >= 0; i += step {
		out = append(out, runes[i])
	}
	return string(out), true
}

func (p *pyReader) constInt(e ast.Expr, depth int) (int, bool) {
	if p.steps--; p.steps < 0 || depth > maxDepth {
		return 0, false
	}
	switch e := e.(type) {
	case *ast.Num:
		if n, ok := e.N.(py.Int); ok {
			return int(n), true
		}
	case *ast.Name:
		if c, ok := p.local[string(e.Id)]; ok && c.isInt {
			return c.n, true
		}
	case *ast.UnaryOp:
		if e.Op == ast.USub {
			n, ok := p.constInt(e.Operand, depth+1)
			return -n, ok
		}
	case *ast.BinOp:
		x, ok1 := p.constInt(e.Left, depth+1)
		y, ok2 := p.constInt(e.Right, depth+1)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case ast.Add:
			return x + y, true
		case ast.Sub:
			return x - y, true
		case ast.Mult:
			return x * y, true
		case ast.BitXor:
			return x ^ y, true
		case ast.FloorDiv:
			if y != 0 {
				return x / y, true
			}
		case ast.Modulo:
			if y != 0 {
				return x % y, true
			}
		}
	case *ast.Call:
		if len(e.Args) == 1 {
			switch p.name(e.Func, depth) {
			case "ord":
				if s, ok := p.constString(e.Args[0], depth+1); ok && utf8.RuneCountInString(s) == 1 {
					r, _ := utf8.DecodeRuneInString(s)
					return int(r), true
				}
			case "int":
				return p.constInt(e.Args[0], depth+1)
			}
		}
	}
	return 0, false
}

func (p *pyReader) constCall(e *ast.Call, depth int) (string, bool) {
	arg := func(i int) (string, bool) {
		if i >= len(e.Args) {
			return "", false
		}
		return p.constString(e.Args[i], depth+1)
	}
	fn := p.name(e.Func, depth)
	switch fn {
	case "pathlib.Path.home", "Path.home", "pathlib.PosixPath.home":
		return "~", len(e.Args) == 0
	case "os.path.expanduser", "os.path.abspath", "os.path.normpath", "os.path.realpath", "str", "os.fsdecode", "pathlib.Path", "Path", "pathlib.PosixPath", "os.path.expandvars":
		s, ok := arg(0)
		if fn == "os.path.expandvars" {
			s = strings.NewReplacer("${HOME}", "~", "$HOME", "~").Replace(s)
		}
		return s, ok && len(e.Args) == 1
	case "os.getenv", "os.environ.get":
		if k, ok := arg(0); ok && k == "HOME" {
			return "~", true
		}
		return "", false
	case "os.path.join", "posixpath.join":
		return p.joinAll(e.Args, depth)
	case "chr":
		n, ok := p.constInt(e.Args[0], depth+1)
		if !ok || n < 0 || n > utf8.MaxRune {
			return "", false
		}
		return string(rune(n)), true
	case "bytes", "bytearray":
		if len(e.Args) == 0 {
			return "", false
		}
		if s, ok := arg(0); ok {
			return s, true // bytes('x', 'utf-8')
		}
		list, ok := p.constInts(e.Args[0], depth+1)
		if !ok {
			return "", false
		}
		b := make([]byte, len(list))
		for i, n := range list {
			if n < 0 || n > 255 {
				return "", false
			}
			b[i] = byte(n)
		}
		return string(b), true
	case "base64.b64decode", "base64.standard_b64decode", "base64.decodebytes", "base64.decodestring", "binascii.a2b_base64":
		s, ok := arg(0)
		if !ok {
			return "", false
		}
		return pyBytes(s, base64.StdEncoding)
	case "base64.urlsafe_b64decode":
		s, ok := arg(0)
		if !ok {
			return "", false
		}
		return pyBytes(s, base64.URLEncoding)
	case "base64.b32decode":
		s, ok := arg(0)
		if !ok {
			return "", false
		}
		b, err := base32.StdEncoding.DecodeString(s)
		return string(b), err == nil
	case "base64.b16decode", "binascii.unhexlify", "binascii.a2b_hex", "bytes.fromhex", "bytearray.fromhex":
		s, ok := arg(0)
		if !ok {
			return "", false
		}
		b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
		return string(b), err == nil
	case "base64.a85decode":
		s, ok := arg(0)
		if !ok {
			return "", false
		}
		b := make([]byte, 4*len(s))
		n, _, err := ascii85.Decode(b, []byte(strings.TrimSuffix(strings.TrimPrefix(s, "<~"), "~>")), true)
		return string(b[:n]), err == nil
	case "codecs.decode", "codecs.encode":
		s, ok := arg(0)
		if !ok {
			return "", false
		}
		enc := "utf-8"
		if len(e.Args) > 1 {
			if enc, ok = arg(1); !ok {
				return "", false
			}
		}
		return pyCodec(s, enc)
	case "zlib.decompress", "gzip.decompress", "bz2.decompress":
		s, ok := arg(0)
		if !ok {
			return "", false
		}
		return decompress(fn, s)
	}
	// Methods of a constant string.
	attr, ok := e.Func.(*ast.Attribute)
	if !ok {
		return "", false
	}
	method := string(attr.Attr)
	if method == "join" {
		if len(e.Args) != 1 {
			return "", false
		}
		sep, ok := p.constString(attr.Value, depth+1)
		if !ok {
			return "", false
		}
		parts, ok := p.constList(e.Args[0], depth+1)
		return strings.Join(parts, sep), ok
	}
	if method == "joinpath" || method == "expanduser" || method == "resolve" || method == "absolute" {
		base, ok := p.constString(attr.Value, depth+1)
		if !ok {
			return "", false
		}
		for i := range e.Args {
			s, ok := arg(i)
			if !ok {
				return "", false
			}
			base = pyJoin(base, s)
		}
		return base, true
	}
	s, ok := p.constString(attr.Value, depth+1)
	if !ok {
		return "", false
	}
	switch method {
	case "decode", "encode":
		if len(e.Args) > 0 {
			enc, ok := arg(0)
			if !ok {
				return "", false
			}
			return pyCodec(s, enc)
		}
		return s, true
	case "strip", "rstrip", "lstrip":
		if len(e.Args) > 0 {
			return "", false
		}
		return strings.TrimSpace(s), true
	case "lower":
		return strings.ToLower(s), true
	case "upper":
		return strings.ToUpper(s), true
	case "replace":
		old, ok1 := arg(0)
		with, ok2 := arg(1)
		return strings.ReplaceAll(s, old, with), ok1 && ok2 && len(e.Args) == 2
	case "format":
		return p.format(s, e, depth)
	}
	return "", false
}

// joinAll is os.path.join of constant parts: an absolute part starts
// the path anew.
func (p *pyReader) joinAll(parts []ast.Expr, depth int) (string, bool) {
	out := ""
	for i, a := range parts {
		s, ok := p.constString(a, depth+1)
		if !ok {
			return "", false
		}
		if i == 0 {
			out = s
		} else {
			out = pyJoin(out, s)
		}
	}
	return out, len(parts) > 0
}

func pyJoin(a, b string) string {
	if strings.HasPrefix(b, "/") || a == "" {
		return b
	}
	return strings.TrimSuffix(a, "/") + "/" + b
}

// percent computes format % args for %s, %r, %d and %%.
func (p *pyReader) percent(format string, args []ast.Expr, depth int) (string, bool) {
	var out strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			out.WriteByte(format[i])
			continue
		}
		if i+1 >= len(format) {
			return "", false
		}
		i++
		switch format[i] {
		case '%':
			out.WriteByte('%')
		case 's', 'r', 'd', 'i':
			if next >= len(args) {
				return "", false
			}
			if s, ok := p.constString(args[next], depth+1); ok {
				out.WriteString(s)
			} else if n, ok := p.constInt(args[next], depth+1); ok {
				out.WriteString(pyItoa(n))
			} else {
				return "", false
			}
			next++
		default:
			return "", false
		}
	}
	return out.String(), next == len(args)
}

// format computes s.format(...) for {} {0} and {name} fields.
func (p *pyReader) format(s string, e *ast.Call, depth int) (string, bool) {
	var out strings.Builder
	auto := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '}' && i+1 < len(s) && s[i+1] == '}' || c == '{' && i+1 < len(s) && s[i+1] == '{' {
			out.WriteByte(c)
			i++
			continue
		}
		if c != '{' {
			out.WriteByte(c)
			continue
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", false
		}
		field, _, _ := strings.Cut(s[i+1:i+end], ":")
		field, _, _ = strings.Cut(field, "!")
		var value ast.Expr
		switch {
		case field == "":
			if auto >= len(e.Args) {
				return "", false
			}
			value = e.Args[auto]
			auto++
		case field[0] >= '0' && field[0] <= '9':
			n := 0
			for _, d := range field {
				if d < '0' || d > '9' {
					return "", false
				}
				n = 10*n + int(d-'0')
			}
			if n >= len(e.Args) {
				return "", false
			}
			value = e.Args[n]
		default:
			for _, k := range e.Keywords {
				if string(k.Arg) == field {
					value = k.Value
				}
			}
		}
		if value == nil {
			return "", false
		}
		if v, ok := p.constString(value, depth+1); ok {
			out.WriteString(v)
		} else if n, ok := p.constInt(value, depth+1); ok {
			out.WriteString(pyItoa(n))
		} else {
			return "", false
		}
		i += end
	}
	return out.String(), true
}

func pyItoa(n int) string {
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for {
		b = append(b, byte('0'+n%10))
		if n /= 10; n == 0 {
			break
		}
	}
	if neg {
		b = append(b, '-')
	}
	slices.Reverse(b)
	return string(b)
}

// constList computes a list of constant strings: a literal list or
// tuple, s.split(), list(s), reversed() and [::-1] of one, map(chr, ...)
// and a comprehension whose element is computed from a constant list.
func (p *pyReader) constList(e ast.Expr, depth int) ([]string, bool) {
	if p.steps--; p.steps < 0 || depth > maxDepth {
		return nil, false
	}
	switch e := e.(type) {
	case *ast.List, *ast.Tuple:
		var out []string
		for _, el := range pyElts(e) {
			s, ok := p.constString(el, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	case *ast.Name:
		if binds := p.binds[string(e.Id)]; len(binds) == 1 && !binds[0].added {
			return p.constList(binds[0].value, depth+1)
		}
	case *ast.Subscript:
		if sl, ok := e.Slice.(*ast.Slice); ok && sl.Lower == nil && sl.Upper == nil && sl.Step != nil {
			if step, ok := p.constInt(sl.Step, depth+1); ok && step == -1 {
				l, ok := p.constList(e.Value, depth+1)
				slices.Reverse(l)
				return l, ok
			}
		}
	case *ast.ListComp:
		return p.comprehension(e.Elt, e.Generators, depth)
	case *ast.GeneratorExp:
		return p.comprehension(e.Elt, e.Generators, depth)
	case *ast.Call:
		fn := p.name(e.Func, depth)
		switch {
		case (fn == "reversed" || fn == "list" || fn == "tuple") && len(e.Args) == 1:
			l, ok := p.constList(e.Args[0], depth+1)
			if !ok {
				s, isString := p.constString(e.Args[0], depth+1)
				if !isString {
					return nil, false
				}
				l, ok = strings.Split(s, ""), true
			}
			if fn == "reversed" {
				slices.Reverse(l)
			}
			return l, ok
		case fn == "map" && len(e.Args) == 2 && p.name(e.Args[0], depth) == "chr":
			ints, ok := p.constInts(e.Args[1], depth+1)
			var out []string
			for _, n := range ints {
				if n < 0 || n > utf8.MaxRune {
					return nil, false
				}
				out = append(out, string(rune(n)))
			}
			return out, ok
		}
		if attr, ok := e.Func.(*ast.Attribute); ok && attr.Attr == "split" {
			s, ok := p.constString(attr.Value, depth+1)
			if !ok {
				return nil, false
			}
			if len(e.Args) == 0 {
				return strings.Fields(s), true
			}
			sep, ok := p.constString(e.Args[0], depth+1)
			if !ok || sep == "" {
				return nil, false
			}
			return strings.Split(s, sep), true
		}
	}
	if s, ok := p.constString(e, depth+1); ok {
		return strings.Split(s, ""), true // a string is its characters
	}
	return nil, false
}

// comprehension computes [elt for v in items] over constant items.
func (p *pyReader) comprehension(elt ast.Expr, gens []ast.Comprehension, depth int) ([]string, bool) {
	if len(gens) != 1 || len(gens[0].Ifs) > 0 {
		return nil, false
	}
	v, ok := gens[0].Target.(*ast.Name)
	if !ok {
		return nil, false
	}
	name := string(v.Id)
	saved, had := p.local[name]
	defer func() {
		if had {
			p.local[name] = saved
		} else {
			delete(p.local, name)
		}
	}()
	var items []pyConst
	if ints, ok := p.constInts(gens[0].Iter, depth+1); ok {
		for _, n := range ints {
			items = append(items, pyConst{n: n, isInt: true})
		}
	} else if strs, ok := p.constList(gens[0].Iter, depth+1); ok {
		for _, s := range strs {
			items = append(items, pyConst{s: s})
		}
	} else {
		return nil, false
	}
	var out []string
	for _, it := range items {
		p.local[name] = it
		s, ok := p.constString(elt, depth+1)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// constInts computes a list of constant integers.
func (p *pyReader) constInts(e ast.Expr, depth int) ([]int, bool) {
	switch e := e.(type) {
	case *ast.List, *ast.Tuple:
		var out []int
		for _, el := range pyElts(e) {
			n, ok := p.constInt(el, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, n)
		}
		return out, true
	case *ast.Name:
		if binds := p.binds[string(e.Id)]; len(binds) == 1 && !binds[0].added {
			return p.constInts(binds[0].value, depth+1)
		}
	}
	return nil, false
}

// pyCodec decodes s as codecs.decode(s, enc) does for the encodings
// that hide text.
func pyCodec(s, enc string) (string, bool) {
	switch strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(enc)) {
	case "utf8", "ascii", "latin1", "u8", "utf", "iso88591":
		return s, true
	case "rot13", "rot":
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return 'a' + (r-'a'+13)%26
			case r >= 'A' && r <= 'Z':
				return 'A' + (r-'A'+13)%26
			}
			return r
		}, s), true
	case "hex", "hexcodec":
		b, err := hex.DecodeString(s)
		return string(b), err == nil
	case "base64", "base64codec":
		return pyBytes(s, base64.StdEncoding)
	}
	return "", false
}

// pyBytes decodes base64 as Python does: padding may be left off, and
// the bytes need not be text (they may be zlib's).
func pyBytes(s string, enc *base64.Encoding) (string, bool) {
	s = strings.TrimRight(strings.Join(strings.Fields(s), ""), "=")
	b, err := enc.WithPadding(base64.NoPadding).DecodeString(s)
	return string(b), err == nil
}

// decompress inflates a constant zlib, gzip or bzip2 payload, at most
// maxCode bytes of it.
func decompress(fn, s string) (string, bool) {
	in := strings.NewReader(s)
	var r io.Reader
	var err error
	switch fn {
	case "zlib.decompress":
		r, err = zlib.NewReader(in)
	case "gzip.decompress":
		r, err = gzip.NewReader(in)
	default:
		r = bzip2.NewReader(in)
	}
	if err != nil {
		return "", false
	}
	var out bytes.Buffer
	if _, err := io.Copy(&out, io.LimitReader(r, maxCode)); err != nil && err != io.ErrUnexpectedEOF {
		return "", false
	}
	return out.String(), true
}

// pyFStrings rewrites each f-string as the concatenation it means,
// f"{h}/.ssh" as ("" + str(h) + "/.ssh"), for a parser of the grammar
// before them; the rest of the code is copied as it is.
func pyFStrings(code string) string {
	if !strings.ContainsAny(code, "fF") {
		return code
	}
	var out strings.Builder
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == '#':
			end := strings.IndexByte(code[i:], '\n')
			if end < 0 {
				end = len(code) - i
			}
			out.WriteString(code[i : i+end])
			i += end
		case c == '\'' || c == '"' || pyPrefix(code, i) > 0:
			n := pyPrefix(code, i)
			prefix := strings.ToLower(code[i : i+n])
			q, body, end := pyString(code, i+n)
			if end < 0 {
				out.WriteString(code[i:])
				return out.String()
			}
			if !strings.Contains(prefix, "f") {
				out.WriteString(code[i:end])
			} else {
				out.WriteString(pyFString(strings.ReplaceAll(prefix, "f", ""), q, body))
			}
			i = end
		case isWordByte(c):
			j := i
			for j < len(code) && isWordByte(code[j]) {
				j++
			}
			out.WriteString(code[i:j])
			i = j
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String()
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// pyPrefix is the length of a string prefix (f, rb, Rf...) at i when a
// quote follows it.
func pyPrefix(code string, i int) int {
	for n := 1; n <= 2 && i+n < len(code); n++ {
		if !strings.ContainsRune("rRbBuUfF", rune(code[i+n-1])) {
			return 0
		}
		if code[i+n] == '\'' || code[i+n] == '"' {
			return n
		}
	}
	return 0
}

// pyString reads the string literal whose quote is at i: its quote, its
// body and where it ends (-1 when it does not).
func pyString(code string, i int) (quote, body string, end int) {
	quote = code[i : i+1]
	if strings.HasPrefix(code[i:], strings.Repeat(quote, 3)) {
		quote = strings.Repeat(quote, 3)
	}
	for j := i + len(quote); j < len(code); j++ {
		if code[j] == '\\' {
			j++
			continue
		}
		if strings.HasPrefix(code[j:], quote) {
			return quote, code[i+len(quote) : j], j + len(quote)
		}
	}
	return quote, "", -1
}

// pyFString writes an f-string's body as literals joined to str() of its
// fields ({x!r:>8} is str(x)).
func pyFString(prefix, quote, body string) string {
	var parts []string
	var lit strings.Builder
	flush := func() {
		parts = append(parts, prefix+quote+lit.String()+quote)
		lit.Reset()
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if (c == '{' || c == '}') && i+1 < len(body) && body[i+1] == c {
			lit.WriteByte(c)
			i++
			continue
		}
		if c != '{' {
			lit.WriteByte(c)
			continue
		}
		depth, j := 0, i+1
		for ; j < len(body); j++ {
			if body[j] == '{' || body[j] == '[' || body[j] == '(' {
				depth++
			} else if body[j] == ')' || body[j] == ']' || body[j] == '}' && depth > 0 {
				depth--
			} else if body[j] == '}' {
				break
			}
		}
		if j >= len(body) {
			return "(" + prefix + quote + body + quote + ")"
		}
		field := body[i+1 : j]
		if k := strings.IndexAny(field, "!:"); k >= 0 && !strings.ContainsAny(field[:k], "([{'\"") {
			field = field[:k]
		}
		flush()
		parts = append(parts, "str("+strings.TrimSuffix(strings.TrimSpace(field), "=")+")")
		i = j
	}
	flush()
	return "(" + strings.Join(parts, " + ") + ")"
}
