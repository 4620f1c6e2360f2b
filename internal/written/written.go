// Package written judges what file tools write into files that something
// else runs or obeys later: package manifests' lifecycle scripts, build
// files, test configuration, CI workflows, editor tasks, git hooks,
// direnv, container files, other agents' MCP servers and instructions.
//
// Which files count and how their commands are found is the pack's data
// (data.agentjail.written_files, see policies/written.rego): each row is a
// kind of file, the path pattern that recognises it, its format and the
// key paths or line patterns that hold commands. This package applies the
// rows: it computes the file the call leaves (agentconfig.Result), reads
// the commands and watched keys of the content before and after, and
// reports what the write adds. The daemon judges each added command as a
// Bash call of its own (daemon/policyset/written.go); the policies
// judge the rest (input.agentjail.written).
package written

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
	yaml "go.yaml.in/yaml/v3"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentjail/agentjail/internal/agentconfig"
	"github.com/agentjail/agentjail/internal/shell"
)

// Bounds: each keeps the cost of judging one write linear and small, and
// past each the policies ask (File.Truncated) rather than judge a part.
const (
	MaxCommands = 32     // added commands reported per file
	MaxCommand  = 16384  // bytes of one command
	MaxNodes    = 20000  // keys and values walked in one document
	MaxText     = 200    // added text lines reported per file
	maxFiles    = 16     // files judged per call
	maxRows     = 512    // rows of the table used
	maxPatterns = 100000 // bytes of patterns compiled
)

// Row is one kind of file in the pack's written_files table.
type Row struct {
	Kind string `json:"kind"`
	// Match is a regular expression on the file's path, written with ~
	// for the home directory when the file is inside it (~/.codex/...)
	// and absolute otherwise.
	Match string `json:"match"`
	// Format is how the file is read: json (comments allowed), yaml,
	// toml, lines (Lines picks the commands), shell (the file is a
	// script), code (a program of Interpreter), text (instructions: code
	// blocks and spans are commands).
	Format string `json:"format"`
	// Commands are key paths (json, yaml, toml) whose string values, or
	// the strings of lists there, are commands. Segments are separated by
	// "/", match like path.Match, and ** stands for any depth.
	Commands []string `json:"commands"`
	// Args names a sibling key whose list of strings is appended to each
	// command found (an MCP server's args).
	Args string `json:"args"`
	// Lines is a regular expression on each logical line (lines format);
	// its first group is the command.
	Lines string `json:"lines"`
	// Interpreter runs a code file's text given as its next word (code
	// format): "python3 -c", "node -e". In the lines format each line
	// found is code it runs on its own (a .pth file's import lines).
	Interpreter string `json:"interpreter"`
	// Watch are key paths (with a value pattern) whose appearance the
	// policies judge: a new postinstall, runOn folderOpen, privileged. In
	// the lines format a watch without a key is a pattern on each line.
	Watch []Watch `json:"watch"`
	// Contained is set when the file's commands run in a container or on
	// a CI runner rather than on this machine: the daemon judges them
	// with that said (see Contained in policies/written.rego).
	Contained bool `json:"contained"`
	// Auto is set when a new file of this kind runs by itself (a git
	// hook, a build script).
	Auto bool `json:"auto"`
	// Rules, when set, are the rule id prefixes whose verdicts count for
	// this kind's commands (a container build's rm -rf / harms no one;
	// its upload of a secret does).
	Rules []string `json:"rules"`
	// Asks are rule id prefixes whose deny of this kind's commands is an
	// ask instead: an installer's curl | sh in a Dockerfile is often
	// what the project wants, so a person decides rather than the agent
	// being refused.
	Asks []string `json:"asks"`
	// Syntax rewrites the commands' own template syntax to the shell's
	// before they are judged: make ($(VAR), $$) or actions (${{ expr }}).
	Syntax string `json:"syntax"`

	match, lines *regexp.Regexp
	// fragment: the document is an edit's text cut from the middle of a
	// file (see unseenEdit), so keys also match by their tail.
	fragment bool
	watch    []*regexp.Regexp
}

