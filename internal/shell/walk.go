package shell

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// walker collects the simple commands of a command line, in the order
// they appear.
type walker struct {
	env Env
	out []Command
	err string
	// words and work are what the command has cost so far against
	// MaxWords and workLimit (see the bounds in shell.go).
	words, work, workLimit int
	// examples are Env.Roles.Examples made absolute, once per parse.
	examples []string
	// written, filesRead and nest are what runs.go keeps of the files
	// commands run: contents known, files read from disk, files within
	// files being walked.
	written         map[string]string
	filesRead, nest int
	// dotted is Result.Dotted.
	dotted map[string]string
	// glob is what pathname expansion has spent (Env.Look); dotglob is
	// set when the command line may make * match names with a dot.
	glob    *globState
	dotglob bool
}

// scope is what a command inherits from where it stands.
type scope struct {
	cwd       string
	via       string
	depth     int
	remote    bool
	pipeFrom  []string
	redirects []Redirect // of an enclosing compound command: { ...; } > f
	// vars are the variables assigned earlier in the command line
	// (H=~/.agentjail; rm -rf $H/policies). Shared between scopes and
	// copied on write.
	vars map[string]word
	// env are the variables the command line has exported so far, with
	// their values: what every command after them inherits (HOME=/tmp/x;
	// claude). exports are the names marked for export (export NAME,
	// declare -x NAME) and allexport is `set -a`: an assignment to one
	// of them, or under it, is exported. Copied on write.
	env       map[string]string
	exports   map[string]bool
	allexport bool
	// stdin are the items the commands before this one in its pipeline
	// are known to print (printf '%s\n' X | xargs rm): xargs hands them on.
	stdin []word
	// repeats, fn and background give Command.Repeats and Background:
	// the innermost loop's kind, the function whose body this is, and
	// whether a `&` stands between that loop or body and here.
	repeats, fn string
	background  bool
	// cwdUnknown is set once a cd goes somewhere only known when the
	// command runs (cd "$X", cd -, popd past the known stack): cwd is
	// then the last known folder (Command.CwdUnknown).
	cwdUnknown bool
	// dirs is pushd's stack, top last; copied on write.
	dirs []string
}

func (w *walker) fail(msg string) {
	if w.err == "" {
		w.err = msg
	}
}

// spend charges words and bytes of work to the command's budgets. It
// reports false, recording an Error, once either is spent: the caller
// then stops expanding.
func (w *walker) spend(words, bytes int) bool {
	w.words += words
	w.work += bytes
	switch {
	case w.words > MaxWords:
		w.fail(fmt.Sprintf("the command expands to more than %d words", MaxWords))
		return false
	case w.work > w.workLimit:
		w.fail("the command expands to too much text to check")
		return false
	}
	return true
}

// script parses src and walks it. via names how it is run ("bash -c").
func (w *walker) script(src string, sc scope, via string, depth int) {
	if depth > MaxDepth {
		w.fail(fmt.Sprintf("shells nest more than %d deep", MaxDepth))
		return
	}
	if len(src) > MaxLength {
		w.fail(lengthError(len(src)))
		return
	}
	if tooNested(src) {
		w.fail(fmt.Sprintf("the command nests brackets more than %d deep", MaxNesting))
		return
	}
	if depth > 0 && !w.spend(0, len(src)) {
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		w.fail("the command does not parse as Bash: " + err.Error())
		return
	}
	sc.via, sc.depth = via, depth
	sc.pipeFrom, sc.redirects = nil, nil
	w.stmts(f.Stmts, &sc)
}

// stmts walks a list; a `cd` in it changes the cwd of what follows.
func (w *walker) stmts(list []*syntax.Stmt, sc *scope) {
	for _, s := range list {
		w.stmt(s, sc)
	}
}

