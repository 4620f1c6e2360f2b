// Package sedit computes what a sed script does to a file's text, for
// the scripts whose effect the command line fixes: `sed -i '1a TEXT'`,
// `i`, `c`, `d`, `s/RE/REPL/FLAGS` and `y`, with line-number, `$` and
// /RE/ addresses and ranges. A written file is judged on the text it is
// left with (internal/input), so `sed -i '1a curl … | sh' setup.sh` is
// judged as the Edit that adds the same line.
//
// What sed can do but this package does not follow (branches, the hold
// space, reading or writing other files, running commands, GNU's case
// conversions) makes Apply refuse; Inserted then gives the text the
// script would put in the file, for the caller to judge as added.
package sedit

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// ErrUnsupported is returned for a script this package does not follow.
var ErrUnsupported = errors.New("sed script not followed")

// Bounds keep one script's cost small.
const (
	maxCommands = 64
	maxOutput   = 1 << 20
)

// Script is a parsed sed script.
type Script struct {
	cmds []command
	// texts are the a/i/c texts and s replacements, for Inserted.
	texts []string
	// unsupported is set when a command is not followed.
	unsupported bool
}

type address struct {
	kind byte // 0 none, 'n' line, '$' last, '/' regexp
	line int
	re   *regexp.Regexp
}

type command struct {
	from, to address // to.kind != 0 for a range
	negate   bool
	name     byte // a i c d s y
	text     string
	re       *regexp.Regexp
	repl     string
	global   bool
	nth      int
	print    bool
	from2    string // y
	to2      string
	inRange  bool // range state
}

// Parse reads script, its regular expressions extended when ere is set
// (-E, -r).
func Parse(script string, ere bool) *Script {
	s := &Script{}
	p := &parser{src: script, ere: ere}
	for {
		p.skip(" \t\n;")
		if p.done() {
			break
		}
		if len(s.cmds) == maxCommands {
			s.unsupported = true
			break
		}
		c, err := p.command()
		if c.text != "" {
			s.texts = append(s.texts, c.text)
		}
		if c.name == 's' && c.repl != "" {
			s.texts = append(s.texts, c.repl)
		}
		if err != nil {
			s.unsupported = true
			// Keep reading a/i/c texts after the first unsupported
			// command: Inserted reports what the script adds.
			if !p.recover() {
				break
			}
			continue
		}
		s.cmds = append(s.cmds, c)
	}
	return s
}

// Inserted is the text the script's a, i and c commands and s
// replacements put into a file, one per line: what a script that Apply
// does not follow may add.
func (s *Script) Inserted() string {
	if len(s.texts) == 0 {
		return ""
	}
	return strings.ReplaceAll(strings.Join(s.texts, "\n"), "\x00", "") + "\n"
}