// Watch is one watched key path: Label names it for the policies; Value,
// when set, is a regular expression the value must match.
type Watch struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Label string `json:"label"`
}

// Table is the compiled written_files table.
type Table struct{ rows []*Row }

// Compile reads the pack's table (JSON-shaped, as OPA gives it).
func Compile(raw any) (*Table, error) {
	if raw == nil {
		return nil, nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	var rows []*Row
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, fmt.Errorf("does not have the shape of the pack's table (see policies/written.rego): %w", err)
	}
	if len(rows) > maxRows {
		return nil, fmt.Errorf("has %d rows, more than the %d agentjail reads", len(rows), maxRows)
	}
	size := 0
	for _, r := range rows {
		size += len(r.Match) + len(r.Lines)
		if size > maxPatterns {
			return nil, fmt.Errorf("its patterns are over %d bytes", maxPatterns)
		}
		if r.match, err = regexp.Compile(r.Match); err != nil || r.Match == "" {
			return nil, fmt.Errorf("%s: match %q is not a regular expression: %v", r.Kind, r.Match, err)
		}
		if r.Lines != "" {
			if r.lines, err = regexp.Compile(r.Lines); err != nil {
				return nil, fmt.Errorf("%s: lines: %w", r.Kind, err)
			}
		}
		for _, w := range r.Watch {
			var re *regexp.Regexp
			if w.Value != "" {
				if re, err = regexp.Compile(w.Value); err != nil {
					return nil, fmt.Errorf("%s: watch %s: %w", r.Kind, w.Key, err)
				}
			}
			r.watch = append(r.watch, re)
		}
		switch r.Format {
		case "json", "yaml", "toml", "lines", "shell", "code", "text":
		default:
			return nil, fmt.Errorf("%s: format %q is not json, yaml, toml, lines, shell, code or text", r.Kind, r.Format)
		}
	}
	return &Table{rows: rows}, nil
}

// Kind is the row for path, or nil. home is the user's home directory.
func (t *Table) Kind(p, home string) *Row {
	if t == nil {
		return nil
	}
	shown := p
	if home != "" && strings.HasPrefix(p, home+"/") {
		shown = "~" + p[len(home):]
	}
	for _, r := range t.rows {
		if r.match.MatchString(shown) {
			return r
		}
	}
	return nil
}

// File is what one write adds to a file of a listed kind
// (input.agentjail.written).
type File struct {
	Path      string
	Kind      string
	Contained bool
	// Rules are the row's rule id prefixes (see Row.Rules).
	Rules []string
	// Asks are the row's prefixes whose denies are asks (see Row.Asks).
	Asks []string
	// Shell are Commands as the shell reads them (see Row.Syntax): what
	// the daemon judges.
	Shell []string
	New   bool // the file does not exist yet
	// Auto is set for a new file of a kind that runs by itself.
	Auto bool
	// Commands are the commands the new content runs that the old one
	// did not, each once.
	Commands []string
	// Added are the watched keys the new content has that the old did
	// not (see Row.Watch).
	Added []Added
	// Text are the lines the write adds to an instruction file.
	Text []string
	// Truncated is set when a bound was hit: the policies ask.
	Truncated bool
	// Problem says why the file the call leaves cannot be computed or
	// read: the policies ask.
	Problem string
}

// Added is one watched key the write adds. Disabling is set for an
// environment entry (label EnvLabel) whose variable switches off or
// redirects agentjail's hook (agentconfig.DisablingEnv, the one table).
type Added struct {
	Label, Key, Value string
	Disabling         bool
}

// EnvLabel is the watch label of environment entries (VS Code's
// terminal.integrated.env.*, claudeCode.environmentVariables, mise's
// [env]): each added one is checked against agentconfig.DisablingEnv.
const EnvLabel = "env"

// envName is the variable an environment entry at key path at sets: the
// last key, or the value of a {"name": N, "value": V} entry's name.
func envName(at []string, v any) string {
	if len(at) == 0 {
		return ""
	}
	if at[len(at)-1] == "name" {
		return scalar(v)
	}
	return at[len(at)-1]
}