func (w *walker) stmt(s *syntax.Stmt, sc *scope) {
	if len(w.out) >= MaxCommands {
		w.fail(fmt.Sprintf("the command runs more than %d commands", MaxCommands))
		return
	}
	if s.Background && !sc.background {
		// cmd & runs in a subshell: what it changes does not leak out.
		bg := *sc
		bg.background = true
		sc = &bg
	}
	// Redirections of a compound command apply to every command inside.
	inner := *sc
	if _, isCall := s.Cmd.(*syntax.CallExpr); !isCall && len(s.Redirs) > 0 && w.spend(len(sc.redirects)+len(s.Redirs), 0) {
		inner.redirects = append(append([]Redirect(nil), sc.redirects...), w.redirects(s.Redirs, sc)...)
	}
	switch c := s.Cmd.(type) {
	case nil:
		// A bare redirection such as `> file` truncates it.
		if len(s.Redirs) > 0 {
			w.emit(Command{Program: ":", Name: ":", Redirects: w.redirects(s.Redirs, sc), Cwd: sc.cwd}, sc)
		}
	case *syntax.CallExpr:
		w.call(c, s, sc)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			w.pipeline(c, &inner)
			return
		}
		w.stmt(c.X, &inner)
		w.stmt(c.Y, &inner)
		sc.cwd, sc.vars, sc.dirs, sc.cwdUnknown = inner.cwd, inner.vars, inner.dirs, inner.cwdUnknown
	case *syntax.Subshell:
		sub := inner // a subshell's cd does not leak out
		w.stmts(c.Stmts, &sub)
	case *syntax.Block:
		w.stmts(c.Stmts, &inner)
		sc.cwd, sc.vars, sc.dirs, sc.cwdUnknown = inner.cwd, inner.vars, inner.dirs, inner.cwdUnknown
	// Variables assigned in a branch or loop may be set afterwards:
	// assume they are, as function bodies are assumed to run.
	case *syntax.IfClause:
		for clause := c; clause != nil; clause = clause.Else {
			w.stmts(clause.Cond, &inner)
			w.stmts(clause.Then, &inner)
		}
		sc.vars = inner.vars
	case *syntax.WhileClause:
		w.stmts(c.Cond, &inner)
		body := inner
		body.repeats, body.background = "loop", false
		if endless(c) {
			body.repeats = "forever"
		}
		w.stmts(c.Do, &body)
		sc.vars = body.vars
	case *syntax.ForClause:
		w.substIn(c.Loop, &inner)
		if wi, ok := c.Loop.(*syntax.WordIter); ok && wi.Name != nil {
			w.setVar(&inner, wi.Name.Value, w.loopVar(wi, &inner))
		}
		body := inner
		body.repeats, body.background = "loop", false
		if cl, ok := c.Loop.(*syntax.CStyleLoop); ok && cl.Cond == nil {
			body.repeats = "forever" // for ((;;))
		}
		w.stmts(c.Do, &body)
		sc.vars = body.vars
	case *syntax.CaseClause:
		w.substIn(c.Word, &inner)
		for _, item := range c.Items {
			w.stmts(item.Stmts, &inner)
		}
		sc.vars = inner.vars
	case *syntax.FuncDecl:
		// The body runs whenever the function is called; assume it is.
		body := inner
		body.fn, body.background = c.Name.Value, false
		w.stmt(c.Body, &body)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			w.stmt(c.Stmt, &inner)
		}
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, &inner)
	case *syntax.DeclClause:
		// export/declare/local/readonly: values may run substitutions,
		// and the assignments hold for what follows.
		w.substIn(c, &inner)
		exporting := exportDecl(c, w, sc)
		for _, a := range c.Args {
			if exporting && a.Name != nil {
				w.markExport(sc, a.Name.Value)
			}
			if !a.Naked {
				w.assign(sc, a)
			}
		}
		w.declared(c, sc)
	default:
		// [[ ]], (( )), let: only their substitutions run commands.
		w.substIn(c, &inner)
	}
}

