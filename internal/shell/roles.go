package shell

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Roles is what the policy pack says programs do with their arguments
// (data.agentjail.program_roles and its sibling tables). The walker
// applies it without knowing any program: which options take a value,
// which operands are free text, which values are credentials the program
// uses rather than reads, which move its directory, which make it a dry
// run. A nil *Roles gives the plain reading: every operand may be a path.
type Roles struct {
	// Programs are the argument roles of each program, by name.
	Programs map[string]ProgramRoles `json:"programs"`
	// Printers are programs whose output is their own operands, so that
	// `$(realpath X)` and `printf '%s\n' X | xargs rm` are seen to hand X
	// on: "operands" (echo, ls, realpath), "format" (printf: past the
	// format), "under" (find: things under its roots) or "cwd" (pwd). A
	// key may also be a program and its first words ("git rev-parse
	// --show-toplevel").
	Printers map[string]string `json:"printers"`
	// Filters pass items through unchanged or fewer (grep -v, head, sort),
	// so the items of `ls X | grep -v pub` are still ls's.
	Filters []string `json:"filters"`
	// CommandVars are environment variables whose value is a command line
	// a program runs (GIT_SSH_COMMAND): the value is parsed as one.
	CommandVars []string `json:"command_vars"`
	// ConfigCommands are configuration keys (lowercase) whose value is a
	// command line, for options of the "config" role: git -c
	// core.sshCommand=...
	ConfigCommands []string `json:"config_commands"`
	// Examples are paths of well-known secret files ("~/.aws/credentials",
	// "/etc/shadow"). A glob operand that matches one is taken to name it
	// (Command.Paths); a word only known when it runs that may be one is
	// listed in Command.Maybe.
	Examples []string `json:"examples"`
	// Ambiguous are file names too common to say what a dynamic word
	// names on their own ("config": $OUT/config is not ~/.kube/config).
	Ambiguous []string `json:"ambiguous"`
	// Code are the patterns that find paths, deletions, commands and the
	// like in interpreter code strings (see code.go).
	Code CodeRoles `json:"code"`
	// Runners are the package runners and interpreters that run the tool
	// named after them (npx X, pnpm dlx X, bundle exec X, node X.js), each
	// with the words that come before the tool (dlx, exec), none when the
	// tool comes first. The pack derives it from verbs.rego's
	// runner_prefixes, the table its verb rules read.
	Runners map[string][]string `json:"runners"`
	// Wrappers are the programs that run another one (sudo, nice,
	// timeout, taskset, chroot ...), by name: see Wrapper. The pack's
	// wrappers table (policies/wrappers.rego).
	Wrappers map[string]Wrapper `json:"wrappers"`
	// Writes are, by program, the files it writes (see WriteRoles): the
	// pack derives it from file_functions.rego's table.
	Writes map[string]WriteRoles `json:"writes"`
	// Unpack are the programs that unpack an archive or apply a patch,
	// by program or "program subcommand" (see UnpackRoles): with
	// Env.Look, what they write is read from their input.
	Unpack map[string]UnpackRoles `json:"unpack"`

	once      sync.Once
	filters   map[string]bool
	cmdVars   map[string]bool
	cfgCmds   map[string]bool
	ambiguous map[string]bool
	code      compiledCode
	writes    map[string]compiledWrites
}

// ProgramRoles are the roles of one program's (or subcommand's)
// arguments. Option names are written without dashes: "m", "message".
type ProgramRoles struct {
	// Value are the options that take a value, which may name a file.
	Value []string `json:"value"`
	// Text are options whose value is free text: a commit message, a
	// title, a search pattern. It is never a path.
	Text []string `json:"text"`
	// Use are options whose value is a credential the program uses
	// without revealing it (ssh -i KEY, --kubeconfig FILE).
	Use []string `json:"use"`
	// Dir are options whose value is the directory the program works in
	// (tar -C, git -C, make -C, npm --prefix).
	Dir []string `json:"dir"`
	// Command are options whose value is a command line the program runs
	// (rsync -e 'ssh -i KEY').
	Command []string `json:"command"`
	// Code are options whose value is code in the program's own language
	// (python -c, node -e, ruby -e, php -r).
	Code []string `json:"code"`
	// Config are options whose value is key=value configuration (git
	// -c); a key in Roles.ConfigCommands holds a command line.
	Config []string `json:"config"`
	// Pattern are options that give what the leading operands would
	// otherwise hold (grep -e, sed -e, awk -f): when one is given, the
	// TextOperands, CodeOperands and CommandOperands roles do not apply.
	Pattern []string `json:"pattern"`
	// TextOperands, CodeOperands and CommandOperands count the leading
	// operands that are free text (grep's pattern), code (awk's program)
	// or a command line (trap's action); -1 means all of them.
	TextOperands    int `json:"text_operands"`
	CodeOperands    int `json:"code_operands"`
	CommandOperands int `json:"command_operands"`
	// StdinCode is set for interpreters that read their program from a
	// here-document when given none (python3 - <<EOF).
	StdinCode bool `json:"stdin_code"`
	// DryRun are the options that make the program only show what it
	// would do (git push -n, cargo publish --dry-run).
	DryRun []string `json:"dry_run"`
	// Subcommands are the roles after a subcommand word (git commit, gh
	// pr create), which replace these.
	Subcommands map[string]ProgramRoles `json:"subcommands"`
	// Nested says the program carries a command line that it runs, in
	// a container, on other hosts or here (kubectl exec POD -- CMD,
	// ansible -a CMD, doppler run -- CMD): see NestedRoles.
	Nested *NestedRoles `json:"nested"`
}

