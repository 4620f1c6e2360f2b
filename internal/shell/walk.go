package shell

import (
	"fmt"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// walker collects the simple commands of a command line, in the order
// they appear.
type walker struct {
	env Env
	out []Command
	err string
}

// scope is what a command inherits from where it stands.
type scope struct {
	cwd       string
	via       string
	depth     int
	remote    bool
	pipeFrom  []string
	redirects []Redirect // of an enclosing compound command: { ...; } > f
}

func (w *walker) fail(msg string) {
	if w.err == "" {
		w.err = msg
	}
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
	// Redirections of a compound command apply to every command inside.
	inner := *sc
	if _, isCall := s.Cmd.(*syntax.CallExpr); !isCall && len(s.Redirs) > 0 {
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
		sc.cwd = inner.cwd
	case *syntax.Subshell:
		sub := inner // a subshell's cd does not leak out
		w.stmts(c.Stmts, &sub)
	case *syntax.Block:
		w.stmts(c.Stmts, &inner)
		sc.cwd = inner.cwd
	case *syntax.IfClause:
		for clause := c; clause != nil; clause = clause.Else {
			w.stmts(clause.Cond, &inner)
			w.stmts(clause.Then, &inner)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond, &inner)
		w.stmts(c.Do, &inner)
	case *syntax.ForClause:
		w.substIn(c.Loop, &inner)
		w.stmts(c.Do, &inner)
	case *syntax.CaseClause:
		w.substIn(c.Word, &inner)
		for _, item := range c.Items {
			w.stmts(item.Stmts, &inner)
		}
	case *syntax.FuncDecl:
		// The body runs whenever the function is called; assume it is.
		w.stmt(c.Body, &inner)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			w.stmt(c.Stmt, &inner)
		}
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, &inner)
	case *syntax.DeclClause:
		// export/declare/local/readonly: values may run substitutions.
		w.substIn(c, &inner)
	default:
		// [[ ]], (( )), let: only their substitutions run commands.
		w.substIn(c, &inner)
	}
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
	var names []string
	for _, p := range parts {
		member := *sc // each side of a pipe runs in a subshell
		member.pipeFrom = append([]string(nil), names...)
		first := len(w.out)
		w.stmt(p, &member)
		for _, cmd := range w.out[first:] {
			if cmd.Depth == sc.depth && cmd.Via == sc.via {
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
	cmd := Command{Cwd: sc.cwd, Subst: subst}
	for _, a := range ce.Assigns {
		if a.Name == nil {
			continue
		}
		if cmd.Assigns == nil {
			cmd.Assigns = map[string]string{}
		}
		v := ""
		if a.Value != nil {
			v = w.word(a.Value, sc.cwd).text
		}
		cmd.Assigns[a.Name.Value] = v
	}
	var words []word
	for _, arg := range ce.Args {
		words = append(words, w.fields(arg, sc.cwd)...)
	}
	cmd.Redirects = append(append([]Redirect(nil), sc.redirects...), w.redirects(s.Redirs, sc)...)
	if len(words) == 0 {
		// Only assignments (and their substitutions, walked above).
		return
	}
	w.resolve(cmd, words, s, sc)
	w.changeDir(words, sc)
}

// changeDir follows `cd DIR` and `pushd DIR`, so that in
// `cd ~ && cat .aws/credentials` the second path is seen as it is.
func (w *walker) changeDir(words []word, sc *scope) {
	if name := words[0].text; name != "cd" && name != "pushd" {
		return
	}
	var target *word
	for i := 1; i < len(words); i++ {
		if t := words[i].text; t == "--" || (strings.HasPrefix(t, "-") && t != "-") {
			continue
		}
		target = &words[i]
		break
	}
	switch {
	case target == nil:
		sc.cwd = w.env.Home
	case target.dynamic || target.text == "-":
		// Unknown: keep the last known directory.
	default:
		sc.cwd = w.abs(target.text, sc.cwd)
	}
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
				rd.Target = w.word(r.Hdoc, sc.cwd).text
			}
		case syntax.WordHdoc:
			rd.Target = w.word(r.Word, sc.cwd).text
		case syntax.DplIn, syntax.DplOut:
			rd.Target = w.word(r.Word, sc.cwd).text
		default:
			wd := w.word(r.Word, sc.cwd)
			rd.Target = wd.text
			if !wd.dynamic {
				rd.Path = w.abs(wd.text, sc.cwd)
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
	cmd.Via, cmd.Depth, cmd.Remote = sc.via, sc.depth, sc.remote
	cmd.PipeFrom = sc.pipeFrom
	cmd.Writes = writes(&cmd)
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
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
}
