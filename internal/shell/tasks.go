package shell

import (
	"encoding/json"
	"regexp"
	"strings"
)

// A task runner runs commands written in a file of the folder it runs in:
// make a Makefile's recipes, npm a package.json's scripts, just a
// justfile's recipes, direnv an .envrc. Where the commands sit in each
// kind of file is the same knowledge as the pack's written_files rows
// (policies/written.rego: makefile, npm_manifest, justfile, direnv),
// which judge those files when they are written; here the runner's
// arguments say which of them run.
type taskRunner struct {
	// files are the names looked for in the folder, in the runner's order.
	files []string
	// tasks reads which commands run, given the file's text and the
	// runner's operands; via names them ("make build").
	tasks func(text string, c *Command) (lines []string, via string)
}

var taskRunners map[string]*taskRunner

func init() {
	pkg := []string{"package.json"}
	taskRunners = map[string]*taskRunner{
		"make":   {files: []string{"GNUmakefile", "makefile", "Makefile"}, tasks: makeTasks},
		"gmake":  {files: []string{"GNUmakefile", "makefile", "Makefile"}, tasks: makeTasks},
		"npm":    {files: pkg, tasks: packageTasks},
		"pnpm":   {files: pkg, tasks: packageTasks},
		"yarn":   {files: pkg, tasks: packageTasks},
		"bun":    {files: pkg, tasks: packageTasks},
		"just":   {files: []string{"justfile", "Justfile", ".justfile"}, tasks: justTasks},
		"direnv": {files: []string{".envrc"}, tasks: envrcTasks},
	}
}

// task judges the commands a task runner's file runs, at out[n].
func (w *walker) task(n int, tr *taskRunner, sc *scope) {
	c := w.out[n]
	dir := c.Cwd
	var names []string
	switch c.Name {
	case "make", "gmake":
		if f := optionValue(c.Args, "f", "file", "makefile"); f != "" {
			names = []string{f}
		}
	case "just":
		if f := optionValue(c.Args, "f", "justfile"); f != "" {
			names = []string{f}
		}
	case "direnv":
		if len(c.Operands) == 0 || !contains([]string{"allow", "permit", "grant"}, c.Operands[0]) {
			return
		}
		if len(c.Operands) > 1 {
			p := w.abs(expandTilde(c.Operands[1], w.env.Home), c.Cwd)
			if base(p) == ".envrc" {
				names = []string{p}
			} else {
				dir = p
			}
		}
	}
	if names == nil {
		names = tr.files
	}
	for _, name := range names {
		p := w.abs(expandTilde(name, w.env.Home), dir)
		text, found, why := w.fileContent(p)
		if why != "" {
			w.unread(n, p, why)
			return
		}
		if !found {
			continue
		}
		lines, via := tr.tasks(text, &c)
		if len(lines) > 0 {
			sub := w.sub(sc, dir)
			w.runText(n, p, lines, via, sub)
		}
		return
	}
}

// optionValue is the value of the first of names given in args (-f X,
// -fX, --file X, --file=X).
func optionValue(args []string, names ...string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		for _, n := range names {
			flag := "-" + n
			if len(n) > 1 {
				flag = "--" + n
			}
			switch {
			case a == flag && i+1 < len(args):
				return args[i+1]
			case len(n) > 1 && strings.HasPrefix(a, flag+"="):
				return a[len(flag)+1:]
			case len(n) == 1 && strings.HasPrefix(a, flag) && len(a) > 2 && !strings.HasPrefix(a, "--"):
				return a[2:]
			}
		}
	}
	return ""
}

// ---- make

var (
	makeRule   = regexp.MustCompile(`^([^\t#=:][^=:]*?)\s*::?\s*(?:([^=].*))?$`)
	makeGoal   = regexp.MustCompile(`^\.DEFAULT_GOAL\s*:?=\s*(\S+)`)
	makePrefix = regexp.MustCompile(`^\t[@+-]*\s*`)
	makeVar    = regexp.MustCompile(`\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`)
	makeAuto   = regexp.MustCompile(`\$[@<^?*+|]`)
)

