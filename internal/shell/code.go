package shell

import (
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/agentjail/agentjail/internal/codeview"
)

// CodeRoles are regular expressions, from the policy pack, for what an
// interpreter's code string (python -c, node -e, an awk program, a
// here-document fed to python3) does with the paths and commands in it.
// Each is one API written as a regular expression: "os\\.remove".
type CodeRoles struct {
	// Home are expressions that give the home directory
	// (os.homedir(), Path.home(), getenv("HOME")): a string joined to one
	// is a path in it.
	Home []string `json:"home"`
	// Delete and DeleteTree are calls that delete the path in their first
	// argument, the second recursively (os.remove, shutil.rmtree).
	Delete     []string `json:"delete"`
	DeleteTree []string `json:"delete_tree"`
	// Shell are calls whose first string argument is a command line
	// (os.system, execSync, awk's system); Argv are calls whose first
	// argument is a list of words (subprocess.run([...])).
	Shell []string `json:"shell"`
	Argv  []string `json:"argv"`
	// Kill are calls that signal a process (os.kill, process.kill).
	Kill []string `json:"kill"`
	// Write are calls that write the file in their first argument
	// (fs.writeFileSync, File.write, file_put_contents); WriteArg are
	// whole expressions of what stands before a file written
	// (shutil.copy(src, , perl's open(F, ">>", , awk's print ... >).
	Write    []string `json:"write"`
	WriteArg []string `json:"write_arg"`
	// Open are calls that open the file in their first argument; it is
	// written when one of OpenMode matches what follows it (, 'a').
	// WriteAfter are what follows a file to write it whatever stands
	// before (Path(...).write_text). WritePrefix are starts of a string
	// that open the file named by the rest for writing (perl's ">>FILE").
	Open        []string `json:"open"`
	OpenMode    []string `json:"open_mode"`
	WriteAfter  []string `json:"write_after"`
	WritePrefix []string `json:"write_prefix"`
}

type compiledCode struct {
	home, del, delTree, shell, argv, kill               *regexp.Regexp
	write, writeArg, open, openMode, after, writePrefix *regexp.Regexp
}

// anyOf joins alternatives into one expression; nil when there are none
// or they do not compile (a bad row in a user's table disables only its
// own category).
func anyOf(alts []string, suffix string) *regexp.Regexp {
	if len(alts) == 0 {
		return nil
	}
	re, err := regexp.Compile(`(?:` + strings.Join(alts, "|") + `)` + suffix)
	if err != nil {
		return nil
	}
	return re
}

// callOpen is what stands between a call's name and its first argument:
// the parenthesis and any calls that wrap the argument
// (shutil.rmtree(os.path.join(...).
const callOpen = `\s*\(\s*(?:[\w.$:]+\s*\(\s*)*$`

func (c CodeRoles) compile() compiledCode {
	return compiledCode{
		home:        anyOf(c.Home, ""),
		del:         anyOf(c.Delete, callOpen),
		delTree:     anyOf(c.DeleteTree, callOpen),
		shell:       anyOf(c.Shell, `\s*\(?\s*$`),
		argv:        anyOf(c.Argv, `\s*\(\s*\[`),
		kill:        anyOf(c.Kill, `\s*\(\s*`),
		write:       anyOf(c.Write, callOpen),
		writeArg:    anyOf(c.WriteArg, `\s*(?:[\w.$:]+\s*\(\s*)*$`),
		open:        anyOf(c.Open, callOpen),
		openMode:    anyOf(prefixed(c.OpenMode), ""),
		after:       anyOf(prefixed(c.WriteAfter), ""),
		writePrefix: anyOf(prefixed(c.WritePrefix), ""),
	}
}

// prefixed anchors each alternative at the start of the text it is
// matched against.
func prefixed(alts []string) []string {
	out := make([]string, len(alts))
	for i, a := range alts {
		out[i] = `^(?:` + a + `)`
	}
	return out
}