// declared emits export/declare/typeset/readonly/local as a command of
// that name whose Assigns are the variables it sets, so rules see
// `export HISTFILE=/dev/null` as they see `HISTFILE=/dev/null cmd`; its
// flags (-x) are Flags, its other words Args.
func (w *walker) declared(c *syntax.DeclClause, sc *scope) {
	cmd := Command{Cwd: sc.cwd, Program: c.Variant.Value, Name: c.Variant.Value}
	for _, a := range c.Args {
		switch {
		case a.Naked && a.Value != nil:
			t := w.word(a.Value, sc.cwd, sc.vars).text
			cmd.Args = append(cmd.Args, t)
			if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
				cmd.Flags = append(cmd.Flags, strings.Split(t[1:], "")...)
			} else {
				cmd.Operands = append(cmd.Operands, t)
			}
		case a.Naked && a.Name != nil:
			cmd.Args = append(cmd.Args, a.Name.Value)
			cmd.Operands = append(cmd.Operands, a.Name.Value)
		case a.Name != nil && a.Index == nil:
			v := ""
			if a.Value != nil {
				v = w.word(a.Value, sc.cwd, sc.vars).text
			}
			if cmd.Assigns == nil {
				cmd.Assigns = map[string]string{}
			}
			cmd.Assigns[a.Name.Value] = v
			cmd.Args = append(cmd.Args, a.Name.Value+"="+v)
			cmd.Operands = append(cmd.Operands, a.Name.Value+"="+v)
		}
	}
	w.emit(cmd, sc)
}

// endless reports a loop whose condition never ends it: while true,
// while :, until false.
func endless(c *syntax.WhileClause) bool {
	if len(c.Cond) != 1 {
		return false
	}
	ce, ok := c.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 1 || c.Cond[0].Negated {
		return false
	}
	switch ce.Args[0].Lit() {
	case "true", ":":
		return !c.Until
	case "false":
		return c.Until
	}
	return false
}

// pipeline walks a | b | c, telling each command what feeds it.
func (w *walker) pipeline(c *syntax.BinaryCmd, sc *scope) {
	var parts []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		parts = append(parts, s)
	}
	flatten(c.X)
	flatten(c.Y)
	// Each member sees the names before it, once each. The members share
	// one list (each a prefix of it, capped so appends never show
	// through), so a long pipeline costs the sum of its distinct names,
	// charged to the budget as each command is emitted.
	var names []string
	seen := map[string]bool{}
	for i, p := range parts {
		if w.err != "" && len(w.out) >= MaxCommands {
			return
		}
		member := *sc // each side of a pipe runs in a subshell
		member.pipeFrom = names[:len(names):len(names)]
		member.stdin = nil
		if i > 0 {
			member.stdin, _ = w.printedPipe(parts[:i], sc.cwd, sc.vars)
		}
		first := len(w.out)
		w.stmt(p, &member)
		for _, cmd := range w.out[first:] {
			if cmd.Depth == sc.depth && cmd.Via == sc.via && !seen[cmd.Name] {
				seen[cmd.Name] = true
				names = append(names, cmd.Name)
			}
		}
	}
}

// substIn walks every command or process substitution inside node and
// returns the names of the commands they run.
func (w *walker) substIn(node syntax.Node, sc *scope) []string {
	if node == nil {
		return nil
	}
	var names []string
	syntax.Walk(node, func(n syntax.Node) bool {
		var list []*syntax.Stmt
		switch n := n.(type) {
		case *syntax.CmdSubst:
			list = n.Stmts
		case *syntax.ProcSubst:
			list = n.Stmts
		default:
			return true
		}
		sub := *sc
		sub.via, sub.pipeFrom, sub.redirects = "substitution", nil, nil
		first := len(w.out)
		w.stmts(list, &sub)
		for _, cmd := range w.out[first:] {
			names = append(names, cmd.Name)
		}
		return false
	})
	return names
}

