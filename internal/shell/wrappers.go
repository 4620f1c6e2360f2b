package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// options describes a wrapper's command-line options: which short
// letters and long names take a value. Options end at "--" or at the
// first word that is not an option.
type options struct {
	shortValue string   // short options followed by a value: "ug" for sudo -u USER
	longValue  []string // long options followed by a value unless written --name=value
	pair       []string // long options followed by two values: bwrap --bind SRC DEST
}

// skip returns the index of the first non-option word in args, and the
// options seen with their values ("u" -> "root").
func (o options) skip(args []word) (int, map[string]string) {
	seen := map[string]string{}
	i := 0
	for i < len(args) {
		a := args[i].text
		if a == "--" {
			return i + 1, seen
		}
		if args[i].dynamic || len(a) < 2 || a[0] != '-' {
			return i, seen
		}
		if strings.HasPrefix(a, "--") {
			name, value, hasValue := strings.Cut(a[2:], "=")
			if !hasValue && contains(o.pair, name) && i+2 < len(args) {
				value = args[i+1].text + " " + args[i+2].text
				i += 2
			} else if !hasValue && contains(o.longValue, name) && i+1 < len(args) {
				value = args[i+1].text
				i++
			}
			seen[name] = value
			i++
			continue
		}
		// A cluster of short options: -Eu root, -uroot, -n5.
		for j := 1; j < len(a); j++ {
			letter := a[j : j+1]
			if strings.ContainsRune(o.shortValue, rune(a[j])) {
				if j+1 < len(a) {
					seen[letter] = a[j+1:]
				} else if i+1 < len(args) {
					seen[letter] = args[i+1].text
					i++
				}
				break
			}
			seen[letter] = ""
		}
		i++
	}
	return i, seen
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Options of the programs whose handling is mechanism here rather than a
// row of the pack's wrappers table.
var (
	xargsOpts = options{shortValue: "ILnPsdEa", longValue: []string{"replace", "max-lines", "max-args", "max-procs", "max-chars", "delimiter", "eof", "arg-file"}}
	sshOpts   = options{shortValue: "bcDEeFIiJLlmOopQRSWw"}
	shellOpts = options{shortValue: "oO", longValue: []string{"rcfile", "init-file"}}
)

// shells run a string given with -c, or their standard input.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true}

// resolve unwraps wrappers around a simple command and records what
// runs. The wrappers are listed on the command they run.
func (w *walker) resolve(cmd Command, words []word, s *syntax.Stmt, sc *scope) {
	for len(words) > 0 && !words[0].dynamic {
		rest, wrapper, done := w.unwrap(&cmd, words, s, sc)
		if done {
			return
		}
		if !wrapper || len(rest) == 0 {
			break // not a wrapper, or one with nothing to run: `sudo -i`, `command -v x`
		}
		cmd.Wrappers = append(cmd.Wrappers, base(words[0].text))
		words = rest
	}
	if !w.nested(cmd, words, s, sc) {
		w.emitOnly(cmd, words, sc)
	}
}

// unwrap looks at one command word. For a wrapper it returns the words
// of the command it runs. done means it emitted everything itself: a
// shell string (bash -c, eval, ssh, watch ...), xargs or find. Which
// programs are wrappers, and their options, are the pack's wrappers
// table (Roles.Wrappers); shells, xargs, find, ssh and env's assignments
// are mechanism here.
func (w *walker) unwrap(cmd *Command, words []word, s *syntax.Stmt, sc *scope) (rest []word, wrapper, done bool) {
	name := base(words[0].text)
	args := words[1:]
	runString := func(src, via string, cwd string) {
		w.emitRunner(*cmd, words, sc)
		w.script(src, w.sub(sc, cwd), via, sc.depth+1)
	}
	switch name {
	case "xargs":
		w.xargs(*cmd, words, s, sc)
		return nil, false, true
	case "ssh":
		i, _ := sshOpts.skip(args)
		if i+1 >= len(args) {
			if s != nil && w.stdinFile(*cmd, s, sc) != "" {
				// A login shell fed a local file runs it there.
				n := len(w.out)
				w.emitRunner(*cmd, words, sc)
				remote := w.sub(sc, "/")
				remote.remote = true
				w.stdinScript(n, *cmd, s, sc, remote)
				return nil, false, true
			}
			return nil, false, false // an interactive login
		}
		n := len(w.out)
		w.emitRunner(*cmd, words[:i+2], sc)
		remote := w.sub(sc, "/")
		remote.remote = true
		w.script(joinTexts(args[i+1:]), remote, "ssh", sc.depth+1)
		if n < len(w.out) && s != nil && readsScriptOnStdin(args[i+1:]) {
			// ssh HOST bash -s < f: the local file f runs there.
			w.stdinScript(n, *cmd, s, sc, remote)
			w.catScript(n, remote)
		}
		return nil, false, true
	case "find":
		w.find(*cmd, words, s, sc)
		return nil, false, true
	}
	if shells[name] || ((name == "source" || name == ".") && len(args) > 0 && readsStdin(args[0].text)) {
		w.shell(*cmd, words, s, sc)
		return nil, false, true
	}
	if rest, ok := w.runnerCommand(name, args); ok {
		w.emitRunner(*cmd, words, sc)
		return rest, true, false
	}
	wr := w.env.Roles.wrapper(name)
	if wr == nil || len(args) < len(wr.Words) {
		return nil, false, false
	}
	for n, want := range wr.Words {
		if args[n].dynamic || args[n].text != want {
			return nil, false, false // ip addr, not ip netns exec
		}
	}
	head := len(wr.Words)
	if len(wr.Verbs) > 0 {
		n, _ := wr.options().skip(args)
		if n >= len(args) || args[n].dynamic || !contains(wr.Verbs, args[n].text) {
			return nil, false, false // tmux ls, tmux attach
		}
		head = n + 1
	}
	i, seen, runs := wr.start(args[head:])
	i += head
	if opt, c, ok := firstKey(seen, wr.Command); ok {
		runString(c, name+" "+dashed(opt), cmd.Cwd)
		return nil, false, true
	}
	if name == "env" {
		// env's own mechanism: -C moves it, NAME=VALUE words are
		// assignments, -S splits a string into the command.
		if dir, ok := firstOf(seen, "C", "chdir"); ok {
			cmd.Cwd = w.abs(dir, cmd.Cwd)
		}
		for ; i < len(args) && strings.Contains(args[i].text, "=") && !strings.HasPrefix(args[i].text, "="); i++ {
			k, v, _ := strings.Cut(args[i].text, "=")
			if cmd.Assigns == nil {
				cmd.Assigns = map[string]string{}
			}
			cmd.Assigns[k] = v
			w.commandVar(k, v, cmd.Assigns, sc)
		}
		if split, ok := firstOf(seen, "S", "split-string"); ok {
			runString(joinTexts(append([]word{{text: split}}, after(args, i)...)), "env -S", cmd.Cwd)
			return nil, false, true
		}
		return after(args, i), true, false
	}
	if !runs {
		return nil, false, false
	}
	for _, opt := range wr.Env {
		if k, v, ok := strings.Cut(seen[opt], "="); ok && k != "" {
			if cmd.Assigns == nil {
				cmd.Assigns = map[string]string{}
			}
			cmd.Assigns[k] = v
		}
	}
	if _, argv := firstOf(seen, wr.Argv...); wr.String && !argv {
		w.emitRunner(*cmd, words, sc)
		sub := w.sub(sc, cmd.Cwd)
		for k, v := range cmd.Assigns {
			w.setEnv(&sub, k, v)
		}
		w.script(joinTexts(args[i:]), sub, name, sc.depth+1)
		return nil, false, true
	}
	if _, edit := seen["e"]; edit && name == "sudo" {
		return append([]word{{text: "sudoedit"}}, args[i:]...), true, false
	}
	switch wr.Emit {
	case "options":
		w.emitRunner(*cmd, words[:1+i], sc)
	case "all":
		w.emitRunner(*cmd, words, sc)
	}
	return args[i:], true, false
}

// runnerCommand is the command a package runner runs after one of its
// words (bundle exec CMD, uv run CMD, poetry run CMD: the pack's runner
// table, Roles.Runners), judged as if started directly. A runner whose
// tool comes first (npx PKG, node FILE) names a package or a file, not
// a command, and a runner without its word (pnpm install) runs none.
func (w *walker) runnerCommand(name string, args []word) ([]word, bool) {
	if w.env.Roles == nil || len(w.env.Roles.Runners[name]) == 0 {
		return nil, false
	}
	subs := w.env.Roles.Runners[name]
	texts := make([]string, len(args))
	for i, a := range args {
		if a.dynamic {
			return nil, false
		}
		texts[i] = a.text
	}
	tool, ok := w.env.Roles.RunnerTool(name, texts)
	if !ok || tool == 0 {
		return nil, false
	}
	for _, t := range texts[:tool] {
		if contains(subs, t) {
			return args[tool:], true
		}
	}
	return nil, false
}

// firstKey is the first of names given in seen, and its value.
func firstKey(seen map[string]string, names []string) (string, string, bool) {
	for _, n := range names {
		if v, ok := seen[n]; ok {
			return n, v, true
		}
	}
	return "", "", false
}

// dashed writes an option name as given: -c, --command.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func firstOf(seen map[string]string, names ...string) (string, bool) {
	for _, n := range names {
		if v, ok := seen[n]; ok {
			return v, true
		}
	}
	return "", false
}

