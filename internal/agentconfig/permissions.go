package agentconfig

import (
	"encoding/json"
	"fmt"
	"github.com/agentjail/agentjail/agents/codex"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/agentjail/agentjail/agents"
)

// Grant is a permission that a write to an agent's settings gives the
// agent and that the file did not give it before: tool calls the agent
// would then make without the user's approval. Each agent's grants are
// one function beside its judge (claudeGrants in claude.go, ...).
type Grant struct {
	// Wide is set for a grant of everything, or of a whole tool that can
	// change the machine: a wildcard rule, a mode that approves every
	// call, a deny rule removed, the home folder added. Policies deny
	// it; a narrower grant (one command, one folder) they ask about.
	Wide bool
	What string // what the write grants, for the message
}

// Map is g as a JSON-shaped value for the policy input.
func (g Grant) Map() map[string]any {
	verdict := "ask"
	if g.Wide {
		verdict = "deny"
	}
	return map[string]any{"verdict": verdict, "grant": g.What}
}

// maxGrants bounds what one write reports.
const maxGrants = 16

// grants collects a write's grants, up to maxGrants.
type grants []Grant

func (g *grants) add(wide bool, f string, a ...any) {
	if len(*g) < maxGrants {
		*g = append(*g, Grant{Wide: wide, What: fmt.Sprintf(f, a...)})
	}
}

// newRules adds each rule of res's list key that cur's lacks: wide when
// wide says so.
func (g *grants) newRules(key string, cur, res any, wide func(string) bool) {
	was := strList(cur)
	for _, r := range strList(res) {
		if slices.Contains(was, r) {
			continue
		}
		if wide(r) {
			g.add(true, "add %q to %s, a rule so broad that it approves a whole tool, every command or everything in advance", r, key)
		} else {
			g.add(false, "add %q to %s, approving those calls in advance", r, key)
		}
	}
}

// removedRules adds each rule of cur's list key that res lacks: a deny
// list losing a rule lets through what the user chose to stop (wide),
// an ask list what the user chose to be asked about.
func (g *grants) removedRules(key string, cur, res any, wide bool) {
	now := strList(res)
	for _, r := range strList(cur) {
		if !slices.Contains(now, r) {
			g.add(wide, "remove %q from %s, a rule the user set to stop or check those calls", r, key)
		}
	}
}

// newDirs adds each folder of res's list key that cur's lacks.
func (g *grants) newDirs(key string, cur, res any) {
	was := strList(cur)
	for _, d := range strList(res) {
		if !slices.Contains(was, d) {
			g.add(broadDir(d), "add %q to %s, giving the agent that folder", d, key)
		}
	}
}