// Map is f as a JSON-shaped value for the policy input.
func (f File) Map() map[string]any {
	added := make([]any, len(f.Added))
	for i, a := range f.Added {
		added[i] = map[string]any{"label": a.Label, "key": a.Key, "value": a.Value, "disabling": a.Disabling}
	}
	return map[string]any{
		"path": f.Path, "kind": f.Kind, "contained": f.Contained, "new": f.New, "auto": f.Auto, "rules": strs(f.Rules),
		"commands": strs(f.Commands), "added": added, "text": strs(f.Text),
		"truncated": f.Truncated, "problem": f.Problem,
	}
}

func strs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// Judge reports what a tool call adds to each of targets that is a file
// of a listed kind. tool and input are the call in Claude Code's terms;
// mainPath is the call's main path (its content or edits go there).
func (t *Table) Judge(tool string, input map[string]any, targets []string, mainPath, home string, read agentconfig.ReadFunc) []File {
	if t == nil {
		return nil
	}
	var out []File
	for _, p := range targets {
		row := t.Kind(p, home)
		if row == nil {
			continue
		}
		if len(out) == maxFiles {
			out[len(out)-1].Truncated = true
			break
		}
		cur, res, unchanged, problem := agentconfig.Result(tool, input, p, p == mainPath, read)
		if unchanged && cur == nil && p == mainPath {
			// An edit of a file the daemon does not see (the tool would
			// fail here, but perhaps not where the agent runs).
			if before, after, ok := unseenEdit(tool, input); ok {
				if row.Format == "json" {
					before, after = closeJSON(before), closeJSON(after)
				}
				frag := *row
				frag.fragment = true
				row = &frag
				cur, res, unchanged = before, after, false
			}
		}
		f := File{Path: p, Kind: row.Kind, Contained: row.Contained, Rules: row.Rules, Asks: row.Asks, New: cur == nil}
		switch {
		case problem != "":
			f.Problem = problem
		case unchanged:
			continue
		default:
			row.compare(&f, cur, res)
		}
		out = append(out, f)
	}
	return out
}

// JudgeContent reports what writing content to a new file at p adds (a
// patch's added file).
func (t *Table) JudgeContent(p, content, home string, read agentconfig.ReadFunc) []File {
	return t.Judge("Write", map[string]any{"content": content}, []string{p}, p, home, read)
}

// JudgeFragment reports what text adds when it is appended to p, a file
// of a structured format (json, yaml, toml) the daemon does not see: the
// agent may see the file where the daemon does not, so the text is read
// as a piece cut from the file's end, its keys matched by their tail
// (`      - run: CMD` appended to a workflow). Other formats are read
// whole, so their text needs no such care (JudgeContent).
func (t *Table) JudgeFragment(p, text, home string) []File {
	if t == nil {
		return nil
	}
	row := t.Kind(p, home)
	if row == nil {
		return nil
	}
	frag := *row
	frag.fragment = true
	res := []byte(text)
	if row.Format == "json" {
		res = closeJSON(res)
	}
	f := File{Path: p, Kind: row.Kind, Contained: row.Contained, Rules: row.Rules, Asks: row.Asks}
	frag.compare(&f, []byte{}, res)
	return []File{f}
}

// Structured reports whether p's kind is read by its keys (json, yaml,
// toml), where a piece of the file needs JudgeFragment.
func (t *Table) Structured(p, home string) bool {
	row := t.Kind(p, home)
	return row != nil && (row.Format == "json" || row.Format == "yaml" || row.Format == "toml")
}

