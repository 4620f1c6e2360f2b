package agentconfig

import (
	"cmp"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/internal/hookcmd"
)

// Launch is a nested agent that a shell command would start with
// agentjail's hook switched off or unverifiable.
type Launch struct {
	Program string
	Verdict string // "deny", or "ask" when agentjail cannot tell
	Problem string
	// Session is set when no agent starts now, but the command changes
	// the environment the user's session starts the next ones with
	// (systemctl --user set-environment HOME=...).
	Session bool
}

// Map is l as a JSON-shaped value for the policy input.
func (l Launch) Map() map[string]any {
	m := map[string]any{"program": l.Program, "verdict": l.Verdict, "problem": l.Problem}
	if l.Session {
		m["session"] = true
	}
	return m
}

// simpleEnv are the variables that switch off every hook of any Claude
// Code that inherits them, whatever program the command runs first.
var simpleEnv = []string{"CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE"}

// Cmd is one command of a parsed shell command line.
type Cmd struct {
	Name    string            // the program's base name
	Args    []string          // the words after it
	Assigns map[string]string // its leading VAR=value words, env's included
	Env     map[string]string // variables exported before it in the command line
	Cwd     string            // where it runs
}

// environment is what the command starts with, as far as the command
// line changes it: what it exported, then the command's own assignments.
func (c Cmd) environment() map[string]string {
	if len(c.Env) == 0 {
		return c.Assigns
	}
	out := make(map[string]string, len(c.Env)+len(c.Assigns))
	for k, v := range c.Env {
		out[k] = v
	}
	for k, v := range c.Assigns {
		out[k] = v
	}
	return out
}

// Nested lists the nested agents a shell command line would start with
// agentjail's hook switched off (or with settings it cannot check): text
// is the command line, cmds its commands as parsed.
// home is the user's home directory, where each agent's real
// configuration root is.
// bins, when not nil, knows the agents' installed programs, so that a
// program that is one by another name counts as that agent.
// read, when not nil, reads the hook files of a configuration root the
// command moves an agent to.
func Nested(text, home string, cmds []Cmd, bins *Binaries, read ReadFunc) []Launch {
	var out []Launch
	exported := Exported(text)
	copies := map[string]string{}
	for _, k := range simpleEnv {
		if slices.Contains(exported, k) {
			out = append(out, Launch{Program: "claude", Verdict: "deny", Problem: fmt.Sprintf("exporting %s switches off every hook of any Claude Code started from this shell, agentjail's included", k)})
		}
	}
	for _, c := range cmds {
		env := c.environment()
		l := nestedSimple(env)
		prog := Program(c.Name)
		if prog == "" {
			prog = copies[absIn(c.Name, c.Cwd)]
		}
		if prog == "" {
			prog = bins.Agent(c.Name, c.Cwd, env["PATH"])
		}
		copied(c, bins, copies)
		if prog != "" && !infoOnly(c.Args) {
			l = cmp.Or(l, movedRoot(prog, env, home, c.Cwd, read))
		}
		if prog != "" {
			l = cmp.Or(l, nestedSwitch(prog, c.Args, env))
		}
		switch prog {
		case "claude":
			l = cmp.Or(l, nestedClaude(c.Args, env, exported))
		case "codex":
			l = cmp.Or(l, nestedCodex(c.Args, env), codexProfile(c.Args, env, home, read))
		}
		// The same command may come twice, as itself and as the tool a
		// runner runs.
		l = cmp.Or(l, sessionEnv(c, home, read))
		if l != nil && !slices.Contains(out, *l) {
			out = append(out, *l)
		}
	}
	return out
}

// copyCommands are the programs that make a file another one is, by
// copy or link: the last operand is what they make.
var copyCommands = []string{"cp", "ln", "install", "rsync"}