// call handles one simple command.
func (w *walker) call(ce *syntax.CallExpr, s *syntax.Stmt, sc *scope) {
	subst := w.substIn(ce, sc)
	for _, r := range s.Redirs {
		subst = append(subst, w.substIn(r.Word, sc)...)
	}
	cmd := Command{Cwd: sc.cwd, CwdUnknown: sc.cwdUnknown, Subst: subst}
	if len(ce.Args) == 0 {
		// Only assignments (their substitutions are walked above): they
		// hold for the rest of the command line.
		for _, a := range ce.Assigns {
			w.assign(sc, a)
		}
		return
	}
	for _, a := range ce.Assigns {
		if a.Name == nil {
			continue
		}
		if cmd.Assigns == nil {
			cmd.Assigns = map[string]string{}
		}
		v := ""
		if a.Value != nil {
			v = w.word(a.Value, sc.cwd, sc.vars).text
		}
		cmd.Assigns[a.Name.Value] = v
		w.commandVar(a.Name.Value, v, cmd.Assigns, sc)
	}
	var words []word
	for _, arg := range ce.Args {
		words = append(words, w.fields(arg, sc.cwd, sc.vars)...)
	}
	// The redirections of enclosing blocks repeat on every command in
	// them: charged before they are copied.
	if !w.spend(len(sc.redirects)+len(s.Redirs), 0) {
		return
	}
	cmd.Redirects = append(append([]Redirect(nil), sc.redirects...), w.redirects(s.Redirs, sc)...)
	if len(words) == 0 {
		return
	}
	w.resolve(cmd, words, s, sc)
	w.changeDir(words, sc)
	setOptions(words, sc)
	// $_ is the last argument of the command before.
	if last := words[len(words)-1]; len(words) > 1 {
		w.setVar(sc, "_", last)
	}
}

// changeDir follows `cd DIR`, `pushd DIR` and `popd`, so that in
// `cd ~ && cat .aws/credentials` the second path is seen as it is. `cd -P`
// resolves links as it goes (Env.RealPath); a relative DIR is searched
// along CDPATH when the command line or the daemon's variables set it; a
// folder only known when the command runs marks the cwd unknown.
func (w *walker) changeDir(words []word, sc *scope) {
	name := words[0].text
	if name != "cd" && name != "pushd" && name != "popd" {
		return
	}
	physical := false
	var target *word
	for i := 1; i < len(words); i++ {
		t := words[i].text
		if t == "--" {
			if i+1 < len(words) {
				target = &words[i+1]
			}
			break
		}
		if strings.HasPrefix(t, "-") && t != "-" && !words[i].dynamic {
			if name == "cd" && strings.Contains(t[1:], "P") {
				physical = true
			}
			continue
		}
		target = &words[i]
		break
	}
	if name == "popd" {
		if target != nil && !target.dynamic && (strings.HasPrefix(target.text, "+") || strings.HasPrefix(target.text, "-")) {
			// popd +N drops an entry without changing folder.
			sc.dirs = append([]string(nil), sc.dirs[:max(len(sc.dirs)-1, 0)]...)
			return
		}
		if len(sc.dirs) == 0 {
			sc.cwdUnknown = true // the stack from before the command
			return
		}
		sc.cwd = sc.dirs[len(sc.dirs)-1]
		sc.dirs = append([]string(nil), sc.dirs[:len(sc.dirs)-1]...)
		return
	}
	from := sc.cwd
	switch {
	case target == nil && name == "pushd":
		// pushd alone swaps the top two folders.
		if len(sc.dirs) == 0 {
			sc.cwdUnknown = true
			return
		}
		top := sc.dirs[len(sc.dirs)-1]
		sc.dirs = append(append([]string(nil), sc.dirs[:len(sc.dirs)-1]...), sc.cwd)
		sc.cwd = top
		return
	case target == nil:
		sc.cwd = w.env.Home
	case target.dynamic || target.text == "-" || (name == "pushd" && (strings.HasPrefix(target.text, "+") || strings.HasPrefix(target.text, "-"))):
		// Only known when it runs: keep the last known folder, marked.
		sc.cwdUnknown = true
		return
	default:
		sc.cwd = w.cdTarget(target.text, sc)
	}
	if physical && w.env.RealPath != nil {
		sc.cwd = w.env.RealPath(sc.cwd)
	}
	if name == "pushd" {
		sc.dirs = append(append([]string(nil), sc.dirs...), from)
	}
}