func after(ws []word, i int) []word {
	if i >= len(ws) {
		return nil
	}
	return ws[i:]
}

// xargs emits xargs and the command it runs. Items given in a
// here-string are known, and xargs appends them to that command.
func (w *walker) xargs(cmd Command, words []word, s *syntax.Stmt, sc *scope) {
	i, seen := xargsOpts.skip(words[1:])
	rest := words[1+i:]
	if len(rest) == 0 {
		rest = []word{{text: "echo"}}
	}
	var items []word
	for _, r := range s.Redirs {
		if r.Op == syntax.WordHdoc {
			fs := strings.Fields(w.word(r.Word, cmd.Cwd, sc.vars).text)
			if !w.spend(len(fs), 0) {
				break
			}
			for _, f := range fs {
				items = append(items, word{text: f})
			}
		}
	}
	// What the commands before it in the pipeline print, when known.
	if w.spend(len(sc.stdin), 0) {
		items = append(items, sc.stdin...)
	}
	w.emitOnly(cmd, words[:1+i], sc)
	sub := *sc
	sub.via, sub.stdin = "xargs", nil
	inner := Command{Cwd: cmd.Cwd, Assigns: cmd.Assigns, Wrappers: append(append([]string(nil), cmd.Wrappers...), "xargs")}
	repl, replace := firstOf(seen, "I", "replace", "i")
	if !replace || len(items) == 0 {
		w.resolve(inner, append(rest, items...), s, &sub)
		return
	}
	if repl == "" {
		repl = "{}"
	}
	// -I R: the command runs once per item, the item in R's place.
	for _, it := range items {
		if !w.spend(len(rest), 0) {
			return
		}
		argv := make([]word, 0, len(rest))
		for _, a := range rest {
			if strings.Contains(a.text, repl) {
				nw := it
				nw.text = strings.ReplaceAll(a.text, repl, it.text)
				argv = append(argv, nw)
			} else {
				argv = append(argv, a)
			}
		}
		w.resolve(inner, argv, s, &sub)
	}
}

