package shell

import (
	"fmt"
	"os/user"
	"regexp"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word resolved as far as it can be without running
// anything.
type word struct {
	text    string // quotes removed and known variables expanded; dynamic parts kept as written
	dynamic bool   // depends on $VAR, $(...), arithmetic or an extended glob
	glob    bool   // has an unquoted *, ? or [
	quoted  bool   // some part was quoted ("-rf" quoted is still an option to rm, but not a glob)
	prefix  string // for a dynamic word, the text before its first dynamic part
	// re is, for a glob or dynamic word, a regular expression for what it
	// may stand for: globs as in a shell, each dynamic part as anything.
	// It is only kept while it may matter (see word.pattern).
	re string
	// suffixAt is where, in a dynamic word's text, the static text after
	// its last dynamic part starts ($D/credentials: at /credentials).
	suffixAt int
	// items are, for "$@", the words it stands for.
	items []word
	// gl is, for a glob word, its text with the glob characters that
	// were quoted escaped: what pathname expansion matches.
	gl string
	// unjudged is set on a glob pathname expansion could not finish;
	// matched on one that matched files, which follow it (globFields).
	unjudged *Unjudged
	matched  bool
}

// pattern reports whether wd's regular expression says more than its
// text: it has a glob or a dynamic part.
func (wd word) pattern() bool { return wd.glob || wd.dynamic }

// fields resolves a word after brace and pathname expansion: {a,b}
// gives two words, and with Env.Look a glob gives the files it matches
// (see globFields).
func (w *walker) fields(wd *syntax.Word, cwd string, vars map[string]word) []word {
	out := w.braceFields(wd, cwd, vars)
	if !w.env.Look {
		return out
	}
	for i := 0; i < len(out); i++ {
		if out[i].glob && !out[i].dynamic && out[i].items == nil {
			more := w.globFields(out[i], cwd)
			out = append(out[:i], append(more, out[i+1:]...)...)
			i += len(more) - 1
		}
	}
	return out
}

// globFields are the words a glob stands for: the glob itself, judged
// on its pattern as without Env.Look (and as the shell passes it on when
// it matches nothing), then the files it matches now, as the shell would
// pass them (relative when it was). A glob past the bounds is marked
// unjudged.
func (w *walker) globFields(wd word, cwd string) []word {
	ex := w.expandGlob(wd, cwd)
	if !ex.complete {
		wd.unjudged = &Unjudged{Kind: "glob", Root: ex.root, Why: ex.why}
	}
	if !w.spend(len(ex.matches), 0) {
		return []word{wd}
	}
	wd.matched = len(ex.matches) > 0
	out := []word{wd}
	seen := map[string]bool{}
	rel := !strings.HasPrefix(wd.text, "/")
	for _, m := range ex.matches {
		seen[m] = true
		t := m
		if rel {
			if r, ok := strings.CutPrefix(m, strings.TrimSuffix(cwd, "/")+"/"); ok {
				t = r
			}
		}
		out = append(out, word{text: t})
	}
	return out
}

// braceFields resolves a word after brace expansion: {a,b} gives two
// words. The expansion is counted before it is made, and made only within
// the budget: {1..9}{1..9}{1..9}{1..9}{1..9}{1..9} is refused, not built.
func (w *walker) braceFields(wd *syntax.Word, cwd string, vars map[string]word) []word {
	if hasBrace(wd) {
		cp := *wd
		if syntax.SplitBraces(&cp) {
			groups, n := braceCount(&cp)
			if groups > MaxBraceGroups {
				w.fail(fmt.Sprintf("a word has more than %d brace expansions", MaxBraceGroups))
				return []word{w.word(wd, cwd, vars)}
			}
			if !w.spend(n, n*(wordLen(wd)+groups)) {
				return []word{w.word(wd, cwd, vars)}
			}
			var out []word
			for x, err := range expand.BracesSeq(nil, &cp) {
				if err != nil { // past the library's own bound, beyond ours
					w.fail(err.Error())
					return []word{w.word(wd, cwd, vars)}
				}
				out = append(out, w.word(x, cwd, vars))
			}
			return out
		}
	}
	w.spend(1, 0)
	if split := w.split(wd, vars); split != nil {
		return split
	}
	if at := positionalAll(wd); at != "" {
		if v, ok := vars[at]; ok && v.items != nil && w.spend(len(v.items), 0) {
			return v.items
		}
	}
	return []word{w.word(wd, cwd, vars)}
}

// split is the words an unquoted $NAME alone splits into, when its value
// is known and holds separators (IFS, or space, tab and newline): with
// IFS=_ and cmd=cat_FILE, $cmd runs cat FILE.
func (w *walker) split(wd *syntax.Word, vars map[string]word) []word {
	if len(wd.Parts) != 1 {
		return nil
	}
	pe, ok := wd.Parts[0].(*syntax.ParamExp)
	if !ok || !simpleParam(pe) {
		return nil
	}
	v, ok := vars[pe.Param.Value]
	if !ok || v.dynamic {
		return nil
	}
	seps := " \t\n"
	if ifs, ok := vars["IFS"]; ok && !ifs.dynamic {
		seps = ifs.text
	}
	if seps == "" || !strings.ContainsAny(v.text, seps) {
		return nil
	}
	fs := strings.FieldsFunc(v.text, func(r rune) bool { return strings.ContainsRune(seps, r) })
	if !w.spend(len(fs), len(v.text)) {
		return nil
	}
	out := make([]word, len(fs))
	for i, f := range fs {
		out[i] = word{text: f, glob: hasGlob(f)}
		if out[i].glob {
			out[i].re = globRE(f)
		}
	}
	return out
}

// braceCount counts the brace expansions in a split word (nested ones
// included) and the words it expands to, saturating at MaxWords+1.
func braceCount(wd *syntax.Word) (groups, words int) {
	words = 1
	for _, part := range wd.Parts {
		br, ok := part.(*syntax.BraceExp)
		if !ok {
			continue
		}
		groups++
		n := 0
		if br.Sequence {
			n = seqLen(br)
		} else {
			for _, e := range br.Elems {
				g, m := braceCount(e)
				groups += g
				n = satAdd(n, m)
			}
		}
		words = satMul(words, n)
	}
	return groups, words
}

// seqLen is the length of {from..to[..step]}, saturated.
func seqLen(br *syntax.BraceExp) int {
	if len(br.Elems) < 2 {
		return 1
	}
	from, err1 := strconv.ParseInt(br.Elems[0].Lit(), 10, 64)
	to, err2 := strconv.ParseInt(br.Elems[1].Lit(), 10, 64)
	if err1 != nil || err2 != nil {
		a, b := br.Elems[0].Lit(), br.Elems[1].Lit()
		if a == "" || b == "" {
			return 1
		}
		from, to = int64(a[0]), int64(b[0])
	}
	step := int64(1)
	if len(br.Elems) > 2 {
		if n, err := strconv.ParseInt(br.Elems[2].Lit(), 10, 64); err == nil && n != 0 {
			step = n
		}
	}
	if step < 0 {
		step = -step
	}
	span := to - from
	if span < 0 {
		span = -span
	}
	if span < 0 || span/step >= MaxWords { // span < 0: overflow
		return MaxWords + 1
	}
	return int(span/step) + 1
}

func satAdd(a, b int) int { return min(a+b, MaxWords+1) }

func satMul(a, b int) int {
	if a != 0 && b > (MaxWords+1)/a {
		return MaxWords + 1
	}
	return min(a*b, MaxWords+1)
}

// wordLen is the length of a word's source text.
func wordLen(wd *syntax.Word) int {
	return int(wd.End().Offset()) - int(wd.Pos().Offset())
}

func hasBrace(wd *syntax.Word) bool {
	for _, p := range wd.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.ContainsRune(l.Value, '{') {
			return true
		}
	}
	return false
}