// cdTarget is where `cd dir` goes from sc: a relative dir that is not
// ./ or ../ is looked for along CDPATH first, as the shell does; the
// first entry that exists wins (an empty entry is the cwd).
func (w *walker) cdTarget(dir string, sc *scope) string {
	cdpath, ok := sc.vars["CDPATH"]
	if !ok {
		if v, set := w.env.Vars["CDPATH"]; set {
			cdpath, ok = word{text: v}, true
		}
	}
	if ok && !cdpath.dynamic && cdpath.text != "" && !filepath.IsAbs(dir) &&
		dir != "." && dir != ".." && !strings.HasPrefix(dir, "./") && !strings.HasPrefix(dir, "../") {
		for _, e := range strings.Split(cdpath.text, ":") {
			base := w.abs(e, sc.cwd)
			if e == "" {
				base = sc.cwd
			}
			cand := w.abs(dir, base)
			if w.env.IsDir != nil && w.env.IsDir(cand) {
				return cand
			}
			if w.env.IsDir == nil && e != "" {
				// Nothing to look with: the first entry is the guess a
				// protected place would hide behind.
				return cand
			}
		}
	}
	return w.abs(dir, sc.cwd)
}

// redirects resolves a statement's redirections.
func (w *walker) redirects(rs []*syntax.Redirect, sc *scope) []Redirect {
	var out []Redirect
	for _, r := range rs {
		op := r.Op.String()
		if r.N != nil {
			op = r.N.Value + op
		}
		rd := Redirect{Op: op}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				rd.Target = w.word(r.Hdoc, sc.cwd, sc.vars).text
			}
		case syntax.WordHdoc:
			rd.Target = w.word(r.Word, sc.cwd, sc.vars).text
		case syntax.DplIn, syntax.DplOut:
			rd.Target = w.word(r.Word, sc.cwd, sc.vars).text
		default:
			wd := w.word(r.Word, sc.cwd, sc.vars)
			rd.Target = wd.text
			if !wd.dynamic {
				rd.Path = w.abs(wd.text, sc.cwd)
				if wd.glob {
					rd.Path = w.globTarget(wd, sc.cwd, rd.Path)
				}
			} else {
				rd.Prefix = w.prefixPath(wd, sc.cwd)
			}
		}
		out = append(out, rd)
	}
	return out
}

// emit records a finished command.
func (w *walker) emit(cmd Command, sc *scope) {
	if len(w.out) >= MaxCommands {
		w.fail(fmt.Sprintf("the command runs more than %d commands", MaxCommands))
		return
	}
	// What a command repeats from its surroundings (the redirections of
	// enclosing blocks, the names before it in a pipeline) is charged
	// here, so nesting and long pipelines stay within the budget.
	if !w.spend(1+len(sc.pipeFrom)+len(cmd.Wrappers), 0) {
		return
	}
	cmd.Via, cmd.Depth, cmd.Remote = sc.via, sc.depth, sc.remote
	cmd.Repeats, cmd.Background = sc.repeats, sc.background
	if sc.fn != "" && cmd.Name == sc.fn {
		cmd.Repeats = "forever" // a function that calls itself
	}
	cmd.PipeFrom = sc.pipeFrom
	if len(sc.env) > 0 && cmd.Env == nil {
		cmd.Env = sc.env
	}
	w.unpacked(&cmd, sc.cwd)
	cmd.Writes = append(w.writes(&cmd), cmd.unpackWrites...)
	if cmd.Args == nil {
		cmd.Args = []string{}
	}
	if cmd.Flags == nil {
		cmd.Flags = []string{}
	}
	if cmd.Operands == nil {
		cmd.Operands = []string{}
	}
	if cmd.Paths == nil {
		cmd.Paths = []string{}
	}
	w.out = append(w.out, cmd)
}

// abs normalizes a static path word against cwd.
func (w *walker) abs(p, cwd string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = strings.TrimSuffix(cwd, "/") + "/" + p
	}
	clean := filepath.Clean(p)
	// `..` after a link goes up from the link's target, not textually:
	// the written form is kept for whoever resolves links.
	if clean != p && hasDotDot(p) && len(w.dotted) < MaxDotted {
		if w.dotted == nil {
			w.dotted = map[string]string{}
		}
		if _, ok := w.dotted[clean]; !ok {
			w.dotted[clean] = p
		}
	}
	return clean
}