// compare fills f with what res has that cur has not.
func (r *Row) compare(f *File, cur, res []byte) {
	if cur == nil && r.Auto {
		f.Auto = true
	}
	before, after := r.read(cur), r.read(res)
	if after.problem != "" {
		f.Problem = after.problem
		return
	}
	f.Truncated = before.truncated || after.truncated
	had := map[string]bool{}
	for _, c := range before.commands {
		had[c] = true
	}
	for _, c := range after.commands {
		if had[c] {
			continue
		}
		had[c] = true
		if (len(f.Commands) == MaxCommands && r.Format != "shell") || len(c) > MaxCommand {
			f.Truncated = true
			continue
		}
		f.Commands = append(f.Commands, c)
	}
	// A script's many added lines are judged together as one script
	// (a new 200-line setup.sh is one program, and its variables flow
	// from line to line) rather than asked about for their number.
	if r.Format == "shell" && len(f.Commands) > MaxCommands {
		if joined := strings.Join(f.Commands, "\n"); len(joined) <= shell.MaxScriptSize {
			f.Commands = []string{joined}
		} else {
			f.Commands, f.Truncated = f.Commands[:MaxCommands], true
		}
	}
	was := map[Added]bool{}
	for _, a := range before.added {
		was[Added{Label: a.Label, Key: a.Key}] = true
	}
	for _, a := range after.added {
		if !was[Added{Label: a.Label, Key: a.Key}] {
			f.Added = append(f.Added, a)
		}
	}
	old := map[string]bool{}
	for _, l := range before.text {
		old[l] = true
	}
	for _, l := range after.text {
		if !old[l] && len(f.Text) < MaxText {
			f.Text = append(f.Text, l)
		}
	}
	// A script changed only in part is judged as a whole when the lines
	// it adds do not stand on their own (a line added inside an if).
	if r.Format == "shell" && len(f.Commands) > 0 && !parses(strings.Join(f.Commands, "\n")) {
		// Past MaxCommand the whole script is not judged: the policies ask.
		f.Commands, f.Truncated = []string{clip(string(res))}, f.Truncated || len(res) > MaxCommand
	}
	if r.Format == "code" && len(f.Commands) > 0 {
		f.Commands = []string{r.Interpreter + " " + quote(strings.Join(f.Commands, "\n"))}
	}
	if r.Format == "lines" && r.Interpreter != "" {
		for i, c := range f.Commands {
			f.Commands[i] = r.Interpreter + " " + quote(c)
		}
	}
	for _, c := range f.Commands {
		f.Shell = append(f.Shell, r.shellSyntax(c))
	}
}

var (
	actionExpr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)
	notName    = regexp.MustCompile(`[^A-Za-z0-9]+`)
)

// shellSyntax rewrites a command's template syntax to the shell's, so
// `$(CC) -o $@ $^` or `${{ secrets.TOKEN }}` parse as the variables they
// stand for (a secret stays a secret-looking variable).
func (r *Row) shellSyntax(c string) string {
	switch r.Syntax {
	case "make":
		c = shell.MakeSyntax(c)
	case "actions":
		c = actionExpr.ReplaceAllStringFunc(c, func(m string) string {
			expr := actionExpr.FindStringSubmatch(m)[1]
			name := strings.Trim(notName.ReplaceAllString(strings.ToUpper(expr), "_"), "_")
			if name == "" {
				name = "EXPR"
			}
			return "${" + name + "}"
		})
	}
	return c
}

// facts are what one version of a file holds.
type facts struct {
	commands  []string
	added     []Added
	text      []string
	truncated bool
	problem   string
}

func (r *Row) read(b []byte) facts {
	var fs facts
	if b == nil {
		return fs
	}
	switch r.Format {
	case "json", "yaml", "toml":
		doc, ok := decode(r.Format, b)
		if !ok {
			// A file the tool that reads it would refuse runs nothing;
			// judging its lines keeps a broken file from hiding a command.
			fs.commands = logical(string(b))
			return fs
		}
		r.walk(doc, &fs)
	case "lines":
		for _, l := range logical(string(b)) {
			if m := r.lines.FindStringSubmatch(l); m != nil {
				c := m[0]
				for _, g := range m[1:] { // the first group that matched
					if g != "" {
						c = g
						break
					}
				}
				fs.commands = append(fs.commands, strings.TrimSpace(c))
			}
			// Watched lines (a watch row without a key): a setting that
			// makes the file run a command by itself.
			for i, w := range r.Watch {
				if w.Key == "" && r.watch[i] != nil && r.watch[i].MatchString(l) {
					fs.added = append(fs.added, Added{Label: w.Label, Key: strings.TrimSpace(clip(l))})
				}
			}
		}
	case "shell", "code":
		for _, l := range logical(string(b)) {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
				fs.commands = append(fs.commands, l)
			}
		}
	case "text":
		fs.commands, fs.text = instructions(string(b))
	}
	if len(fs.commands) > MaxNodes {
		fs.commands, fs.truncated = fs.commands[:MaxNodes], true
	}
	return fs
}