// sub is the scope of a string run by a shell inside this command. It
// sees the variables assigned before it, as if they were exported: a
// path given through one is still that path.
func (w *walker) sub(sc *scope, cwd string) scope {
	return scope{cwd: cwd, remote: sc.remote, vars: sc.vars, env: sc.env, exports: sc.exports, allexport: sc.allexport, cwdUnknown: sc.cwdUnknown && cwd == sc.cwd}
}

// shell handles sh, bash, zsh ... (and `source /dev/stdin`): a -c
// string, a here-document or here-string on stdin, or a script file.
func (w *walker) shell(cmd Command, words []word, s *syntax.Stmt, sc *scope) {
	args := words[1:]
	i, seen := shellOpts.skip(args)
	name := base(words[0].text)
	if _, ok := seen["c"]; ok && i < len(args) {
		w.emitRunner(cmd, words, sc)
		sub := w.sub(sc, cmd.Cwd)
		// `sh -c 'cat "$1"' NAME ARG...`: NAME is $0, the ARGs $1...
		rest := after(args, i+1)
		for n, a := range rest {
			if n > 9 {
				break
			}
			w.setVar(&sub, string(rune('0'+n)), a)
		}
		if len(rest) > 1 {
			all := word{text: joinTexts(rest[1:]), items: rest[1:]}
			w.setVar(&sub, "@", all)
			w.setVar(&sub, "*", all)
		}
		w.script(args[i].text, sub, name+" -c", sc.depth+1)
		return
	}
	n := len(w.out)
	w.emitOnly(cmd, words, sc)
	if i < len(args) && !readsStdin(args[i].text) {
		// Runs a script file: judged on its content when known.
		if n < len(w.out) && !args[i].dynamic {
			w.runScript(n, w.abs(expandTilde(args[i].text, w.env.Home), cmd.Cwd), after(args, i+1), sc)
		}
		return
	}
	if n < len(w.out) {
		w.stdinScript(n, cmd, s, sc, w.sub(sc, cmd.Cwd)) // bash < f, bash -s < f
		w.catScript(n, w.sub(sc, cmd.Cwd))               // cat f | bash
	}
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				w.script(w.word(r.Hdoc, cmd.Cwd, sc.vars).text, w.sub(sc, cmd.Cwd), "heredoc", sc.depth+1)
			}
		case syntax.WordHdoc:
			w.script(w.word(r.Word, cmd.Cwd, sc.vars).text, w.sub(sc, cmd.Cwd), "heredoc", sc.depth+1)
		}
	}
}