// writes reports whether code writes the file whose expression stands
// between start and end.
func (cc compiledCode) writes(code string, p codePath) bool {
	if p.write {
		return true
	}
	before, after := window(code, p.start), code[p.end:min(len(code), p.end+160)]
	switch {
	case cc.write != nil && cc.write.MatchString(before),
		cc.writeArg != nil && cc.writeArg.MatchString(before),
		cc.after != nil && cc.after.MatchString(after):
		return true
	}
	return cc.open != nil && cc.openMode != nil && cc.open.MatchString(before) && cc.openMode.MatchString(after)
}

// homeMark stands for a home-directory expression while code is scanned.
const homeMark = "\x01"

var (
	codeLiteral = regexp.MustCompile(`'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|` + "`((?:[^`\\\\\\n]|\\\\.)*)`" + `|\x01`)
	// joiner is what joins path pieces: + . / , and the calls and
	// parentheses around them.
	joiner = regexp.MustCompile(`^[\s)]*(?:\+|\.|/|,|\.\.|<<)?[\s(]*(?:(?:os\.path\.|path\.|File\.|Path\()?join\(\s*|joinpath\(\s*|resolve\(\s*)?$`)
	// homeAlias is a variable given the home directory (d =
	// os.environ['HOME']), which then stands for it.
	homeAlias   = regexp.MustCompile(`(?:\b(?:const|let|var|my|local)\s+)?([$]?[A-Za-z_]\w*)\s*:?=\s*\x01`)
	braceAround = regexp.MustCompile(`(?:#|\$)?\{\s*\x01\s*\}`)
)

// codePath is a path found in code, where its expression starts and
// ends, and whether its own text opens it for writing (">>FILE").
type codePath struct {
	path       string
	start, end int
	write      bool
}