// word resolves one word; vars are the variables assigned earlier in
// the command line.
func (w *walker) word(wd *syntax.Word, cwd string, vars map[string]word) word {
	var out word
	var sb, re, gl strings.Builder
	for i, part := range wd.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				v = w.tilde(v, cwd, &out)
			}
			if hasGlob(v) {
				out.glob = true
			}
			sb.WriteString(unescape(v))
			re.WriteString(globRE(v))
			gl.WriteString(v)
		case *syntax.SglQuoted:
			out.quoted = true
			t := p.Value
			if p.Dollar {
				t = ansiC(p.Value)
			}
			sb.WriteString(t)
			re.WriteString(regexp.QuoteMeta(t))
			gl.WriteString(escapeGlob(t))
		case *syntax.DblQuoted:
			out.quoted = true
			for _, dp := range p.Parts {
				if l, ok := dp.(*syntax.Lit); ok {
					t := unescapeDouble(l.Value)
					sb.WriteString(t)
					re.WriteString(regexp.QuoteMeta(t))
					gl.WriteString(escapeGlob(t))
					continue
				}
				at := sb.Len()
				w.dynamicPart(dp, cwd, vars, &sb, &re, &out)
				gl.WriteString(escapeGlob(sb.String()[at:]))
			}
		default:
			at, wasGlob := sb.Len(), out.glob
			w.dynamicPart(part, cwd, vars, &sb, &re, &out)
			if t := sb.String()[at:]; out.glob && !wasGlob {
				gl.WriteString(t) // a variable holding a pattern, unquoted
			} else {
				gl.WriteString(escapeGlob(t))
			}
		}
	}
	out.text = sb.String()
	if out.pattern() {
		out.re = re.String()
	}
	if out.glob && !out.dynamic {
		out.gl = gl.String()
	}
	return out
}