// strList is a JSON or TOML list's strings.
func strList(v any) []string {
	var out []string
	switch l := v.(type) {
	case []any:
		for _, e := range l {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
	case []string:
		out = l
	}
	return out
}

// object is v as an object, or nil.
func object(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// broadDir: a folder that holds the whole machine or a home folder (/,
// ~, $HOME, /home/u, /etc, ..), not one project's.
var broadDirRE = regexp.MustCompile(`^(/*|~[^/]*|\$HOME|\$\{HOME\}|/(home|Users)/[^/]+|/[^/]+|(\.\./?)+|\.\.)$`)

func broadDir(d string) bool {
	d = strings.TrimSpace(d)
	for len(d) > 1 && strings.HasSuffix(d, "/") {
		d = d[:len(d)-1]
	}
	for _, s := range []string{"/**", "/*"} {
		d = strings.TrimSuffix(d, s)
	}
	return broadDirRE.MatchString(d)
}

// Tools by what a rule that names them approves. Names are lowered:
// every agent's (the shell tools from their facts).
var (
	shellTools = slices.Sorted(maps.Keys(agents.ShellTools()))
	readTools  = []string{
		"read", "grep", "glob", "ls", "websearch", "todowrite", "todoread", "notebookread", "bashoutput", "exitplanmode",
		"read_file", "read_many_files", "search_file_content", "list_directory", "google_web_search", "view",
		"listmcpresourcestool", "readmcpresourcetool",
	}
	fetchTools = []string{"webfetch", "web_fetch", "url"}
)

// runners run whatever command or code follows them: a rule that
// approves one of them with any arguments approves every command.
var runners = []string{
	"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "env", "sudo", "doas", "su", "xargs", "eval", "exec",
	"command", "builtin", "nohup", "timeout", "nice", "time", "script", "chroot", "nsenter", "watch",
	"python", "python2", "python3", "node", "nodejs", "deno", "bun", "perl", "ruby", "php", "lua", "osascript",
	"pwsh", "powershell", "awk", "gawk", "npx", "bunx", "pnpx", "uvx",
}

// ruleRE reads a permission rule: a tool name, and a specifier in
// parentheses.
var ruleRE = regexp.MustCompile(`^\s*([A-Za-z0-9_*.-]*)\s*(?:\((.*)\))?\s*$`)

// wideRule reports whether a permission rule approves every call of a
// tool that can change the machine: "*", a bare tool name (Bash, Write,
// run_shell_command), a specifier of wildcards only (Bash(*), Bash(:*),
// Edit(//**), WebFetch(domain:*)), a command rule for a program that runs
// any other (Bash(sh:*), Bash(python3:*)), or an MCP wildcard (mcp__*).
// A rule for a read-only tool, for one MCP server or tool, for one
// command or one folder is narrow.
func wideRule(rule string) bool {
	m := ruleRE.FindStringSubmatch(rule)
	if m == nil {
		return true // not a rule agentjail reads: it may approve anything
	}
	name, spec, hasSpec := strings.ToLower(m[1]), strings.TrimSpace(m[2]), strings.Contains(rule, "(")
	switch {
	case name == "" || strings.Contains(name, "*"):
		return true
	case strings.HasPrefix(name, "mcp__"):
		return onlyWild(spec) && hasSpec
	case name == "mcp":
		// Cursor's Mcp(server, tool).
		server, _, _ := strings.Cut(spec, ",")
		return onlyWild(server)
	case slices.Contains(readTools, name):
		return false
	case !hasSpec:
		return true
	case onlyWild(spec):
		return true
	case slices.Contains(fetchTools, name):
		return onlyWild(strings.TrimPrefix(spec, "domain:"))
	case slices.Contains(shellTools, name):
		return wideCommand(spec)
	}
	return false
}

// onlyWild: a specifier that names nothing but wildcards and roots (*,
// :*, **, //**, ~/**, /).
func onlyWild(spec string) bool {
	return strings.Trim(spec, "*/:~. ") == ""
}

// wideCommand: a command pattern whose program runs any other, or that
// starts with a wildcard.
func wideCommand(spec string) bool {
	spec = strings.TrimSpace(spec)
	if spec == "" || strings.HasPrefix(spec, "*") {
		return true
	}
	word := strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ':' || r == '\t' })[0]
	word = strings.TrimSuffix(word, "*")
	if i := strings.LastIndex(word, "/"); i >= 0 {
		word = word[i+1:]
	}
	return slices.Contains(runners, word) || versionedPython.MatchString(word)
}

var versionedPython = regexp.MustCompile(`^python[0-9.]*$`)

// modeGrant judges a mode setting that res changes: a mode in wide
// approves every call, one in narrow approves edits; one in safe grants
// nothing, and any other is one agentjail does not know, so it asks.
func (g *grants) mode(key string, cur, res any, wide, narrow, safe []string) {
	s, ok := res.(string)
	if was, _ := cur.(string); !ok || s == was {
		return
	}
	switch {
	case slices.Contains(wide, s):
		g.add(true, "set %s to %q, which approves every tool call in advance", key, s)
	case slices.Contains(narrow, s):
		g.add(false, "set %s to %q, which approves some tool calls in advance", key, s)
	case !slices.Contains(safe, s):
		g.add(false, "set %s to %q, a mode agentjail does not know", key, s)
	}
}

// turnedOn: res sets a switch to true that cur did not.
func turnedOn(cur, res any) bool { return res == true && cur != true }