func decode(format string, b []byte) (any, bool) {
	var doc any
	switch format {
	case "json":
		v, err := hujson.Parse(b)
		if err != nil {
			return nil, false
		}
		v.Standardize()
		if json.Unmarshal(v.Pack(), &doc) != nil {
			return nil, false
		}
	case "yaml":
		if yaml.Unmarshal(b, &doc) != nil {
			return nil, false
		}
	case "toml":
		if toml.Unmarshal(b, &doc) != nil {
			return nil, false
		}
	}
	return doc, true
}

// walk visits every key and value of doc (at most MaxNodes), collecting
// the commands and watched keys of r.
func (r *Row) walk(doc any, fs *facts) {
	nodes := 0
	var visit func(v any, at []string)
	visit = func(v any, at []string) {
		if nodes++; nodes > MaxNodes {
			fs.truncated = true
			return
		}
		for i, w := range r.Watch {
			if r.keyMatch(w.Key, at) && (r.watch[i] == nil || r.watch[i].MatchString(scalar(v))) {
				a := Added{Label: w.Label, Key: strings.Join(at, "/"), Value: clip(scalar(v))}
				if w.Label == EnvLabel {
					a.Disabling = agentconfig.DisablingEnv(envName(at, v))
				}
				fs.added = append(fs.added, a)
			}
		}
		for _, k := range r.Commands {
			if r.keyMatch(k, at) {
				fs.commands = append(fs.commands, r.commandsAt(v, at, doc)...)
			}
		}
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				visit(v[k], append(at[:len(at):len(at)], k))
			}
		case []any:
			for i, x := range v {
				visit(x, append(at[:len(at):len(at)], fmt.Sprint(i)))
			}
		}
	}
	visit(doc, nil)
}