func (r *Roles) init() {
	r.once.Do(func() {
		r.filters = set(r.Filters)
		r.cmdVars = set(r.CommandVars)
		r.cfgCmds = set(r.ConfigCommands)
		r.ambiguous = set(r.Ambiguous)
		r.code = r.Code.compile()
		r.writes = compileWrites(r.Writes)
	})
}

func set(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

// program is the roles row of a program name (nil when none).
func (r *Roles) program(name string) *ProgramRoles {
	if r == nil {
		return nil
	}
	if p, ok := r.Programs[name]; ok {
		return &p
	}
	return nil
}

// role is what an option does with its value.
type role int

const (
	roleNone role = iota // a flag without a value
	roleValue
	roleText
	roleUse
	roleDir
	roleCommand
	roleCode
	roleConfig
)

// optionRole is the role of option name in p.
func (p *ProgramRoles) optionRole(name string) role {
	switch {
	case p.Nested != nil && p.Nested.kind(name, false) != "":
		// A command line to run: judged as one (nested.go), not a path.
		return roleText
	case contains(p.Text, name):
		return roleText
	case contains(p.Use, name):
		return roleUse
	case contains(p.Dir, name):
		return roleDir
	case contains(p.Command, name):
		return roleCommand
	case contains(p.Code, name):
		return roleCode
	case contains(p.Config, name):
		return roleConfig
	case contains(p.Value, name):
		return roleValue
	}
	return roleNone
}

// leading is the role of the n-th operand (from 0) given p's counts.
func (p *ProgramRoles) leading(n int, patternGiven bool) role {
	if patternGiven {
		return roleNone
	}
	in := func(count int) bool { return count < 0 || n < count }
	switch {
	case in(p.TextOperands):
		return roleText
	case in(p.CodeOperands):
		return roleCode
	case in(p.CommandOperands):
		return roleCommand
	}
	return roleNone
}

// examplesAbs are Roles.Examples with ~ expanded, for this parse.
func (w *walker) examplesAbs() []string {
	if w.examples != nil || w.env.Roles == nil {
		return w.examples
	}
	w.examples = make([]string, 0, len(w.env.Roles.Examples))
	for _, e := range w.env.Roles.Examples {
		if e == "~" || strings.HasPrefix(e, "~/") {
			if w.env.Home == "" {
				continue
			}
			e = w.env.Home + e[1:]
		}
		w.examples = append(w.examples, e)
	}
	// The daemon's own home and socket, where they were moved.
	for _, name := range []string{"AGENTJAIL_HOME", "AGENTJAIL_SOCKET"} {
		if v := w.env.Vars[name]; strings.HasPrefix(v, "/") {
			w.examples = append(w.examples, filepath.Clean(v))
		}
	}
	return w.examples
}

// matchExamples lists the known secret files a glob or dynamic word may
// name. re is the word's pattern (see word.re), made absolute against
// cwd when its static start is relative. A dynamic word whose static
// part is only a common file name ($OUT/config) names nothing known.
func (w *walker) matchExamples(wd word, cwd string) []string {
	if w.env.Roles == nil || wd.re == "" {
		return nil
	}
	// key=@FILE, --opt=FILE, @FILE: the file is what follows.
	static := wd.text
	if wd.dynamic {
		static = wd.prefix
	} else if i := strings.IndexAny(static, "*?["); i >= 0 {
		static = static[:i]
	}
	lead := ""
	if i := strings.LastIndexAny(static, "=@"); i >= 0 {
		lead = static[:i+1]
	}
	rest := static[len(lead):]
	if wd.dynamic && strings.Contains(wd.re, ".*") {
		// A word that starts unknown must end in something telling:
		// $D/credentials, not $F or $OUT/config.
		suffix := ""
		if wd.suffixAt >= 0 && wd.suffixAt <= len(wd.text) {
			suffix = strings.Trim(wd.text[wd.suffixAt:], "/\"'")
		}
		if !strings.Contains(rest, "/") && (suffix == "" || w.env.Roles.ambiguous[suffix] || wd.re == ".*") {
			return nil
		}
	}
	src := wd.re
	if rest != "" && !strings.HasPrefix(rest, "/") {
		// A relative start is inside cwd.
		src = regexp.QuoteMeta(lead) + regexp.QuoteMeta(strings.TrimSuffix(cwd, "/")+"/") + src[len(regexp.QuoteMeta(lead)):]
	}
	if !w.spend(0, len(src)*4) {
		return nil
	}
	re, err := regexp.Compile("^(?:" + src + ")$")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range w.examplesAbs() {
		if re.MatchString(lead + e) {
			out = append(out, e)
		}
	}
	if wd.gl != "" && lead == "" {
		out = append(out, w.examplesUnder(wd.gl, cwd)...)
	}
	return out
}

// examplesUnder lists, for a glob whose leading folders match a known
// place (~/.agentjai[l]/policies/x.rego), the path under that place the
// rest names: the place counts as named even where nothing is there yet.
func (w *walker) examplesUnder(gl, cwd string) []string {
	if !strings.HasPrefix(gl, "/") {
		gl = escapeGlob(strings.TrimSuffix(cwd, "/")) + "/" + gl
	}
	segs := strings.Split(gl, "/")
	if len(segs) > 32 {
		return nil
	}
	var out []string
	globbed := false
	for k := 1; k < len(segs)-1; k++ {
		globbed = globbed || hasGlob(segs[k])
		if !globbed {
			continue
		}
		src := globRE(strings.Join(segs[:k+1], "/"))
		if !w.spend(0, len(src)*4) {
			return out
		}
		re, err := regexp.Compile("^(?:" + src + ")$")
		if err != nil {
			return out
		}
		rest := unescape(strings.Join(segs[k+1:], "/"))
		for _, e := range w.examplesAbs() {
			if re.MatchString(e) && rest != "" {
				out = append(out, e+"/"+rest)
			}
		}
	}
	return out
}

// globRE turns an unquoted glob literal into a regular expression: * and
// ? stay within one path element, [...] is a class, the rest is literal.
func globRE(lit string) string {
	var sb strings.Builder
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		switch c {
		case '\\':
			if i+1 < len(lit) {
				i++
				sb.WriteString(regexp.QuoteMeta(lit[i : i+1]))
			}
		case '*':
			// ** (globstar, and the agents' Glob and Grep tools) crosses
			// folders; * stays within one.
			if i+1 < len(lit) && lit[i+1] == '*' {
				i++
				if i+1 < len(lit) && lit[i+1] == '/' {
					i++
					sb.WriteString(`(?:.*/)?`)
					continue
				}
				sb.WriteString(`.*`)
				continue
			}
			sb.WriteString(`[^/]*`)
		case '?':
			sb.WriteString(`[^/]`)
		case '[':
			j := classEnd(lit, i)
			if j < 0 {
				sb.WriteString(`\[`)
				continue
			}
			sb.WriteString(classRE(lit[i+1 : j]))
			i = j
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return sb.String()
}

// GlobExamples lists the well-known secret files (Roles.Examples) an
// absolute glob pattern matches: what a Glob or Grep tool's pattern may
// read. ** crosses folders.
func (r *Roles) GlobExamples(pattern, home string) []string {
	if r == nil || pattern == "" || !hasGlob(pattern) {
		return nil
	}
	r.init()
	w := &walker{env: Env{Home: home, Roles: r}, workLimit: WorkPerByte*len(pattern) + WorkBase}
	return w.matchExamples(word{text: pattern, glob: true, re: globRE(pattern)}, "/")
}

// RunnerTool is where the tool that program name runs starts in args,
// when name is one of Runners: the first operand past the runner's own
// options (and their values, by name's roles row) and past one of its
// words (dlx, exec) when it has some. ok is false for any other program
// or when no tool is named.
func (r *Roles) RunnerTool(name string, args []string) (int, bool) {
	if r == nil {
		return 0, false
	}
	subs, isRunner := r.Runners[name]
	if !isRunner {
		return 0, false
	}
	p := r.program(name)
	subSeen := len(subs) == 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return i + 1, true
			}
			return 0, false
		case len(a) > 1 && a[0] == '-':
			// An option; skip its value when the roles row says it
			// takes one and it is not attached (--opt=v, -ov).
			opt := strings.TrimLeft(a, "-")
			if strings.Contains(opt, "=") || (a[1] != '-' && len(opt) > 1) {
				continue
			}
			if p != nil && p.optionRole(opt) != roleNone {
				i++
			}
		case !subSeen && contains(subs, a):
			subSeen = true
		default:
			// Not one of the runner's words: yarn X and pnpm X run a
			// tool X directly, and any other runner would refuse X, so
			// reading X as the tool errs on the side of judging it.
			return i, true
		}
	}
	return 0, false
}
