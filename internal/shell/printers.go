package shell

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// printed works out what a list of statements prints when that is known
// without running it: a printer (Roles.Printers) alone or followed by
// filters, `$(realpath ~/.aws/credentials)`, `ls ~/.ssh/id_* | grep -v
// pub`. ok is false when it is not known.
func (w *walker) printed(stmts []*syntax.Stmt, cwd string, vars map[string]word) (items []word, ok bool) {
	if w.env.Roles == nil || len(stmts) != 1 {
		return nil, false
	}
	var parts []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		parts = append(parts, s)
	}
	flatten(stmts[0])
	return w.printedPipe(parts, cwd, vars)
}

// printedPipe is printed for the members of a pipeline: the first a
// printer, the rest filters.
func (w *walker) printedPipe(parts []*syntax.Stmt, cwd string, vars map[string]word) ([]word, bool) {
	if w.env.Roles == nil || len(parts) == 0 {
		return nil, false
	}
	for _, p := range parts[1:] {
		ce, ok := p.Cmd.(*syntax.CallExpr)
		if !ok || len(ce.Args) == 0 || !w.env.Roles.filters[ce.Args[0].Lit()] {
			return nil, false
		}
	}
	ce, ok := parts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return nil, false
	}
	var words []word
	for _, a := range ce.Args {
		words = append(words, w.fields(a, cwd, vars)...)
	}
	if len(words) == 0 || words[0].dynamic {
		return nil, false
	}
	name := base(words[0].text)
	kind := ""
	// The longest key that the command starts with: "git rev-parse
	// --show-toplevel", then "git".
	key := name
	for i := 0; i < len(words) && i < 4; i++ {
		if i > 0 {
			key += " " + words[i].text
		}
		if k, ok := w.env.Roles.Printers[key]; ok {
			kind = k
		}
	}
	var ops []word
	afterDashes := false
	for _, a := range words[1:] {
		switch {
		case afterDashes || a.dynamic || len(a.text) < 2 || a.text[0] != '-':
			ops = append(ops, a)
		case a.text == "--":
			afterDashes = true
		}
	}
	switch kind {
	case "operands":
		return ops, len(ops) > 0
	case "format":
		if items, ok := formatted(ops); ok {
			return items, true
		}
		if len(ops) > 1 {
			return ops[1:], true
		}
		return ops, len(ops) > 0
	case "cwd":
		return []word{{text: cwd}}, true
	case "under":
		var out []word
		for _, o := range ops {
			if strings.HasPrefix(o.text, "(") || strings.HasPrefix(o.text, "!") {
				break
			}
			out = append(out, under(o, w.abs(expandTilde(o.text, w.env.Home), cwd), "*"))
		}
		if len(out) == 0 {
			out = append(out, under(word{text: "."}, cwd, "*"))
		}
		return out, true
	}
	return nil, false
}

// under is a word for the things find finds below root whose name
// matches the glob name, at any depth: a glob, so that rules judge it
// as what it may name.
func under(root word, abs, name string) word {
	if root.dynamic {
		return word{text: root.text + "/" + name, dynamic: true, prefix: root.prefix, re: ".*"}
	}
	return word{text: strings.TrimSuffix(abs, "/") + "/" + name, glob: true, re: regexp.QuoteMeta(strings.TrimSuffix(abs, "/")) + "/(?:.*/)?" + globRE(name)}
}

// formatted is what printf prints when its format and arguments are all
// known: printf 'r%s' m is rm and printf '%s/.netrc' ~ is ~/.netrc, not
// the arguments on their own. The format is reused until the arguments
// run out, as printf does; the output is split into items at white space
// and NULs. ok is false when a part is unknown or the format uses what
// this does not model, so that the caller falls back to the arguments.
func formatted(ops []word) (items []word, ok bool) {
	if len(ops) == 0 {
		return nil, false
	}
	for _, o := range ops {
		if o.dynamic || o.glob {
			return nil, false
		}
	}
	format, args := ops[0].text, ops[1:]
	var out strings.Builder
	for {
		used, ok := formatOnce(&out, format, args)
		if !ok {
			return nil, false
		}
		// A long output is no longer one path or program: give up.
		if out.Len() > 4096 {
			return nil, false
		}
		if used == 0 || used >= len(args) {
			break
		}
		args = args[used:]
	}
	for _, f := range strings.FieldsFunc(out.String(), func(r rune) bool { return r == 0 || r == ' ' || r == '\t' || r == '\n' }) {
		items = append(items, word{text: f})
	}
	return items, len(items) > 0
}

// formatOnce applies format once to args, writing to out, and reports
// how many arguments it used. Conversions take the argument's text as it
// is (a width or precision is ignored); printf's escapes are understood
// (\n, \t, \\, \xHH, \NNN octal and the other letters).
func formatOnce(out *strings.Builder, format string, args []word) (used int, ok bool) {
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '\\' && i+1 < len(format):
			i++
			switch format[i] {
			case 'n':
				out.WriteByte('\n')
			case 't':
				out.WriteByte('\t')
			case '\\':
				out.WriteByte('\\')
			case 'a', 'b', 'f', 'r', 'v':
				out.WriteByte(map[byte]byte{'a': 7, 'b': 8, 'f': 12, 'r': 13, 'v': 11}[format[i]])
			case '"', '\'':
				out.WriteByte(format[i])
			case 'x':
				// \xHH: one or two hex digits, a byte ($(printf '\x63url') is curl).
				n, v := 0, 0
				for n < 2 && i+1 < len(format) && isHex(format[i+1]) {
					i++
					v = v*16 + hexVal(format[i])
					n++
				}
				if n == 0 {
					return 0, false
				}
				out.WriteByte(byte(v))
			case '0', '1', '2', '3', '4', '5', '6', '7':
				// \NNN and \0NNN: up to three octal digits.
				v, n := int(format[i]-'0'), 1
				if format[i] == '0' {
					v, n = 0, 0
				}
				for n < 3 && i+1 < len(format) && format[i+1] >= '0' && format[i+1] <= '7' {
					i++
					v = v*8 + int(format[i]-'0')
					n++
				}
				out.WriteByte(byte(v))
			default:
				return 0, false
			}
		case c == '%' && i+1 < len(format) && format[i+1] == '%':
			i++
			out.WriteByte('%')
		case c == '%':
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
				j++
			}
			if j >= len(format) || strings.IndexByte("sbqdiuc", format[j]) < 0 {
				return 0, false
			}
			if used < len(args) {
				out.WriteString(args[used].text)
				used++
			}
			i = j
		default:
			out.WriteByte(c)
		}
	}
	return used, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}