// scanCode reads an interpreter's code string: the paths it names become
// cmd's paths, its deletions and kills become rm and kill commands, and
// the command lines it runs are parsed as Bash. via names the code's
// program ("python3 -c").
func (w *walker) scanCode(cmd *Command, code, via string, sc *scope) {
	r := w.env.Roles
	if r == nil || code == "" || !w.spend(0, 2*len(code)) {
		return
	}
	// The view repeats calls the code spells plainly: what both run is
	// one command.
	defer w.dropRepeats(len(w.out))
	// The parsed view of the code's calls is read with the code: the
	// tables below match a call's usual spelling (codeview).
	if view := codeview.For(cmd.Name, code); view != "" {
		cmd.CodeView = append(cmd.CodeView, view)
		code += "\n" + view
	}
	cc := r.code
	marked := code
	if cc.home != nil {
		marked = cc.home.ReplaceAllString(code, homeMark)
		marked = braceAround.ReplaceAllString(marked, homeMark)
		// A few variables that hold the home directory stand for it.
		for n := 0; n < 4; n++ {
			m := homeAlias.FindStringSubmatchIndex(marked)
			if m == nil {
				break
			}
			use, err := regexp.Compile(`(^|[^\w$.])` + regexp.QuoteMeta(marked[m[2]:m[3]]) + `\b([^\w=(]|$)`)
			if err != nil {
				break
			}
			// Uses after the assignment; the assignment itself is spent.
			marked = marked[:m[0]] + use.ReplaceAllString(marked[m[1]:], "${1}"+homeMark+"${2}")
		}
	}
	paths := codePaths(marked, cc.writePrefix)
	home := w.env.Home
	expand := func(s string) string { return strings.ReplaceAll(s, homeMark, home) }
	for _, p := range paths {
		abs := p.path
		if strings.HasPrefix(abs, homeMark) {
			abs = home + abs[len(homeMark):]
		} else if abs == "~" || strings.HasPrefix(abs, "~/") {
			abs = home + abs[1:]
		}
		if strings.Contains(abs, homeMark) || !strings.HasPrefix(abs, "/") {
			continue
		}
		abs = w.abs(abs, cmd.Cwd)
		before := window(marked, p.start)
		switch {
		case cc.delTree != nil && cc.delTree.MatchString(before):
			w.codeCommand(Command{Name: "rm", Program: "rm", Args: []string{"-rf", abs}, Flags: []string{"r", "f"}, Operands: []string{abs}, Paths: []string{abs}, Cwd: cmd.Cwd}, via, sc)
		case cc.del != nil && cc.del.MatchString(before):
			w.codeCommand(Command{Name: "rm", Program: "rm", Args: []string{"-f", abs}, Flags: []string{"f"}, Operands: []string{abs}, Paths: []string{abs}, Cwd: cmd.Cwd}, via, sc)
		default:
			// The view may name a path the code names too.
			if !slices.Contains(cmd.Paths, abs) {
				cmd.Paths = append(cmd.Paths, abs)
			}
			if cc.writes(marked, p) && !slices.Contains(cmd.codeWrites, abs) {
				cmd.codeWrites = append(cmd.codeWrites, abs)
			}
		}
	}
	backticksRun := backtickShell[cmd.Name]
	for _, m := range codeLiteral.FindAllStringSubmatchIndex(marked, -1) {
		if isHomeToken(m) {
			continue
		}
		lit := concatenated(marked, m)
		switch {
		case cc.shell != nil && cc.shell.MatchString(window(marked, m[0])):
			w.lenient(expand(lit), w.sub(sc, cmd.Cwd), via, sc.depth+1)
		case shellDashC.MatchString(window(marked, m[0])):
			// A shell given -c and this literal, in any language's argv:
			// exec "bash", "-c", CMD; spawn('sh', ['-c', CMD]).
			w.lenient(expand(lit), w.sub(sc, cmd.Cwd), via, sc.depth+1)
		case backticksRun && m[6] >= 0:
			// Ruby's, Perl's and PHP's backticks run their text.
			w.lenient(expand(lit), w.sub(sc, cmd.Cwd), via, sc.depth+1)
		}
	}
	if cc.argv != nil {
		for _, m := range cc.argv.FindAllStringIndex(marked, -1) {
			end := strings.IndexByte(marked[m[1]:], ']')
			if end < 0 {
				continue
			}
			var argv []string
			for _, lm := range codeLiteral.FindAllStringSubmatchIndex(marked[m[1]:m[1]+end], -1) {
				if isHomeToken(lm) {
					argv = append(argv, home)
					continue
				}
				argv = append(argv, expand(literalText(marked[m[1]:], lm)))
			}
			if len(argv) > 0 {
				w.lenient(joinArgvQuoted(argv), w.sub(sc, cmd.Cwd), via, sc.depth+1)
			}
		}
	}
	if cc.kill != nil {
		for _, m := range cc.kill.FindAllStringIndex(marked, -1) {
			rest := marked[m[1]:]
			end := strings.IndexAny(rest, ",)")
			if end < 0 {
				continue
			}
			pid := strings.TrimSpace(rest[:end])
			w.codeCommand(Command{Name: "kill", Program: "kill", Args: []string{pid}, Operands: []string{pid}, Cwd: cmd.Cwd, Dynamic: !isNumber(pid)}, via, sc)
		}
	}
}

// readPrefix opens the file named by the rest of a string for reading.
var readPrefix = regexp.MustCompile(`^<\s*`)

// dropRepeats removes from the commands emitted since start those equal
// to one before them.
func (w *walker) dropRepeats(start int) {
	if start >= len(w.out) {
		return
	}
	kept := w.out[:start]
	for _, c := range w.out[start:] {
		if !slices.ContainsFunc(kept[start:], func(k Command) bool { return reflect.DeepEqual(k, c) }) {
			kept = append(kept, c)
		}
	}
	w.out = kept
}

// concat is what joins two strings into one in the common languages.
var concat = regexp.MustCompile(`^\s*(?:\+|\.|\.\.|<<)\s*$`)

// concatenated is the literal at m with the literals and home marks
// joined to it: "rm -rf " + ENV["HOME"] is one command line.
func concatenated(code string, m []int) string {
	text := literalText(code, m)
	end := m[1]
	for _, next := range codeLiteral.FindAllStringSubmatchIndex(code[end:], 8) {
		if !concat.MatchString(code[end : end+next[0]]) {
			break
		}
		if isHomeToken(next) {
			text += homeMark
		} else {
			text += literalText(code[end:], next)
		}
		end += next[1]
	}
	return text
}