func readsStdin(operand string) bool { return operand == "-" || operand == "/dev/stdin" }

// stdinFile is the file a statement's stdin is redirected from (< f),
// "" when there is none or its name is only known when it runs.
func (w *walker) stdinFile(cmd Command, s *syntax.Stmt, sc *scope) string {
	for _, r := range s.Redirs {
		if r.Op != syntax.RdrIn || r.Word == nil {
			continue
		}
		if t := w.word(r.Word, cmd.Cwd, sc.vars); !t.dynamic && t.text != "" {
			return w.abs(expandTilde(t.text, w.env.Home), cmd.Cwd)
		}
	}
	return ""
}

// stdinScript judges the file on a shell's stdin as the script it
// reads, in run (this machine's scope, or a remote one for ssh), as
// out[n] runs it.
func (w *walker) stdinScript(n int, cmd Command, s *syntax.Stmt, sc *scope, run scope) {
	p := w.stdinFile(cmd, s, sc)
	if p == "" || p == "/dev/null" {
		return
	}
	content, found, why := w.fileContent(p)
	if why != "" {
		w.unread(n, p, why)
	}
	if found {
		w.runText(n, p, []string{content}, "stdin "+showPath(p, sc.cwd), run)
	}
}

// catScript: the shell at out[n] reads its script from a pipe whose
// last command is cat of files (cat f | sh): those files are the script.
func (w *walker) catScript(n int, run scope) {
	if n == 0 {
		return
	}
	c, src := w.out[n], w.out[n-1]
	if len(c.PipeFrom) == 0 || c.PipeFrom[len(c.PipeFrom)-1] != "cat" || src.Name != "cat" || src.Dynamic {
		return
	}
	for _, p := range src.Paths {
		content, found, why := w.fileContent(p)
		if why != "" {
			w.unread(n, p, why)
		}
		if found {
			w.runText(n, p, []string{content}, "stdin "+showPath(p, c.Cwd), run)
		}
	}
}

// readsScriptOnStdin: a remote command that is a shell with no script
// of its own (bash, sh -s, bash -), which reads one from stdin.
func readsScriptOnStdin(remote []word) bool {
	fields := strings.Fields(joinTexts(remote))
	if len(fields) == 0 || !shells[base(fields[0])] {
		return false
	}
	for _, f := range fields[1:] {
		if f == "-c" || !strings.HasPrefix(f, "-") && !readsStdin(f) {
			return false // it runs a string or a file of its own
		}
	}
	return true
}