// dynamicPart writes a parameter expansion, substitution or the like:
// the known variables by value (assigned earlier in the command line,
// then HOME, TMPDIR, PWD and Env.Vars), the rest as written, marked
// dynamic.
func (w *walker) dynamicPart(part syntax.WordPart, cwd string, vars map[string]word, sb, re *strings.Builder, out *word) {
	known := func(s string) {
		sb.WriteString(s)
		re.WriteString(regexp.QuoteMeta(s))
	}
	if pe, ok := part.(*syntax.ParamExp); ok && defaultedParam(pe) {
		if v, ok := w.defaulted(pe, cwd, vars); ok {
			known(v)
			return
		}
	}
	if pe, ok := part.(*syntax.ParamExp); ok && simpleParam(pe) {
		name := pe.Param.Value
		if v, ok := vars[name]; ok {
			if !w.spend(0, 2*len(v.text)+len(v.re)) {
				markDynamic(sb, out, "")
				re.WriteString(".*")
				return
			}
			if v.dynamic {
				markDynamic(sb, out, v.prefix)
			}
			out.glob = out.glob || v.glob
			sb.WriteString(v.text)
			if v.dynamic {
				out.suffixAt = sb.Len() - (len(v.text) - v.suffixAt)
			}
			if v.pattern() {
				re.WriteString(v.re)
			} else {
				re.WriteString(regexp.QuoteMeta(v.text))
			}
			return
		}
		switch name {
		case "HOME":
			known(w.env.Home)
			return
		case "TMPDIR", "TMP", "TEMP":
			known(w.env.Temp)
			return
		case "PWD":
			known(cwd)
			return
		}
		if v, ok := w.env.Vars[name]; ok && v != "" {
			known(v)
			return
		}
	}
	// A substitution of a command that prints its own operands
	// ($(realpath X), `echo X`) is X.
	if cs, ok := part.(*syntax.CmdSubst); ok {
		if items, ok := w.printed(cs.Stmts, cwd, vars); ok && len(items) > 0 {
			for i, it := range items {
				if i > 0 {
					sb.WriteByte(' ')
					re.WriteByte(' ')
				}
				if it.dynamic {
					markDynamic(sb, out, it.prefix)
				}
				out.glob = out.glob || it.glob
				sb.WriteString(it.text)
				if it.dynamic {
					out.suffixAt = sb.Len() - (len(it.text) - it.suffixAt)
				}
				if it.pattern() {
					re.WriteString(it.re)
				} else {
					re.WriteString(regexp.QuoteMeta(it.text))
				}
			}
			return
		}
	}
	markDynamic(sb, out, "")
	re.WriteString(".*")
	if _, ok := part.(*syntax.ExtGlob); ok {
		out.glob = true
	}
	// Kept as written: a substitution nested n deep would be printed n
	// times, so the printing is charged to the budget.
	if !w.spend(0, int(part.End().Offset())-int(part.Pos().Offset())) {
		sb.WriteString("$(...)")
		out.suffixAt = sb.Len()
		return
	}
	syntax.NewPrinter().Print(sb, part)
	out.suffixAt = sb.Len()
}

// markDynamic marks out dynamic from this point on; the first time, the
// text so far (and what a dynamic variable's own value starts with) is
// its static prefix.
func markDynamic(sb *strings.Builder, out *word, more string) {
	if !out.dynamic {
		out.prefix = sb.String() + more
	}
	out.dynamic = true
}

// simpleParam reports whether pe is just $NAME or ${NAME}.
// defaultedParam reports whether pe is ${NAME:-word}, ${NAME-word},
// ${NAME:?word} or ${NAME?word} and nothing more.
func defaultedParam(pe *syntax.ParamExp) bool {
	if pe.Exp == nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
	default:
		return false
	}
	plain := *pe
	plain.Exp = nil
	return simpleParam(&plain)
}