// MakeSyntax rewrites a Makefile recipe line to the shell's: $(VAR) and
// ${VAR} become ${VAR}, the automatic variables ($@, $<, $^ ...) a word,
// $$ a $.
func MakeSyntax(c string) string {
	c = strings.ReplaceAll(c, "$$", "\x00")
	c = makeVar.ReplaceAllString(c, "$${$1}")
	c = makeAuto.ReplaceAllString(c, "target")
	return strings.ReplaceAll(c, "\x00", "$")
}

// makeTasks are the recipe lines of the goals (the operands that are not
// VAR=value, else the first target) and of what they depend on.
func makeTasks(text string, c *Command) ([]string, string) {
	recipes := map[string][]string{}
	deps := map[string][]string{}
	first, goal := "", ""
	var current []string
	for _, l := range logicalLines(text) {
		if strings.HasPrefix(l, "\t") {
			for _, t := range current {
				recipes[t] = append(recipes[t], MakeSyntax(makePrefix.ReplaceAllString(l, "")))
			}
			continue
		}
		current = nil
		if m := makeGoal.FindStringSubmatch(l); m != nil {
			goal = m[1]
			continue
		}
		m := makeRule.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(l, " ") {
			continue
		}
		pre, inline, _ := strings.Cut(m[2], ";")
		for _, t := range strings.Fields(m[1]) {
			if strings.Contains(t, "$") {
				continue
			}
			current = append(current, t)
			deps[t] = append(deps[t], strings.Fields(pre)...)
			if first == "" && !strings.HasPrefix(t, ".") && !strings.Contains(t, "%") {
				first = t
			}
			if strings.TrimSpace(inline) != "" {
				recipes[t] = append(recipes[t], MakeSyntax(strings.TrimSpace(inline)))
			}
		}
	}
	var goals []string
	for _, o := range c.Operands {
		if !strings.Contains(o, "=") {
			goals = append(goals, o)
		}
	}
	if len(goals) == 0 && goal != "" {
		goals = []string{goal}
	}
	if len(goals) == 0 && first != "" {
		goals = []string{first}
	}
	return follow(goals, deps, recipes), strings.TrimSpace("make " + strings.Join(goals, " "))
}

// follow lists the lines of each goal after those of what it depends on,
// each target once.
func follow(goals []string, deps, lines map[string][]string) []string {
	var out []string
	seen := map[string]bool{}
	var visit func(t string)
	visit = func(t string) {
		if seen[t] || len(seen) >= maxTaskTargets {
			return
		}
		seen[t] = true
		for _, d := range deps[t] {
			visit(d)
		}
		out = append(out, lines[t]...)
	}
	for _, g := range goals {
		visit(g)
	}
	return out
}

// logicalLines joins backslash-continued lines; a recipe line keeps its
// leading tab.
func logicalLines(text string) []string {
	var out []string
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if strings.HasSuffix(l, "\\") {
			b.WriteString(l[:len(l)-1])
			b.WriteByte(' ')
			continue
		}
		b.WriteString(l)
		out = append(out, b.String())
		b.Reset()
	}
	return out
}

// ---- package.json

// packageLifecycle are the scripts `npm install` (and ci, yarn, pnpm
// install) runs of the project's own package.json.
var packageLifecycle = []string{"preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"}

// packageBuiltins are subcommands that never run a script of the same name.
var packageBuiltins = map[string]bool{"add": true, "remove": true, "rm": true, "uninstall": true, "update": true, "up": true, "upgrade": true, "exec": true, "dlx": true, "x": true, "create": true, "init": true, "link": true, "publish": true, "pack": true, "audit": true, "outdated": true, "why": true, "list": true, "ls": true, "info": true, "view": true, "config": true, "set": true, "cache": true, "login": true, "logout": true, "version": true, "help": true, "bin": true, "global": true, "workspace": true, "workspaces": true, "import": true, "store": true, "patch": true, "node": true, "dedupe": true, "prune": true, "rebuild": true, "explain": true, "fund": true, "whoami": true}