// lenient parses a string that code may run as a command line: one that
// does not parse as Bash is taken to be something else, not a reason to
// give up on the whole command (bounds still hold).
func (w *walker) lenient(src string, sc scope, via string, depth int) {
	before := w.err
	w.script(src, sc, via, depth)
	if before == "" && strings.HasPrefix(w.err, "the command does not parse") {
		w.err = ""
	}
}

// codeCommand emits a command that code runs through its own API.
func (w *walker) codeCommand(c Command, via string, sc *scope) {
	sub := *sc
	sub.via, sub.depth, sub.pipeFrom, sub.redirects = via, sc.depth+1, nil, nil
	w.emit(c, &sub)
}

// window is the code just before position i, where the call that takes
// what stands at i is written; bounded so that many literals in long
// code cost linear time.
// shellDashC ends with a shell's name and -c as literals of an argument
// list, in any language: what follows is the command line it runs.
var shellDashC = regexp.MustCompile(`['"\x60](?:/usr)?(?:/bin/)?(?:ba|z|da|k|fi)?sh['"\x60]\s*,\s*\[?\s*(?:['"\x60](?:/usr)?(?:/bin/)?(?:ba|z|da|k)?sh['"\x60]\s*,\s*)?['"\x60]-[a-z]*c['"\x60]\s*,\s*$`)

// backtickShell are the languages whose backtick literals are commands
// run by the shell (in JavaScript they are template strings).
var backtickShell = map[string]bool{"ruby": true, "perl": true, "php": true, "irb": true, "jruby": true}

func window(s string, i int) string { return s[max(0, i-160):i] }

func literalText(s string, m []int) string {
	switch {
	case m[2] >= 0:
		return s[m[2]:m[3]]
	case m[4] >= 0:
		return s[m[4]:m[5]]
	}
	return s[m[6]:m[7]]
}

// isHomeToken reports a match of codeLiteral that is the home mark
// rather than a string literal.
func isHomeToken(m []int) bool { return m[2] < 0 && m[4] < 0 && m[6] < 0 }

// codePaths finds the paths code names: string literals that start with
// / or ~, and home-directory expressions, each with the literals joined
// to it (os.homedir()+'/.npmrc', Path.home() / '.ssh' / 'id_rsa').
func codePaths(code string, writePrefix *regexp.Regexp) []codePath {
	var out []codePath
	var cur *codePath
	end := 0
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for _, m := range codeLiteral.FindAllStringSubmatchIndex(code, -1) {
		var v string
		isHome := isHomeToken(m)
		if isHome {
			v = homeMark
		} else {
			v = literalText(code, m)
		}
		if cur != nil && !isHome && joiner.MatchString(code[end:m[0]]) && !strings.ContainsAny(v, "\n ") {
			// Each step of the chain may be the path: in
			// readFileSync(home+'/.npmrc', 'utf8') the comma ends it.
			out = append(out, *cur)
			if strings.HasPrefix(v, "/") || strings.HasSuffix(cur.path, "/") {
				cur.path += v
			} else {
				cur.path += "/" + v
			}
			end = m[1]
			cur.end = end
			continue
		}
		flush()
		write := false
		if writePrefix != nil && !isHome {
			if loc := writePrefix.FindStringIndex(v); loc != nil && loc[1] > 0 {
				v, write = v[loc[1]:], true
			}
		}
		if !write && !isHome {
			v = readPrefix.ReplaceAllString(v, "") // perl's open(F, "<FILE")
		}
		if isHome || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, homeMark) {
			if !strings.ContainsAny(v, "\n") {
				cur = &codePath{path: v, start: m[0], end: m[1], write: write}
			}
		}
		end = m[1]
	}
	flush()
	return out
}

// joinArgvQuoted quotes each word for the shell.
func joinArgvQuoted(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}