// find emits find itself and each command it runs with -exec, -execdir,
// -ok or -okdir; "{}" stands for what find finds under its roots.
func (w *walker) find(cmd Command, words []word, s *syntax.Stmt, sc *scope) {
	args := words[1:]
	var roots []string
	for _, a := range args {
		if strings.HasPrefix(a.text, "-") || a.text == "(" || a.text == "!" {
			break
		}
		roots = append(roots, a.text)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	end := len(args)
	var execs [][]word
	for i := 0; i < len(args); i++ {
		switch args[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
			if i+1 < end && end == len(args) {
				end = i
			}
			j := i + 1
			for j < len(args) && args[j].text != ";" && args[j].text != "+" {
				j++
			}
			execs = append(execs, args[i+1:j])
			i = j
		}
	}
	// {} stands for what find finds under each root whose name matches
	// its -name pattern, not the root itself.
	name := "*"
	for i := 0; i+1 < end; i++ {
		if t := args[i].text; (t == "-name" || t == "-iname") && !args[i+1].dynamic {
			name = args[i+1].text
		}
	}
	// Without a name filter it may be everything there: the root stands
	// for it, as a whole tree deleted is the root deleted.
	found := make([]word, 0, len(roots))
	for _, r := range roots {
		if name == "*" {
			found = append(found, word{text: r})
			continue
		}
		found = append(found, under(word{text: r}, w.abs(expandTilde(r, w.env.Home), cmd.Cwd), name))
	}
	// find's own arguments stop where the commands it runs begin.
	w.emitOnly(cmd, words[:1+end], sc)
	for _, ex := range execs {
		if len(ex) == 0 {
			continue
		}
		var argv []word
		for _, a := range ex {
			if strings.Contains(a.text, "{}") {
				// Roots times {} words: charged, it could be n².
				if !w.spend(len(roots), len(roots)*len(a.text)) {
					return
				}
				for _, f := range found {
					nw := f
					nw.text = strings.ReplaceAll(a.text, "{}", f.text)
					nw.dynamic = nw.dynamic || a.dynamic
					argv = append(argv, nw)
				}
				continue
			}
			argv = append(argv, a)
		}
		sub := *sc
		sub.via = "find -exec"
		w.resolve(Command{Cwd: cmd.Cwd, Assigns: cmd.Assigns, Wrappers: append(append([]string(nil), cmd.Wrappers...), "find")}, argv, s, &sub)
	}
}

// emitRunner emits a command whose operands are code (bash -c, eval,
// ssh, watch): they are kept as operands but are not paths.
func (w *walker) emitRunner(cmd Command, words []word, sc *scope) {
	n := len(w.out)
	w.emitOnly(cmd, words, sc)
	if len(w.out) > n {
		w.out[n].Paths = []string{}
	}
}

func joinTexts(ws []word) string {
	texts := make([]string, len(ws))
	for i, x := range ws {
		texts[i] = x.text
	}
	return strings.Join(texts, " ")
}

// emitOnly finishes a command from its words: program, arguments,
// flags, operands and paths. The policies' roles table (Env.Roles) says,
// for the programs it knows, which options take a value and what each
// value and leading operand is: free text, a credential used, the
// directory to work in, a command line or code.
func (w *walker) emitOnly(cmd Command, words []word, sc *scope) {
	prog := words[0]
	cmd.Program = prog.text
	cmd.Name = base(prog.text)
	cmd.Dynamic = prog.dynamic
	singleDashLong := cmd.Name == "find"
	afterDashes := false
	var roles *ProgramRoles
	if !prog.dynamic {
		roles = w.env.Roles.program(cmd.Name)
	}
	args := words[1:]
	patternGiven := roles.patternIn(args)
	operandN := 0
	codeGiven := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		cmd.Args = append(cmd.Args, a.text)
		cmd.Dynamic = cmd.Dynamic || a.dynamic
		cmd.Glob = cmd.Glob || a.glob
		t := a.text
		switch {
		case afterDashes || a.dynamic || len(t) < 2 || t[0] != '-' || isNumber(t):
			cmd.Operands = append(cmd.Operands, t)
			if p := GlobPattern(t); p != "" && len(t) <= 512 && len(cmd.Patterns) < 16 {
				cmd.Patterns = append(cmd.Patterns, p)
			}
			if roles != nil && operandN == 0 && !a.dynamic && roles.Subcommands != nil {
				if sub, ok := roles.Subcommands[t]; ok {
					roles = &sub
					patternGiven = roles.patternIn(args[i+1:])
					continue
				}
			}
			r := roleNone
			if roles != nil {
				r = roles.leading(operandN, patternGiven)
			}
			operandN++
			codeGiven = codeGiven || r == roleCode
			w.argument(&cmd, a, r, sc)
		case t == "--":
			afterDashes = true
		case strings.HasPrefix(t, "--") || singleDashLong:
			name, value, hasValue := strings.Cut(strings.TrimLeft(t, "-"), "=")
			cmd.Flags = append(cmd.Flags, name)
			r := roleNone
			if roles != nil && !singleDashLong {
				r = roles.optionRole(name)
				cmd.DryRun = cmd.DryRun || contains(roles.DryRun, name)
			}
			vw := word{text: value}
			if !hasValue && r != roleNone && i+1 < len(args) {
				i++
				vw = args[i]
				cmd.Args = append(cmd.Args, vw.text)
				hasValue = true
			}
			if hasValue {
				codeGiven = codeGiven || r == roleCode
				w.value(&cmd, vw, r, sc)
			}
		default:
			letters := t[1:]
			for j := 0; j < len(letters); j++ {
				l := letters[j : j+1]
				cmd.Flags = append(cmd.Flags, l)
				if roles == nil {
					continue
				}
				cmd.DryRun = cmd.DryRun || contains(roles.DryRun, l)
				r := roles.optionRole(l)
				if r == roleNone {
					continue
				}
				var vw word
				switch {
				case j+1 < len(letters):
					vw = word{text: letters[j+1:]}
				case i+1 < len(args):
					i++
					vw = args[i]
					cmd.Args = append(cmd.Args, vw.text)
				default:
					r = roleNone
				}
				if r != roleNone {
					codeGiven = codeGiven || r == roleCode
					w.value(&cmd, vw, r, sc)
				}
				break
			}
		}
	}
	// An interpreter given no code reads it from a here-document.
	if roles != nil && roles.StdinCode && !codeGiven && (operandN == 0 || (len(cmd.Operands) > 0 && readsStdin(cmd.Operands[0]))) {
		for _, r := range cmd.Redirects {
			if strings.HasPrefix(r.Op, "<<") {
				w.scanCode(&cmd, r.Target, cmd.Name+" heredoc", sc)
			}
		}
		// Or from what the pipe before it prints: echo '...' | node.
		if len(sc.stdin) > 0 {
			printed := make([]string, len(sc.stdin))
			for i, p := range sc.stdin {
				printed[i] = p.text
			}
			code := strings.Join(printed, " ")
			cmd.CodeView = append(cmd.CodeView, code) // the pack's code rules read it with the arguments
			w.scanCode(&cmd, code, cmd.Name+" stdin", sc)
		}
	}
	n := len(w.out)
	w.emit(cmd, sc)
	if n < len(w.out) {
		w.noteWrite(n)
		w.runs(n, roles, codeGiven, sc)
	}
}