// Apply is the text sed leaves of text, or ErrUnsupported. quiet is -n.
func (s *Script) Apply(text string, quiet bool) (string, error) {
	if s.unsupported {
		return "", ErrUnsupported
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	cmds := make([]command, len(s.cmds))
	copy(cmds, s.cmds)
	var out strings.Builder
	emit := func(t string) {
		out.WriteString(t)
		if !strings.HasSuffix(t, "\n") {
			out.WriteString("\n")
		}
	}
	for n, raw := range lines {
		last := n == len(lines)-1
		space := strings.TrimSuffix(raw, "\n")
		var after []string
		deleted := false
		for i := range cmds {
			c := &cmds[i]
			if !c.matches(n+1, last, space) {
				continue
			}
			switch c.name {
			case 'a':
				after = append(after, c.text)
			case 'i':
				emit(c.text)
			case 'c':
				// In a range the text replaces the range, once, at its end.
				if c.to.kind == 0 || !c.inRange || c.negate {
					emit(c.text)
				}
				deleted = true
			case 'd':
				deleted = true
			case 's':
				var printed bool
				space, printed = c.substitute(space)
				if printed && c.print {
					emit(space)
				}
			case 'y':
				space = c.transliterate(space)
			}
			if deleted {
				break
			}
		}
		if !deleted && !quiet {
			emit(space)
		}
		for _, t := range after {
			emit(t)
		}
		if out.Len() > maxOutput {
			return "", ErrUnsupported
		}
	}
	return out.String(), nil
}

func (c *command) matches(n int, last bool, space string) bool {
	m := c.match(n, last, space)
	if c.negate {
		return !m
	}
	return m
}

func (c *command) match(n int, last bool, space string) bool {
	if c.from.kind == 0 {
		return true
	}
	if c.to.kind == 0 {
		return c.from.hit(n, last, space)
	}
	if !c.inRange {
		if !c.from.hit(n, last, space) {
			return false
		}
		c.inRange = true
		// A line-number end at or before the start closes the range at once.
		if c.to.kind == 'n' && c.to.line <= n {
			c.inRange = false
		}
		return true
	}
	if c.to.hit(n, last, space) || (c.to.kind == 'n' && n >= c.to.line) {
		c.inRange = false
	}
	return true
}

func (a address) hit(n int, last bool, space string) bool {
	switch a.kind {
	case 'n':
		return n == a.line
	case '$':
		return last
	case '/':
		return a.re.MatchString(space)
	}
	return false
}

func (c *command) substitute(space string) (string, bool) {
	locs := c.re.FindAllStringSubmatchIndex(space, -1)
	if len(locs) == 0 {
		return space, false
	}
	var b strings.Builder
	prev, done := 0, false
	for i, loc := range locs {
		if done || (c.nth > 0 && i+1 < c.nth) {
			continue
		}
		b.WriteString(space[prev:loc[0]])
		b.WriteString(expand(c.repl, space, loc))
		prev = loc[1]
		if !c.global {
			done = true
		}
	}
	if c.nth > 0 && len(locs) < c.nth {
		return space, false
	}
	b.WriteString(space[prev:])
	return b.String(), true
}

// expand writes repl with & and \1..\9 replaced by the match's parts
// (the parser has already turned \n, \& and \\ into \x00-marked forms).
func expand(repl, space string, loc []int) string {
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		ch := repl[i]
		switch {
		case ch == '&':
			b.WriteString(space[loc[0]:loc[1]])
		case ch == 0 && i+1 < len(repl):
			i++
			k := repl[i]
			if k >= '1' && k <= '9' {
				g := int(k - '0')
				if 2*g+1 < len(loc) && loc[2*g] >= 0 {
					b.WriteString(space[loc[2*g]:loc[2*g+1]])
				}
			} else {
				b.WriteByte(k)
			}
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

func (c *command) transliterate(space string) string {
	from, to := []rune(c.from2), []rune(c.to2)
	return strings.Map(func(r rune) rune {
		for i, f := range from {
			if f == r {
				return to[i]
			}
		}
		return r
	}, space)
}

type parser struct {
	src string
	pos int
	ere bool
}

func (p *parser) done() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.done() {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) skip(set string) {
	for !p.done() && strings.IndexByte(set, p.src[p.pos]) >= 0 {
		p.pos++
	}
}

// recover moves past the rest of an unsupported command's line.
func (p *parser) recover() bool {
	i := strings.IndexByte(p.src[p.pos:], '\n')
	if i < 0 {
		p.pos = len(p.src)
		return false
	}
	p.pos += i + 1
	return true
}

func (p *parser) command() (command, error) {
	var c command
	var err error
	if c.from, err = p.address(); err != nil {
		return c, err
	}
	if c.from.kind != 0 && p.peek() == ',' {
		p.pos++
		if c.to, err = p.address(); err != nil || c.to.kind == 0 {
			return c, ErrUnsupported
		}
	}
	p.skip(" \t")
	if p.peek() == '!' {
		c.negate = true
		p.pos++
		p.skip(" \t")
	}
	if p.done() {
		return c, ErrUnsupported
	}
	c.name = p.src[p.pos]
	p.pos++
	switch c.name {
	case 'a', 'i', 'c':
		c.text = p.text()
		return c, nil
	case 'd':
		return c, p.end()
	case 's':
		return c, p.substitution(&c)
	case 'y':
		return c, p.transliteration(&c)
	}
	return c, ErrUnsupported
}

// end checks that a command is followed by nothing else on its line.
func (p *parser) end() error {
	p.skip(" \t")
	if p.done() || p.peek() == ';' || p.peek() == '\n' {
		return nil
	}
	return ErrUnsupported
}

func (p *parser) address() (address, error) {
	switch ch := p.peek(); {
	case ch >= '0' && ch <= '9':
		start := p.pos
		for !p.done() && p.peek() >= '0' && p.peek() <= '9' {
			p.pos++
		}
		n, _ := strconv.Atoi(p.src[start:p.pos])
		if n == 0 || p.peek() == '~' {
			return address{}, ErrUnsupported // GNU's 0,/re/ and first~step
		}
		return address{kind: 'n', line: n}, nil
	case ch == '$':
		p.pos++
		return address{kind: '$'}, nil
	case ch == '/':
		p.pos++
		src, ok := p.delimited('/')
		if !ok {
			return address{}, ErrUnsupported
		}
		if p.peek() == 'I' || p.peek() == 'M' {
			return address{}, ErrUnsupported
		}
		re, err := compile(src, p.ere, false)
		if err != nil {
			return address{}, ErrUnsupported
		}
		return address{kind: '/', re: re}, nil
	case ch == '\\':
		return address{}, ErrUnsupported // \cREc
	}
	return address{}, nil
}

// text reads an a, i or c command's text: GNU's one-line form (`a TEXT`,
// to the end of the line) or POSIX's (`a\` then lines ending in \).
func (p *parser) text() string {
	p.skip(" \t")
	if strings.HasPrefix(p.src[p.pos:], "\\\n") {
		p.pos += 2
	} else if p.peek() == '\\' {
		p.pos++ // a\TEXT
	}
	var b strings.Builder
	for !p.done() {
		ch := p.src[p.pos]
		p.pos++
		switch {
		case ch == '\\' && !p.done():
			next := p.src[p.pos]
			p.pos++
			if next == 't' {
				b.WriteByte('\t')
			} else {
				b.WriteByte(next) // \<newline> continues the text
			}
		case ch == '\n':
			return b.String()
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// delimited reads to the next unescaped delim, keeping escapes (a
// regular expression's), with \delim and \n resolved.
func (p *parser) delimited(delim byte) (string, bool) {
	var b strings.Builder
	inBracket := false
	for !p.done() {
		ch := p.src[p.pos]
		p.pos++
		switch {
		case ch == '\\' && !p.done():
			next := p.src[p.pos]
			p.pos++
			switch {
			case next == delim && delim != '&':
				b.WriteByte(delim)
			case next == 'n':
				b.WriteString("\\n")
			default:
				b.WriteByte('\\')
				b.WriteByte(next)
			}
		case ch == '[' && !inBracket:
			inBracket = true
			b.WriteByte(ch)
			// ] first in a bracket is a member.
			if strings.HasPrefix(p.src[p.pos:], "^]") {
				b.WriteString("^]")
				p.pos += 2
			} else if p.peek() == ']' {
				b.WriteByte(']')
				p.pos++
			}
		case ch == ']' && inBracket:
			inBracket = false
			b.WriteByte(ch)
		case ch == delim && !inBracket:
			return b.String(), true
		case ch == '\n':
			return "", false
		default:
			b.WriteByte(ch)
		}
	}
	return "", false
}

func (p *parser) substitution(c *command) error {
	if p.done() || p.peek() == '\\' || p.peek() == '\n' {
		return ErrUnsupported
	}
	delim := p.src[p.pos]
	p.pos++
	src, ok := p.delimited(delim)
	if !ok {
		return ErrUnsupported
	}
	repl, ok := p.replacement(delim)
	if !ok {
		return ErrUnsupported
	}
	c.repl = repl
	fold := false
	for !p.done() && !strings.ContainsRune(" \t;\n}", rune(p.peek())) {
		ch := p.src[p.pos]
		p.pos++
		switch {
		case ch == 'g':
			c.global = true
		case ch == 'p':
			c.print = true
		case ch == 'i' || ch == 'I':
			fold = true
		case ch >= '0' && ch <= '9':
			c.nth = c.nth*10 + int(ch-'0')
		default:
			return ErrUnsupported // w FILE, e, m
		}
	}
	re, err := compile(src, p.ere, fold)
	if err != nil {
		return ErrUnsupported
	}
	c.re = re
	return p.end()
}

// replacement reads an s command's replacement: & and \1..\9 stay for
// expand (marked with a \x00 before the digit), other escapes resolve.
func (p *parser) replacement(delim byte) (string, bool) {
	var b strings.Builder
	for !p.done() {
		ch := p.src[p.pos]
		p.pos++
		switch {
		case ch == '\\' && !p.done():
			next := p.src[p.pos]
			p.pos++
			switch {
			case next >= '1' && next <= '9':
				b.WriteByte(0)
				b.WriteByte(next)
			case next == '&' || next == '\\':
				b.WriteByte(0)
				b.WriteByte(next)
			case next == 'n' || next == '\n':
				b.WriteByte('\n')
			case next == 't':
				b.WriteByte('\t')
			case strings.IndexByte("LUElu", next) >= 0:
				return "", false // GNU case conversion
			default:
				b.WriteByte(next)
			}
		case ch == delim:
			return b.String(), true
		case ch == '\n':
			return "", false
		default:
			b.WriteByte(ch)
		}
	}
	return "", false
}

func (p *parser) transliteration(c *command) error {
	if p.done() {
		return ErrUnsupported
	}
	delim := p.src[p.pos]
	p.pos++
	from, ok1 := p.replacement(delim)
	to, ok2 := p.replacement(delim)
	if !ok1 || !ok2 || strings.ContainsRune(from+to, 0) || len([]rune(from)) != len([]rune(to)) {
		return ErrUnsupported
	}
	c.from2, c.to2 = from, to
	return p.end()
}

// compile turns a POSIX basic (or, with ere, extended) regular
// expression into Go's, matching leftmost-longest as sed does.
func compile(src string, ere, fold bool) (*regexp.Regexp, error) {
	var b strings.Builder
	if fold {
		b.WriteString("(?i)")
	}
	for i := 0; i < len(src); i++ {
		ch := src[i]
		switch {
		case ch == '[':
			j := bracketEnd(src, i)
			if j < 0 {
				return nil, ErrUnsupported
			}
			// A backslash is a member of a POSIX bracket, an escape in Go's.
			b.WriteString(strings.ReplaceAll(src[i:j+1], `\`, `\\`))
			i = j
		case ch == '\\' && i+1 < len(src):
			i++
			next := src[i]
			switch {
			case !ere && strings.IndexByte("(){}+?|", next) >= 0:
				b.WriteByte(next) // BRE's \( is a group
			case next == '<' || next == '>':
				b.WriteString(`\b`)
			case next == 'n':
				b.WriteString(`\n`)
			case next == 't':
				b.WriteString(`\t`)
			case strings.IndexByte("wWsSb", next) >= 0:
				b.WriteByte('\\')
				b.WriteByte(next)
			case next >= '1' && next <= '9':
				return nil, ErrUnsupported // back-references
			default:
				b.WriteString(regexp.QuoteMeta(string(next)))
			}
		case !ere && strings.IndexByte("(){}+?|", ch) >= 0:
			b.WriteByte('\\')
			b.WriteByte(ch) // BRE's ( is itself
		case ch == '*' && (i == 0 || (!ere && strings.HasSuffix(src[:i], `\(`))):
			b.WriteString(`\*`) // a leading * is itself
		default:
			b.WriteByte(ch)
		}
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, err
	}
	re.Longest()
	return re, nil
}

// bracketEnd is the index of the ] closing the bracket at src[i], or -1.
func bracketEnd(src string, i int) int {
	j := i + 1
	if j < len(src) && src[j] == '^' {
		j++
	}
	if j < len(src) && src[j] == ']' {
		j++
	}
	for ; j < len(src); j++ {
		if src[j] == '[' && j+1 < len(src) && strings.IndexByte(":.=", src[j+1]) >= 0 {
			end := strings.Index(src[j+2:], string(src[j+1])+"]")
			if end < 0 {
				return -1
			}
			j += 2 + end + 1
			continue
		}
		if src[j] == ']' {
			return j
		}
	}
	return -1
}