// MaxDotted is how many paths with `..` a parse keeps as written
// (Result.Dotted).
const MaxDotted = 64

func hasDotDot(p string) bool {
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return true
		}
	}
	return false
}

// assign records NAME=value for the commands after it. A value that is
// not fully known keeps its static start, so $NAME still shows where it
// points.
func (w *walker) assign(sc *scope, a *syntax.Assign) {
	if a.Name == nil || a.Index != nil {
		return
	}
	name := a.Name.Value
	v := word{}
	switch {
	case a.Append || a.Array != nil:
		v = word{text: "$" + name, dynamic: true}
	case a.Value != nil:
		v = w.word(a.Value, sc.cwd, sc.vars)
		w.commandVar(name, v.text, nil, sc)
	}
	w.setVar(sc, name, v)
	if sc.allexport || sc.exports[name] || w.exportedByDefault(name) {
		w.setEnv(sc, name, v.text)
	}
}

// exportDecl reports a declaration that exports its names: export,
// declare -x, typeset -x.
func exportDecl(c *syntax.DeclClause, w *walker, sc *scope) bool {
	switch c.Variant.Value {
	case "export":
		return true
	case "declare", "typeset":
		for _, a := range c.Args {
			if a.Naked && a.Value != nil {
				if t := w.word(a.Value, sc.cwd, sc.vars).text; strings.HasPrefix(t, "-") && strings.Contains(t, "x") {
					return true
				}
			}
		}
	}
	return false
}

// markExport marks name for export; a value it was given earlier in
// the command line is exported with it.
func (w *walker) markExport(sc *scope, name string) {
	if sc.exports[name] {
		return
	}
	exports := make(map[string]bool, len(sc.exports)+1)
	for k := range sc.exports {
		exports[k] = true
	}
	exports[name] = true
	sc.exports = exports
	if v, ok := sc.vars[name]; ok && !w.inherited(name, v) {
		w.setEnv(sc, name, v.text)
	}
}

// inherited reports a variable whose value is still the one the walk
// started with (Env.Vars), not one the command line gave it.
func (w *walker) inherited(name string, v word) bool {
	x, ok := w.env.Vars[name]
	return ok && x == v.text
}

// setEnv records an exported variable's value.
func (w *walker) setEnv(sc *scope, name, v string) {
	if len(sc.env) >= MaxVars || !w.spend(0, len(sc.env)*16+len(v)) {
		return
	}
	env := make(map[string]string, len(sc.env)+1)
	for k, x := range sc.env {
		env[k] = x
	}
	env[name] = v
	sc.env = env
}

// exportedByDefault: variables every login environment exports (HOME,
// PATH, XDG_*) and those Env.Exported names, so that assigning one
// changes what the commands after it inherit.
func (w *walker) exportedByDefault(name string) bool {
	switch name {
	case "HOME", "PATH", "USER", "SHELL", "TMPDIR":
		return true
	}
	if strings.HasPrefix(name, "XDG_") {
		return true
	}
	for _, n := range w.env.Exported {
		if n == name {
			return true
		}
	}
	return false
}

// setOptions follows `set -a` / `set -o allexport` (and their +
// forms), after which every assignment is exported.
func setOptions(words []word, sc *scope) {
	if len(words) < 2 || words[0].text != "set" {
		return
	}
	for i := 1; i < len(words); i++ {
		t := words[i].text
		switch {
		case (t == "-o" || t == "+o") && i+1 < len(words) && words[i+1].text == "allexport":
			sc.allexport = t == "-o"
			i++
		case len(t) > 1 && (t[0] == '-' || t[0] == '+') && t[1] != '-' && t != "-o" && t != "+o" && strings.Contains(t, "a"):
			sc.allexport = t[0] == '-'
		}
	}
}