// editGrants judges an Edit or MultiEdit of a settings file that is not
// there, which fails, on the text it writes: a file created first (a
// Write, another agent) would take it, and refusing it costs nothing.
// What its new text adds of permission rules and modes, or its old text
// loses of deny rules, is judged as the result would be.
func editGrants(agent, tool string, input map[string]any) []Grant {
	var g grants
	for _, m := range editsOf(tool, input) {
		old, _ := m["old_string"].(string)
		repl, _ := m["new_string"].(string)
		if agent == codex.Agent.Name {
			codexTextGrants(&g, old, repl)
			continue
		}
		jsonTextGrants(&g, old, repl)
	}
	return g
}

var codexUnguardedRE = regexp.MustCompile(`(approval_policy\s*=\s*["']never["']|sandbox_mode\s*=\s*["']danger-full-access["'])`)

func codexTextGrants(g *grants, old, repl string) {
	for _, s := range codexUnguardedRE.FindAllString(repl, -1) {
		if !strings.Contains(old, s) {
			g.add(true, "write `%s`, which lets Codex act without the user's approval", s)
		}
	}
}

var quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// quoted lists the JSON strings in a piece of JSON text.
func quoted(text string) []string {
	var out []string
	for _, q := range quotedRE.FindAllString(text, -1) {
		var s string
		if json.Unmarshal([]byte(q), &s) == nil {
			out = append(out, s)
		}
	}
	return out
}

// ruleNames are the tool names a bare rule may be, lowered.
var ruleNames = slices.Concat(shellTools, readTools, fetchTools, []string{"write", "edit", "multiedit", "notebookedit", "task", "agent", "write_file", "replace"})

// looksRule: a JSON string that reads as a permission rule.
func looksRule(s string) bool {
	m := ruleRE.FindStringSubmatch(s)
	if m == nil || s == "" {
		return false
	}
	name := strings.ToLower(m[1])
	return strings.Contains(s, "(") && name != "" || s == "*" || strings.HasPrefix(name, "mcp__") || slices.Contains(ruleNames, name)
}

var (
	wideModes   = []string{"bypassPermissions", "yolo"}
	narrowModes = []string{"acceptEdits", "auto_edit", "autoEdit", "auto"}
	dirKeys     = []string{"additionalDirectories", "trusted_folders", "trustedFolders", "writable_roots", "include-directories", "includeDirectories"}
	denyKeys    = []string{`"deny"`, `"exclude"`, `"excludeTools"`, `"deniedUrls"`, `"denied_urls"`}
	autoRE      = regexp.MustCompile(`"(autoAccept|skipDangerousModePermissionPrompt)"\s*:\s*true`)
)

func jsonTextGrants(g *grants, old, repl string) {
	was, now := quoted(old), quoted(repl)
	dirs := false
	for _, k := range dirKeys {
		dirs = dirs || strings.Contains(repl, `"`+k+`"`)
	}
	for _, s := range now {
		if slices.Contains(was, s) {
			continue
		}
		switch {
		case slices.Contains(wideModes, s):
			g.add(true, "set the mode %q, which approves every tool call in advance", s)
		case slices.Contains(narrowModes, s) && strings.Contains(strings.ToLower(repl), "mode"):
			g.add(false, "set the mode %q, which approves some tool calls in advance", s)
		case looksRule(s):
			if wideRule(s) {
				g.add(true, "add the rule %q, so broad that it approves a whole tool, every command or everything in advance", s)
			} else {
				g.add(false, "add the rule %q, approving those calls in advance", s)
			}
		case dirs && (strings.ContainsAny(s, "/~") || s == "." || s == ".."):
			g.add(broadDir(s), "add the folder %q, giving the agent that folder", s)
		}
	}
	if m := autoRE.FindString(repl); m != "" && !strings.Contains(old, m) {
		g.add(false, "set %s, which approves tool calls in advance", m)
	}
	fromDeny := false
	for _, k := range denyKeys {
		fromDeny = fromDeny || strings.Contains(old, k)
	}
	for _, s := range was {
		if slices.Contains(now, s) || !looksRule(s) {
			continue
		}
		switch {
		case fromDeny:
			g.add(true, "remove the rule %q from a deny list, which the user set to stop those calls", s)
		case !strings.Contains(old, `"allow"`) && !strings.Contains(old, `"allowed"`):
			g.add(false, "remove the rule %q, which may be one the user set to stop or check those calls", s)
		}
	}
}