// packageTasks are the scripts a package manager's operands run, each
// with its pre and post script.
func packageTasks(text string, c *Command) ([]string, string) {
	var pkg struct {
		Scripts map[string]any `json:"scripts"`
	}
	if json.Unmarshal([]byte(text), &pkg) != nil || len(pkg.Scripts) == 0 {
		return nil, ""
	}
	ops := c.Operands
	var names []string
	sub := ""
	if len(ops) > 0 {
		sub = ops[0]
	}
	switch {
	case sub == "run" || sub == "run-script" || sub == "rum" || sub == "urn":
		if len(ops) > 1 {
			names = []string{ops[1]}
		}
	case sub == "test" || sub == "t" || sub == "tst" || sub == "start" || sub == "stop" || sub == "restart":
		names = []string{map[string]string{"t": "test", "tst": "test"}[sub]}
		if names[0] == "" {
			names[0] = sub
		}
	case (sub == "install" || sub == "i" || sub == "ci") && len(ops) == 1, sub == "" && c.Name != "bun" && c.Name != "npm":
		names = packageLifecycle
		sub = "install"
	case c.Name != "npm" && !packageBuiltins[sub]:
		if _, ok := pkg.Scripts[sub]; ok {
			names = []string{sub}
		}
	}
	var out []string
	for _, n := range names {
		for _, s := range []string{"pre" + n, n, "post" + n} {
			if v, ok := pkg.Scripts[s].(string); ok && v != "" && len(out) < maxTaskTargets {
				out = append(out, v)
			}
		}
	}
	via := c.Name + " run " + strings.Join(names, " ")
	if sub == "install" {
		via = c.Name + " install"
	}
	return out, via
}

// ---- justfile

var (
	justRecipe = regexp.MustCompile(`^@?([A-Za-z_][\w-]*)\b[^:=]*:([^=].*)?$`)
	justInterp = regexp.MustCompile(`\{\{\s*([A-Za-z_]\w*)\s*\}\}`)
	justExpr   = regexp.MustCompile(`\{\{[^}]*\}\}`)
)

// justTasks are the body lines of the recipe named by the first operand
// (else the first recipe) and of the recipes it depends on. A recipe
// with a #! line of another language than the shell is left out.
func justTasks(text string, c *Command) ([]string, string) {
	bodies := map[string][]string{}
	deps := map[string][]string{}
	first, current := "", ""
	for _, l := range logicalLines(text) {
		if current != "" && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) {
			t := strings.TrimSpace(l)
			if t == "" || (strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!")) {
				continue
			}
			t = strings.TrimLeft(t, "@-")
			t = justInterp.ReplaceAllString(t, "$${$1}")
			t = justExpr.ReplaceAllString(t, "${EXPR}")
			bodies[current] = append(bodies[current], t)
			continue
		}
		current = ""
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "[") {
			continue
		}
		m := justRecipe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		current = m[1]
		if first == "" {
			first = current
		}
		for _, d := range strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(m[2])) {
			if !strings.ContainsAny(d, `"'`) && d != "&&" {
				deps[current] = append(deps[current], d)
			}
		}
	}
	// A #! recipe runs its body with that interpreter.
	for name, b := range bodies {
		if len(b) > 0 && strings.HasPrefix(b[0], "#!") {
			interp := base(strings.Fields(b[0][2:] + " sh")[0])
			if f := strings.Fields(b[0][2:]); interp == "env" && len(f) > 1 {
				interp = base(f[1])
			}
			if !shells[interp] {
				delete(bodies, name)
				continue
			}
			bodies[name] = []string{strings.Join(b[1:], "\n")}
		}
	}
	goal := first
	for _, o := range c.Operands {
		if !strings.Contains(o, "=") {
			goal = o
			break
		}
	}
	if goal == "" {
		return nil, ""
	}
	return follow([]string{goal}, deps, bodies), "just " + goal
}

// ---- direnv

// envrcTasks is the whole .envrc, which direnv runs on every cd into it.
func envrcTasks(text string, c *Command) ([]string, string) {
	return []string{text}, "direnv .envrc"
}