// commandsAt reads the commands held at one matched key: a string, or
// the strings of a list (each its own command, as CI scripts are).
func (r *Row) commandsAt(v any, at []string, doc any) []string {
	var out []string
	switch v := v.(type) {
	case string:
		c := v
		if r.Args != "" {
			for _, a := range siblingList(doc, at, r.Args) {
				c += " " + quote(a)
			}
		}
		out = append(out, c)
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// siblingList is the list of strings under key beside the value at at.
func siblingList(doc any, at []string, key string) []string {
	cur := doc
	for _, k := range at[:len(at)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[k]
		case []any:
			var i int
			fmt.Sscan(k, &i)
			if i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	m, _ := cur.(map[string]any)
	list, _ := m[key].([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// keyMatch matches a key path against a pattern of "/"-separated
// segments (path.Match each; ** any number of segments).
func keyMatch(pattern string, at []string) bool {
	return match(strings.Split(pattern, "/"), at)
}

// keyMatch of a fragment also matches a key by its tail (serde/git for
// dependencies/*/git, 0/run for jobs/*/steps/*/run): the fragment's
// document starts somewhere inside the file's. A tail of wildcards alone
// would match any key, so it must name one.
func (r *Row) keyMatch(pattern string, at []string) bool {
	if keyMatch(pattern, at) {
		return true
	}
	if !r.fragment {
		return false
	}
	segs := strings.Split(pattern, "/")
	for k := 1; k < len(segs); k++ {
		tail := segs[k:]
		if slices.ContainsFunc(tail, func(s string) bool { return !strings.ContainsAny(s, "*?[") }) && match(tail, at) {
			return true
		}
	}
	return false
}

func match(pat, at []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			// Only a few segments deep: documents are small and this
			// stays linear in practice; ** is tried at each depth.
			for i := 0; i <= len(at); i++ {
				if match(pat[1:], at[i:]) {
					return true
				}
			}
			return false
		}
		if len(at) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], at[0]); !ok {
			return false
		}
		pat, at = pat[1:], at[1:]
	}
	return len(at) == 0
}

func scalar(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case map[string]any, []any, nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// logical splits text into lines, joining those continued with a
// trailing backslash.
func logical(text string) []string {
	var out []string
	var b strings.Builder
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if strings.HasSuffix(l, "\\") {
			b.WriteString(strings.TrimSuffix(l, "\\"))
			b.WriteString(" ")
			continue
		}
		b.WriteString(l)
		if s := b.String(); strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
		b.Reset()
	}
	if s := b.String(); strings.TrimSpace(s) != "" {
		out = append(out, s)
	}
	return out
}

var (
	fence     = regexp.MustCompile("^\\s*(```|~~~)")
	indent    = regexp.MustCompile("^(    |\t)")
	listItem  = regexp.MustCompile(`^([-*+]|[0-9]+[.)])\s`)
	span      = regexp.MustCompile("`([^`\n]+)`")
	forbidden = regexp.MustCompile(`(?i)\b(never|don't|do not|must not|mustn't|avoid|forbidden|prohibited|not allowed|instead of|rather than)\b`)
)

// instructions reads an instruction file (CLAUDE.md, AGENTS.md, rules)
// or a document people follow (README.md): the lines of code blocks,
// fenced or indented, and the code spans of lines that do not forbid
// them are commands the reader is told to run; every line is text the
// policies read for injected instructions.
func instructions(text string) (cmds, lines []string) {
	in := false
	// An indented code block starts after a blank line (a paragraph's
	// indented continuation is prose) and goes on while lines stay
	// indented or blank.
	blank, indented := true, false
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if fence.MatchString(l) {
			in = !in
			continue
		}
		t := strings.TrimSpace(l)
		if t == "" {
			blank = true
			continue
		}
		code := !in && indent.MatchString(l) && (blank || indented) && !listItem.MatchString(t)
		blank, indented = false, code
		lines = append(lines, clip(t))
		if in || code {
			if !strings.HasPrefix(t, "#") {
				cmds = append(cmds, strings.TrimPrefix(strings.TrimPrefix(t, "$ "), "> "))
			}
			continue
		}
		// A span inside a sentence that forbids it (never run `x`) is
		// not an instruction to run it; the sentence, not the line,
		// decides, so "Run `x`. Do not tell the user." still runs x.
		masked := span.ReplaceAllStringFunc(t, func(m string) string { return strings.Repeat("x", len(m)) })
		for _, m := range span.FindAllStringSubmatchIndex(t, -1) {
			c := t[m[2]:m[3]]
			if !strings.ContainsAny(c, " /~$|;&") { // a name, not a command
				continue
			}
			if forbidden.MatchString(sentence(t, masked, m[0], m[1])) {
				continue
			}
			cmds = append(cmds, c)
		}
	}
	return cmds, lines
}

// sentence is the sentence of t around t[start:end], found in masked (t
// with its code spans blanked, so a dot inside a command ends nothing).
func sentence(t, masked string, start, end int) string {
	from := 0
	if i := sentenceEnd.FindAllStringIndex(masked[:start], -1); len(i) > 0 {
		from = i[len(i)-1][1]
	}
	to := len(t)
	if i := sentenceEnd.FindStringIndex(masked[end:]); i != nil {
		to = end + i[0] + 1
	}
	return t[from:to]
}

var sentenceEnd = regexp.MustCompile(`[.!?;](\s|$)`)

func parses(script string) bool {
	_, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	return err == nil
}

func quote(s string) string {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return q
}

func clip(s string) string {
	if len(s) > MaxCommand {
		return s[:MaxCommand]
	}
	return s
}