// defaulted is the value of ${NAME:-word} and the like when it is known
// whichever way the shell goes: NAME is set to a known value (assigned
// earlier in the command line, HOME, PWD), so the default is not used;
// or NAME is the temp folder's variable and the default is a temp
// folder too, so either way it is a temp folder. ${NAME:?} fails rather
// than use anything else, so NAME's known value is its value. Anything
// else stays unknown: ${TMPDIR:-$HOME} may be HOME.
func (w *walker) defaulted(pe *syntax.ParamExp, cwd string, vars map[string]word) (string, bool) {
	name := pe.Param.Value
	if v, ok := vars[name]; ok {
		if v.dynamic || v.glob || v.text == "" {
			return "", false
		}
		return v.text, true
	}
	switch name {
	case "HOME":
		return w.env.Home, w.env.Home != ""
	case "PWD":
		return cwd, cwd != ""
	case "TMPDIR", "TMP", "TEMP":
		if pe.Exp.Op == syntax.ErrorUnset || pe.Exp.Op == syntax.ErrorUnsetOrNull {
			return w.env.Temp, true
		}
		if pe.Exp.Word == nil {
			return "", false
		}
		switch strings.TrimSuffix(pe.Exp.Word.Lit(), "/") {
		case "/tmp", "/var/tmp", "/private/tmp", strings.TrimSuffix(w.env.Temp, "/"):
			return w.env.Temp, true
		}
	}
	return "", false
}

func simpleParam(pe *syntax.ParamExp) bool {
	return pe.Param != nil && pe.Flags == nil && !pe.Excl && !pe.Length && !pe.Width && !pe.IsSet &&
		pe.NestedParam == nil && pe.Index == nil && len(pe.Modifiers) == 0 &&
		pe.Slice == nil && pe.Repl == nil && pe.Names == 0 && pe.Exp == nil
}

// tilde expands a leading ~, ~user or ~+ in an unquoted literal.
func (w *walker) tilde(v, cwd string, out *word) string {
	name, rest, _ := strings.Cut(v[1:], "/")
	if rest != "" || strings.HasSuffix(v, "/") {
		rest = "/" + rest
	}
	switch name {
	case "":
		if w.env.Home == "" {
			return v
		}
		return w.env.Home + rest
	case "+":
		return cwd + rest
	case "-":
		out.dynamic = true
		return v
	}
	if u, err := user.Lookup(name); err == nil {
		return u.HomeDir + rest
	}
	return v
}

// hasGlob reports an unescaped *, ? or [ in an unquoted literal.
func hasGlob(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// unescape removes the backslashes of an unquoted literal: \x is x and a
// backslash-newline is nothing.
func unescape(v string) string {
	return removeBackslashes(v, func(byte) bool { return true })
}

// unescapeDouble removes the backslashes that mean something inside
// double quotes: before $ ` " \ and newline.
func unescapeDouble(v string) string {
	return removeBackslashes(v, func(c byte) bool { return strings.IndexByte("$`\"\\\n", c) >= 0 })
}

// removeBackslashes drops each backslash before a character escapable
// says it escapes; a backslash-newline goes altogether.
func removeBackslashes(v string, escapable func(byte) bool) string {
	if !strings.ContainsRune(v, '\\') {
		return v
	}
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && escapable(v[i+1]) {
			i++
			if v[i] == '\n' {
				continue
			}
		}
		sb.WriteByte(v[i])
	}
	return sb.String()
}

// ansiC decodes the escapes of a $'...' string.
func ansiC(v string) string {
	if !strings.ContainsRune(v, '\\') {
		return v
	}
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' || i+1 >= len(v) {
			sb.WriteByte(v[i])
			continue
		}
		i++
		switch c := v[i]; c {
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case 'r':
			sb.WriteByte('\r')
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'x':
			j := i + 1
			for j < len(v) && j < i+3 && strings.IndexByte("0123456789abcdefABCDEF", v[j]) >= 0 {
				j++
			}
			if n, err := strconv.ParseUint(v[i+1:j], 16, 8); err == nil {
				sb.WriteByte(byte(n))
				i = j - 1
			} else {
				sb.WriteString(`\x`)
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(v) && j < i+3 && v[j] >= '0' && v[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(v[i:j], 8, 8)
			sb.WriteByte(byte(n))
			i = j - 1
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// positionalAll is "@" or "*" for a word that is only $@ or $* (quoted
// or not), else "".
func positionalAll(wd *syntax.Word) string {
	parts := wd.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return ""
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	if !ok || !simpleParam(pe) || (pe.Param.Value != "@" && pe.Param.Value != "*") {
		return ""
	}
	return pe.Param.Value
}