// commandVar parses the value of a variable whose value is a command
// line a program runs (GIT_SSH_COMMAND, see Roles.CommandVars), and of
// a git setting given through the environment whose value is one
// (GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=CMD, as git -c
// gives it). assigns are the command's other assignments, looked in
// before the scope's variables.
func (w *walker) commandVar(name, value string, assigns map[string]string, sc *scope) {
	if w.env.Roles == nil || value == "" {
		return
	}
	if w.env.Roles.cmdVars[name] {
		// less runs LESSOPEN's "|cmd %s" and "||cmd %s" and reads its output.
		w.script(strings.TrimLeft(value, "|"), w.sub(sc, sc.cwd), name, sc.depth+1)
		return
	}
	if key, val, ok := gitConfigPair(name, value, assigns, sc.vars); ok && w.env.Roles.cfgCmds[strings.ToLower(key)] {
		w.script(val, w.sub(sc, sc.cwd), "git config", sc.depth+1)
	}
}

// gitConfigPair is the git setting that name=value completes: the
// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n of one n, the other of the
// two found in assigns or vars.
func gitConfigPair(name, value string, assigns map[string]string, vars map[string]word) (key, val string, ok bool) {
	other := func(n string) (string, bool) {
		if v, ok := assigns[n]; ok {
			return v, true
		}
		v, ok := vars[n]
		return v.text, ok && !v.dynamic
	}
	if n, is := strings.CutPrefix(name, "GIT_CONFIG_VALUE_"); is {
		key, ok = other("GIT_CONFIG_KEY_" + n)
		return key, value, ok
	}
	if n, is := strings.CutPrefix(name, "GIT_CONFIG_KEY_"); is {
		val, ok = other("GIT_CONFIG_VALUE_" + n)
		return value, val, ok
	}
	return "", "", false
}

// setVar sets a variable in sc, copying the shared map first.
func (w *walker) setVar(sc *scope, name string, v word) {
	if _, ok := sc.vars[name]; !ok && len(sc.vars) >= MaxVars {
		w.fail(fmt.Sprintf("the command assigns more than %d variables", MaxVars))
		return
	}
	if !w.spend(0, len(sc.vars)*16+len(v.text)) {
		return
	}
	vars := make(map[string]word, len(sc.vars)+1)
	for k, x := range sc.vars {
		vars[k] = x
	}
	vars[name] = v
	sc.vars = vars
}

// prefixPath is the folder named by the static start of a dynamic word:
// /home/dev/.claude for ~/.claude/$F; "" when that start names no folder.
func (w *walker) prefixPath(wd word, cwd string) string {
	i := strings.LastIndexByte(wd.prefix, '/')
	if i < 0 {
		return ""
	}
	return w.abs(wd.prefix[:i+1], cwd)
}

// loopVar is what a for loop's variable is known to be: its one item, or
// (unknown) starting with what all the items start with, so that
// `for f in ~/.agentjail/policies/*.rego x; do rm "$f"; done` is still
// seen inside ~/.agentjail/policies.
func (w *walker) loopVar(wi *syntax.WordIter, sc *scope) word {
	var items []word
	for _, it := range wi.Items {
		for _, f := range w.fields(it, sc.cwd, sc.vars) {
			// The shell hands on a glob's matches, not the glob.
			if !f.matched {
				items = append(items, f)
			}
		}
	}
	if len(items) == 1 {
		return items[0]
	}
	// Unknown which item, but one of them: its pattern is theirs.
	v := word{text: "$" + wi.Name.Value, dynamic: true, suffixAt: len(wi.Name.Value) + 1}
	var alts []string
	for _, it := range items {
		if it.pattern() {
			alts = append(alts, it.re)
		} else {
			alts = append(alts, regexp.QuoteMeta(it.text))
		}
	}
	if len(alts) > 0 && w.spend(0, len(alts)*8) {
		v.re = "(?:" + strings.Join(alts, "|") + ")"
	}
	for i, it := range items {
		start := it.text
		if it.dynamic {
			start = it.prefix
		}
		if i == 0 {
			v.prefix = start
			continue
		}
		n := 0
		for n < len(v.prefix) && n < len(start) && v.prefix[n] == start[n] {
			n++
		}
		v.prefix = v.prefix[:n]
	}
	return v
}
