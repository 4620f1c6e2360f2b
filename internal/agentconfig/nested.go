package agentconfig

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Launch is a nested agent that a shell command would start with
// agentjail's hook switched off or unverifiable.
type Launch struct {
	Program string
	Verdict string // "deny", or "ask" when agentjail cannot tell
	Problem string
}

// Map is l as a JSON-shaped value for the policy input.
func (l Launch) Map() map[string]any {
	return map[string]any{"program": l.Program, "verdict": l.Verdict, "problem": l.Problem}
}

// simpleEnv are the variables that switch off every hook of any Claude
// Code that inherits them, whatever program the command runs first.
var simpleEnv = []string{"CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE"}

// Cmd is one command of a parsed shell command line.
type Cmd struct {
	Name    string            // the program's base name
	Args    []string          // the words after it
	Assigns map[string]string // its leading VAR=value words, env's included
}

// Nested lists the nested agents a shell command line would start with
// agentjail's hook switched off (or with settings it cannot check): text
// is the command line, cmds its commands as parsed.
func Nested(text string, cmds []Cmd) []Launch {
	var out []Launch
	exported := Exported(text)
	for _, k := range simpleEnv {
		if slices.Contains(exported, k) {
			out = append(out, Launch{Program: "claude", Verdict: "deny", Problem: fmt.Sprintf("exporting %s switches off every hook of any Claude Code started from this shell, agentjail's included", k)})
		}
	}
	for _, c := range cmds {
		if l := nestedClaude(c.Name, c.Args, c.Assigns, exported); l != nil {
			out = append(out, *l)
		}
	}
	return out
}

// nestedClaude judges one command; exported are the variables the
// command line exports.
func nestedClaude(name string, args []string, assigns map[string]string, exported []string) *Launch {
	deny := func(f string, a ...any) *Launch {
		return &Launch{Program: "claude", Verdict: "deny", Problem: fmt.Sprintf(f, a...)}
	}
	for _, k := range simpleEnv {
		if _, ok := assigns[k]; ok {
			return deny("%s switches off every hook of the Claude Code it starts, agentjail's included", k)
		}
	}
	if name != "claude" {
		return nil
	}
	for _, k := range append(sortedAssigns(assigns), exported...) {
		if DisablingEnv(k) {
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