// patternIn reports whether args give one of p's Pattern options.
func (p *ProgramRoles) patternIn(args []word) bool {
	if p == nil || len(p.Pattern) == 0 {
		return false
	}
	for _, a := range args {
		t := a.text
		if t == "--" {
			return false
		}
		if a.dynamic || len(t) < 2 || t[0] != '-' {
			continue
		}
		if strings.HasPrefix(t, "--") {
			name, _, _ := strings.Cut(t[2:], "=")
			if contains(p.Pattern, name) {
				return true
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			if contains(p.Pattern, t[j:j+1]) {
				return true
			}
		}
	}
	return false
}

// argument records an operand in its role.
func (w *walker) argument(cmd *Command, a word, r role, sc *scope) {
	switch r {
	case roleText:
		cmd.Text = append(cmd.Text, a.text)
	case roleCode:
		w.scanCode(cmd, a.text, cmd.Name+" code", sc)
	case roleCommand:
		w.script(a.text, w.sub(sc, cmd.Cwd), cmd.Name, sc.depth+1)
	default:
		w.pathArg(cmd, a)
	}
}

// pathArg records a word that may name a path: its path, or for a word
// only known when it runs the folder its static start names; and the
// well-known secret files a glob or dynamic word may name.
func (w *walker) pathArg(cmd *Command, a word) {
	if a.unjudged != nil {
		cmd.Unjudged = append(cmd.Unjudged, *a.unjudged)
	}
	if !a.dynamic {
		cmd.Paths = append(cmd.Paths, w.pathsOf(a.text, cmd.Cwd)...)
	} else if p := w.prefixPath(a, cmd.Cwd); p != "" {
		cmd.Prefixes = append(cmd.Prefixes, p)
	}
	if a.pattern() {
		hits := w.matchExamples(a, cmd.Cwd)
		// A loop's variable stands for each of its items in turn: a
		// pattern without an unknown part names what it matches.
		if a.dynamic && strings.Contains(a.re, ".*") {
			cmd.Maybe = append(cmd.Maybe, hits...)
		} else {
			cmd.Paths = append(cmd.Paths, hits...)
		}
	}
}

// value records an option's value in its role.
func (w *walker) value(cmd *Command, v word, r role, sc *scope) {
	switch r {
	case roleText:
		cmd.Text = append(cmd.Text, v.text)
	case roleUse:
		if !v.dynamic {
			cmd.Uses = append(cmd.Uses, w.pathsOf(v.text, cmd.Cwd)...)
		}
	case roleDir:
		if !v.dynamic && v.text != "" {
			dir := w.abs(expandTilde(v.text, w.env.Home), cmd.Cwd)
			cmd.Paths = append(cmd.Paths, dir)
			cmd.Cwd = dir
		} else {
			w.pathArg(cmd, v)
		}
	case roleCommand:
		w.script(v.text, w.sub(sc, cmd.Cwd), cmd.Name, sc.depth+1)
	case roleCode:
		w.scanCode(cmd, v.text, cmd.Name+" code", sc)
	case roleConfig:
		key, val, ok := strings.Cut(v.text, "=")
		if ok && w.env.Roles.cfgCmds[strings.ToLower(key)] {
			w.script(val, w.sub(sc, cmd.Cwd), cmd.Name+" config", sc.depth+1)
		}
	default:
		if v.dynamic {
			w.pathArg(cmd, v)
			return
		}
		cmd.Paths = append(cmd.Paths, w.pathsOf(v.text, cmd.Cwd)...)
	}
}

// expandTilde expands a leading ~ the shell left alone (-C~ or a value
// after =): the program would see the same folder.
func expandTilde(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return home + p[1:]
	}
	return p
}

func isNumber(s string) bool {
	for i, r := range s {
		if (r < '0' || r > '9') && !(i == 0 && r == '-') {
			return false
		}
	}
	return true
}

// pathsOf normalizes what an operand may name: the word itself, the part
// after "=" (key=value, --opt=path) and a file given as @path (curl -d
// @file). A ~ there is expanded even where the shell would not, because
// the program may.
func (w *walker) pathsOf(t, cwd string) []string {
	cands := []string{t}
	if _, v, ok := strings.Cut(t, "="); ok {
		cands = append(cands, v)
	}
	var out []string
	for _, c := range cands {
		c = strings.TrimPrefix(c, "@")
		if c == "" || c == "-" || strings.Contains(c, "://") {
			continue // nothing, stdin, or a URL
		}
		if c == "~" || strings.HasPrefix(c, "~/") {
			c = w.env.Home + c[1:]
		}
		out = append(out, w.abs(c, cwd))
	}
	return out
}