// copied records in copies the agent program c copies or links (cp
// $(which claude) ./helper), by the absolute path it makes.
func copied(c Cmd, bins *Binaries, copies map[string]string) {
	if !slices.Contains(copyCommands, path.Base(c.Name)) {
		return
	}
	var ops []string
	for _, a := range c.Args {
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	if len(ops) < 2 {
		return
	}
	dest := ops[len(ops)-1]
	for _, src := range ops[:len(ops)-1] {
		agent := cmp.Or(Program(src), copies[absIn(src, c.Cwd)], bins.Agent(src, c.Cwd, ""))
		if agent != "" {
			copies[absIn(dest, c.Cwd)] = agent
			copies[absIn(path.Join(dest, path.Base(src)), c.Cwd)] = agent
		}
	}
}

// absIn is p as an absolute path from cwd, when it names a file by path.
func absIn(p, cwd string) string {
	if !strings.Contains(p, "/") && cwd != "" {
		return path.Join(cwd, p)
	}
	if !path.IsAbs(p) {
		return path.Join(cwd, p)
	}
	return path.Clean(p)
}

// agentCLIs are the agents' command lines, from their facts: the names
// their programs are installed as, and their npm packages, which runners
// start (npx @anthropic-ai/claude-code, node
// .../node_modules/@openai/codex/bin/codex.js).
//
// Roots are the variables that move where the agent reads its
// configuration (and so its hooks) from, each with the place it names
// on an installed system: relative to the home directory, or absolute.
// An agent started with one of them pointing anywhere else reads
// settings where the installer never put agentjail's hook.
var agentCLIs = func() []agentCLI {
	var out []agentCLI
	for _, a := range agents.All {
		if len(a.Programs) == 0 {
			continue
		}
		c := agentCLI{agent: a.Programs[0], names: a.Programs, packages: a.Packages, config: a.Name}
		for _, r := range a.Roots {
			c.roots = append(c.roots, root{r.Var, r.Default, r.Files})
		}
		out = append(out, c)
	}
	return out
}()

// agentCLI is one agent's command line: the word that names it, the
// programs and npm packages that start it, its name in Judge's table of
// settings judges and its roots.
type agentCLI struct {
	agent    string
	names    []string
	packages []string
	config   string
	roots    []root
}

// root is one variable that moves an agent's configuration, and where
// it points when nothing moved it.
type root struct {
	name string
	real string // relative to the home directory unless absolute
	// files are where under the root the installer puts agentjail's
	// hook: a moved root whose files all still run it, no less guarded
	// than the user's own, is no escape.
	files []string
}

// RootVars are the variables that move some agent's configuration: an
// agent's environment exports them when it sets them at all.
func RootVars() []string {
	var out []string
	for _, a := range agentCLIs {
		for _, r := range a.roots {
			if !slices.Contains(out, r.name) {
				out = append(out, r.name)
			}
		}
	}
	return out
}

// movedRoot judges an agent started with a configuration root moved
// away from the user's real one, where agentjail's hook is installed.
// read, when not nil, reads the moved root's hook files; cwd is where
// the agent starts.
func movedRoot(agent string, env map[string]string, home, cwd string, read ReadFunc) *Launch {
	if home == "" {
		return nil
	}
	for _, a := range agentCLIs {
		if a.agent != agent {
			continue
		}
		for _, r := range a.roots {
			v, ok := env[r.name]
			if !ok {
				continue
			}
			want := r.real
			if !path.IsAbs(want) {
				want = path.Join(home, want)
			}
			got := expandHome(v, home)
			if got == want || got == want+"/" {
				continue
			}
			if got != "" && !path.IsAbs(got) && cwd != "" {
				got = path.Join(cwd, got)
			}
			if stillHooked(a.config, r.files, want, got, read) {
				continue
			}
			return &Launch{Program: agent, Verdict: "deny", Problem: fmt.Sprintf("%s started with %s=%s reads its settings from a place where agentjail's hook is not installed, so it would run unguarded", agent, r.name, v)}
		}
	}
	return nil
}

// stillHooked reports a moved root whose hook files exist, run
// agentjail's hook and are, by the agent's settings judge, no less
// guarded than the same files at the user's real root.
func stillHooked(config string, files []string, real, moved string, read ReadFunc) bool {
	if read == nil || len(files) == 0 || !path.IsAbs(moved) {
		return false
	}
	for _, f := range files {
		res, err := read(path.Join(moved, f))
		if err != nil || res == nil {
			return false
		}
		cur, err := read(path.Join(real, f))
		if err != nil {
			cur = nil
		}
		if path.Ext(f) == ".json" && !strings.Contains(string(res), hookcmd.Program) {
			return false
		}
		if judges[config](cur, res) != "" {
			return false
		}
	}
	return true
}

// expandHome is v with a leading ~ or $HOME as home, cleaned.
func expandHome(v, home string) string {
	v = strings.Trim(v, `"'`)
	for _, p := range []string{"~", "$HOME", "${HOME}"} {
		if v == p || strings.HasPrefix(v, p+"/") {
			v = home + v[len(p):]
		}
	}
	if v == "" {
		return v
	}
	return path.Clean(v)
}

// infoOnly: a launch that only prints and exits (claude --version,
// codex --help), and reads no hooks.
func infoOnly(args []string) bool {
	if len(args) != 1 {
		return false
	}
	switch args[0] {
	case "--version", "-v", "-V", "--help", "-h":
		return true
	}
	return false
}

// Program names the agent whose CLI word starts ("claude", "codex"), ""
// for any other: the program's name or a path to it (/opt/bin/claude,
// claude.exe), its npm package with or without a version
// (@anthropic-ai/claude-code@latest), a script inside that package, or a
// substitution that finds the program ($(which claude), $(command -v
// codex)), which is how the parser keeps such a word.
func Program(word string) string {
	word = strings.Trim(word, `"'`)
	if inner, ok := substitution(word); ok {
		fields := strings.Fields(inner)
		if len(fields) == 0 {
			return ""
		}
		return programName(strings.Trim(fields[len(fields)-1], `"'$()`+"`"))
	}
	for _, a := range agentCLIs {
		for _, pkg := range a.packages {
			if i := strings.Index(word, pkg); i >= 0 {
				if rest := word[i+len(pkg):]; rest == "" || rest[0] == '@' || rest[0] == '/' {
					return a.agent
				}
			}
		}
	}
	return programName(word)
}

// substitution is the command inside $(...) or `...`.
func substitution(word string) (string, bool) {
	switch {
	case strings.HasPrefix(word, "$(") && strings.HasSuffix(word, ")"):
		return word[2 : len(word)-1], true
	case len(word) > 1 && strings.HasPrefix(word, "`") && strings.HasSuffix(word, "`"):
		return word[1 : len(word)-1], true
	}
	return "", false
}

// programName is the agent a program path names by its base name.
func programName(word string) string {
	base := path.Base(word)
	for _, ext := range []string{".exe", ".cmd", ".js", ".cjs", ".mjs"} {
		base = strings.TrimSuffix(base, ext)
	}
	for _, a := range agentCLIs {
		if slices.Contains(a.names, base) {
			return a.agent
		}
	}
	return ""
}

// nestedSimple: variables that switch off every hook of a Claude Code
// started under them, whatever program the command runs first.
func nestedSimple(assigns map[string]string) *Launch {
	for _, k := range simpleEnv {
		if _, ok := assigns[k]; ok {
			return &Launch{Program: "claude", Verdict: "deny", Problem: fmt.Sprintf("%s switches off every hook of the Claude Code it starts, agentjail's included", k)}
		}
	}
	return nil
}

// nestedClaude judges the arguments and variables of one claude launch;
// exported are the variables the command line exports.
func nestedClaude(args []string, assigns map[string]string, exported []string) *Launch {
	deny := func(f string, a ...any) *Launch {
		return &Launch{Program: "claude", Verdict: "deny", Problem: fmt.Sprintf(f, a...)}
	}
	for _, k := range append(sortedAssigns(assigns), exported...) {
		if DisablingEnv(k) && k != "HOME" && k != "CLAUDE_CONFIG_DIR" {
			return deny("claude started with %s set would not run agentjail's hook, or run it against another daemon", k)
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		flag, value, hasValue := strings.Cut(a, "=")
		if !hasValue && i+1 < len(args) && (flag == "--settings" || flag == "--setting-sources") {
			value = args[i+1]
			i++
		}
		switch flag {
		case "--bare":
			return deny("claude --bare skips every hook, agentjail's included")
		case "--safe-mode":
			return deny("claude --safe-mode switches off every hook, agentjail's included")
		case "--setting-sources":
			sources := strings.Split(value, ",")
			for i := range sources {
				sources[i] = strings.TrimSpace(sources[i])
			}
			if !slices.Contains(sources, "user") {
				return deny("claude --setting-sources %s leaves out the user settings, where agentjail's hook is", value)
			}
		case "--settings":
			v := strings.TrimSpace(value)
			if !strings.HasPrefix(v, "{") {
				return &Launch{Program: "claude", Verdict: "ask", Problem: fmt.Sprintf("claude --settings %s loads settings from a file agentjail cannot check at the moment claude reads it", value)}
			}
			if p := judgeClaude(nil, []byte(v)); p != "" {
				return deny("claude --settings with these settings would %s", p)
			}
		}
	}
	return nil
}

func sortedAssigns(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// exportRE finds `export NAME=...` (declare -x, typeset -x) anywhere in a
// command line; the shell parser keeps no record of exports.
var exportRE = regexp.MustCompile(`(?:^|[\s;&|(])(?:export|(?:declare|typeset)\s+-[a-zA-Z]*x[a-zA-Z]*)\s+((?:[A-Za-z_][A-Za-z0-9_]*(?:=\S*)?\s+)*[A-Za-z_][A-Za-z0-9_]*)=`)

var nameRE = regexp.MustCompile(`(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)(?:=|\s|$)`)

// Exported lists the variables a command line exports that DisablingEnv
// reports.
func Exported(text string) []string {
	var out []string
	for _, m := range exportRE.FindAllStringSubmatch(text, -1) {
		for _, n := range nameRE.FindAllStringSubmatch(m[1], -1) {
			if DisablingEnv(n[1]) && !slices.Contains(out, n[1]) {
				out = append(out, n[1])
			}
		}
	}
	return out
}

// nestedCodex judges one codex launch: a -c/--config override or a
// --disable that switches hooks off or touches a hook's trust, and
// variables that point it at another configuration (CODEX_HOME, HOME)
// or redirect agentjail.
func nestedCodex(args []string, assigns map[string]string) *Launch {
	launch := func(verdict, f string, a ...any) *Launch {
		return &Launch{Program: "codex", Verdict: verdict, Problem: fmt.Sprintf(f, a...)}
	}
	for _, k := range sortedAssigns(assigns) {
		if DisablingEnv(k) && !strings.HasPrefix(k, "CLAUDE_") && k != "HOME" {
			return launch("deny", "codex started with %s set would not run agentjail's hook, or run it against another daemon", k)
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		flag, value, hasValue := strings.Cut(a, "=")
		if strings.HasPrefix(a, "-c") && len(a) > 2 && a[2] != '-' {
			flag, value, hasValue = "-c", a[2:], true // -ckey=value
		}
		if !hasValue && i+1 < len(args) && (flag == "-c" || flag == "--config" || flag == "--disable") {
			value = args[i+1]
			i++
		}
		switch flag {
		case "--disable":
			if slices.Contains(CodexHookFeatures, strings.TrimSpace(value)) {
				return launch("deny", "codex --disable %s switches off every hook, agentjail's included", value)
			}
		case "-c", "--config":
			key, v, _ := strings.Cut(value, "=")
			key, v = strings.Trim(strings.TrimSpace(key), `"'`), strings.TrimSpace(v)
			switch {
			case slices.Contains(CodexHookFeatures, strings.TrimPrefix(key, "features.")) && strings.HasPrefix(key, "features.") && v != "true":
				return launch("deny", "codex -c %s switches off every hook, agentjail's included", value)
			case key == "features" && strings.Contains(v, "hooks"):
				return launch("deny", "codex -c %s replaces the features that switch its hooks on", value)
			case key == "hooks" || strings.HasPrefix(key, "hooks."):
				return launch("deny", "codex -c %s overrides its hooks or their trust from the command line, past agentjail's hook", value)
			}
		}
	}
	return nil
}

// sessionEnvCommands are the programs that change the environment of
// the user's session manager, which every agent it starts later
// inherits, and the verb each needs ("" for none): each takes NAME=VALUE
// or NAME (the value then from the command's own environment), except
// launchctl setenv NAME VALUE.
var sessionEnvCommands = map[string][]string{
	"systemctl":                          {"set-environment", "import-environment"},
	"dbus-update-activation-environment": {""},
	"launchctl":                          {"setenv"},
}

// sessionEnv judges a command that sets, for every agent the session
// starts from now on, a variable that moves an agent's configuration
// root off the user's real one or switches off or redirects its hooks.
func sessionEnv(c Cmd, home string, read ReadFunc) *Launch {
	verbs, ok := sessionEnvCommands[path.Base(c.Name)]
	if !ok {
		return nil
	}
	i := slices.IndexFunc(c.Args, func(a string) bool { return !strings.HasPrefix(a, "-") })
	if verbs[0] != "" {
		if i < 0 || !slices.Contains(verbs, c.Args[i]) {
			return nil
		}
		i++
	} else {
		i = 0
	}
	env := c.environment()
	args := c.Args[i:]
	for j := 0; j < len(args); j++ {
		a := args[j]
		if strings.HasPrefix(a, "-") {
			continue
		}
		name, value, has := strings.Cut(a, "=")
		if path.Base(c.Name) == "launchctl" && j+1 < len(args) {
			value, has = args[j+1], true
			j++
		}
		if !has {
			if value, has = env[name]; !has {
				continue // imports the value the session has already
			}
		}
		if problem := sessionVar(name, value, home, c.Cwd, read); problem != "" {
			return &Launch{Program: path.Base(c.Name), Verdict: "deny", Session: true, Problem: fmt.Sprintf("%s %s=%s %s", path.Base(c.Name), name, value, problem)}
		}
	}
	return nil
}

// sessionVar says what setting name=value for every agent started later
// would do, or "".
func sessionVar(name, value, home, cwd string, read ReadFunc) string {
	if slices.Contains(simpleEnv, name) || (DisablingEnv(name) && name != "HOME" && name != "CLAUDE_CONFIG_DIR") {
		return "switches off or redirects the hooks of every agent the session starts from now on, agentjail's included"
	}
	for _, a := range agentCLIs {
		if l := movedRoot(a.agent, map[string]string{name: value}, home, cwd, read); l != nil {
			return fmt.Sprintf("moves where %s reads its settings for every later start, to a place where agentjail's hook is not installed", a.agent)
		}
	}
	return ""
}

// codexProfile judges `codex --profile P` (-p P) on the profile it
// selects in the user's config.toml: one that switches hooks off
// ([profiles.P.features] hooks = false) or sets hooks of its own starts
// Codex without agentjail's hook. read reads the file; nil skips this.
func codexProfile(args []string, env map[string]string, home string, read ReadFunc) *Launch {
	if read == nil || home == "" {
		return nil
	}
	profile := ""
	for i, a := range args {
		if a == "--" {
			break
		}
		if (a == "--profile" || a == "-p") && i+1 < len(args) {
			profile = args[i+1]
		} else if v, ok := strings.CutPrefix(a, "--profile="); ok {
			profile = v
		}
	}
	if profile == "" {
		return nil
	}
	dir := path.Join(home, ".codex")
	if v, ok := env["CODEX_HOME"]; ok {
		dir = expandHome(v, home)
	}
	b, err := read(path.Join(dir, "config.toml"))
	if err != nil || b == nil {
		return nil
	}
	var doc map[string]any
	if toml.Unmarshal(b, &doc) != nil {
		return nil
	}
	profiles, _ := doc["profiles"].(map[string]any)
	p, _ := profiles[profile].(map[string]any)
	features, _ := p["features"].(map[string]any)
	for _, k := range CodexHookFeatures {
		if v, ok := features[k]; ok && v != true {
			return &Launch{Program: "codex", Verdict: "deny", Problem: fmt.Sprintf("codex --profile %s selects a profile whose features switch hooks off, agentjail's included", profile)}
		}
	}
	if _, ok := p["hooks"]; ok {
		return &Launch{Program: "codex", Verdict: "deny", Problem: fmt.Sprintf("codex --profile %s selects a profile that sets hooks of its own, past agentjail's hook", profile)}
	}
	return nil
}
