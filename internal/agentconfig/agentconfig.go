// Package agentconfig judges writes to the files where agents keep their
// hook configuration and permissions: it computes the file a tool call
// would leave behind (an Edit applied exactly as the agent applies it, a
// Write's content) and says whether that file would still run agentjail's
// hook for every tool call, and what it would let the agent do without
// the user's approval (permissions.go). Nothing the agent writes decides whether it is guarded, so the
// judgement is on the resulting file, never on the text of the edit.
//
// Each agent's judge is one function in its own file (claude.go, codex.go,
// ...); Agent maps a path to the agent whose configuration it is.
package agentconfig

import (
	"fmt"
	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/agents/codex"
	"github.com/agentjail/agentjail/agents/copilot"
	"github.com/agentjail/agentjail/agents/cursor"
	"github.com/agentjail/agentjail/agents/gemini"
	"github.com/agentjail/agentjail/internal/hookcmd"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
)

// MaxFileSize bounds what is read and what an edit may produce: a bigger
// file cannot be checked within the decision's budget, so it is judged as
// one that removes the guard.
const MaxFileSize = 1 << 20

// maxEdits bounds a MultiEdit: each edit is a pass over the file.
const maxEdits = 256

// Judgement is the verdict on one write to one hook configuration file.
type Judgement struct {
	Path  string // the file, absolute
	Agent string // whose configuration it is: "claude-code", "codex", ...
	// RemovesGuard is set when the file the call leaves behind would no
	// longer run agentjail's hook for every tool call, or when that file
	// cannot be computed or checked.
	RemovesGuard bool
	// Problem says what the write would break, for the deny message.
	Problem string
	// CreatedUnhooked is set when the file does not exist yet and the
	// call creates it without agentjail's hook: harmless where the
	// agent was never wired in, but a human should know (policies ask
	// for the user-level files, where install puts the hook).
	CreatedUnhooked bool
	// Grants are the permissions the write gives the agent that the file
	// did not: tool calls it would make without the user's approval.
	Grants []Grant
	// RunsCode says, one reason each, what code of its own the file the
	// call leaves would run beside agentjail's hook (a new PreToolUse
	// hook, a statusLine or apiKeyHelper command, an env entry that
	// changes what every command runs): the policies ask.
	RunsCode []string
}

// Map is j as a JSON-shaped value for the policy input.
func (j Judgement) Map() map[string]any {
	m := map[string]any{"path": j.Path, "agent": j.Agent, "removes_guard": j.RemovesGuard, "problem": j.Problem, "created_unhooked": j.CreatedUnhooked}
	if len(j.RunsCode) > 0 {
		runs := make([]any, len(j.RunsCode))
		for i, r := range j.RunsCode {
			runs[i] = r
		}
		m["runs_code"] = runs
	}
	if len(j.Grants) > 0 {
		grants := make([]any, len(j.Grants))
		for i, g := range j.Grants {
			grants[i] = g.Map()
		}
		m["grants"] = grants
	}
	return m
}

// ReadFunc reads a file's current content; an error wrapping
// fs.ErrNotExist means there is none.
type ReadFunc func(path string) ([]byte, error)

// judge is one agent's judge: cur is the current content (nil when the
// file does not exist), res what the call leaves (nil when it deletes the
// file). It returns what the change would break, or "".
type judge func(cur, res []byte) string

// ownJudge is an agent whose settings have a judge of their own here
// (its NAME.go beside this file): which files are its, how a change of
// one is judged, what it grants, and what code it would run beside
// agentjail's hook (a reason for a person to confirm: Judgement.RunsCode).
type ownJudge struct {
	agent  agent.Agent
	owns   func(path, home string) bool
	judge  judge
	grants func(cur, res []byte) []Grant
	runs   func(cur, res []byte) []string
}

// ownJudges are those agents; every other agent is judged from its
// facts (switchJudge).
var ownJudges = []ownJudge{
	{claude.Agent, func(p, _ string) bool { return ClaudeSettings(p) }, judgeClaude, claudeGrants, claudeRunsCode},
	{codex.Agent, CodexConfig, judgeCodex, codexGrants, nil},
	{gemini.Agent, GeminiSettings, judgeGemini, geminiGrants, nil},
	{cursor.Agent, func(p, h string) bool { return CursorHooks(p, h) || CursorPermissions(p, h) }, judgeCursor, cursorGrants, nil},
	{copilot.Agent, CopilotConfig, judgeCopilot, copilotGrants, nil},
}

// judges, grantJudges and codeJudges are ownJudges by agent name.
var judges, grantJudges, codeJudges = func() (map[string]judge, map[string]func(cur, res []byte) []Grant, map[string]func(cur, res []byte) []string) {
	j, g, c := map[string]judge{}, map[string]func(cur, res []byte) []Grant{}, map[string]func(cur, res []byte) []string{}
	for _, o := range ownJudges {
		j[o.agent.Name], g[o.agent.Name] = o.judge, o.grants
		if o.runs != nil {
			c[o.agent.Name] = o.runs
		}
	}
	return j, g, c
}()

// Agent names the agent whose hook configuration path is, or "". home is
// the user's home directory.
func Agent(path, home string) string {
	for _, o := range ownJudges {
		if o.owns(path, home) {
			return o.agent.Name
		}
	}
	return agentByFacts(path)
}

// agentByFacts names the agent without a judge of its own whose facts
// list path's file: its hook file (Cline's hooks/PreToolUse has no
// extension), a settings file of its folder in a home or a project
// (.qwen/settings.json), or any file of a folder every file of which is
// a hook it runs (HookFolders).
func agentByFacts(path string) string {
	for _, a := range agents.All {
		if judges[a.Name] != nil {
			continue
		}
		if strings.HasSuffix(path, "/"+a.HookFile) {
			return a.Name
		}
		for _, place := range slices.Concat(a.UserPlaces, a.ProjectPlaces) {
			if filepath.Ext(place) != "" && strings.HasSuffix(path, "/"+place) {
				return a.Name
			}
		}
		for _, d := range a.HookFolders {
			if strings.Contains(path, "/"+d+"/") {
				return a.Name
			}
		}
	}
	return ""
}

// switchJudge is the judge of an agent with no judge of its own: the
// file must stay a JSON object the agent can read when it holds our
// hook (comments allowed), must not set any of the agent's switches that
// turn its hooks off (its facts' HooksOff) that were not set before, and
// must leave alone the keys that choose which of its plugins or
// extensions load (GuardKeys); beside it, Judge keeps agentjail-hook
// named (keepsHookName).
func switchJudge(name string) judge {
	a, _ := agents.Named(name)
	return func(cur, res []byte) string {
		if res == nil {
			if strings.Contains(string(cur), hookcmd.Program) {
				return "delete the file that holds agentjail's hook"
			}
			return ""
		}
		resDoc, ok := parseJSONC(res)
		if !ok {
			// A settings file left unreadable; a hook script (Cline's
			// hooks/PreToolUse) is no JSON at all, and keepsHookName
			// judges it.
			if _, wasJSON := parseJSONC(cur); wasJSON && strings.Contains(string(cur), hookcmd.Program) {
				return fmt.Sprintf("leave a settings file %s cannot read, agentjail's hook with it", a.Title)
			}
			return ""
		}
		curDoc, _ := parseJSONC(cur)
		for _, key := range a.GuardKeys {
			if !reflect.DeepEqual(resDoc[key], curDoc[key]) {
				return fmt.Sprintf("change %q, which chooses the plugins or extensions %s loads (agentjail's is one)", key, a.Title)
			}
		}
		for _, key := range a.HooksOff {
			if setAnywhere(resDoc, key) && !setAnywhere(curDoc, key) {
				return fmt.Sprintf("set %q, which turns %s's hooks off, agentjail's included", key, a.Title)
			}
		}
		return ""
	}
}

// setAnywhere reports key set to true anywhere in doc.
func setAnywhere(doc any, key string) bool {
	switch v := doc.(type) {
	case map[string]any:
		for k, x := range v {
			if k == key && x == true || setAnywhere(x, key) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if setAnywhere(x, key) {
				return true
			}
		}
	}
	return false
}

// homeRel is path relative to home, or "" when it is not inside it.
func homeRel(path, home string) string {
	if home == "" || !strings.HasPrefix(path, home+"/") {
		return ""
	}
	return path[len(home)+1:]
}

// Judge decides one tool call's write to path, a hook configuration file
// of agent (see Agent). tool and input are the call as the agent sent it;
// main is set when path is the call's main path argument (file_path), the
// one its content or edits go to; read gives the file's current content
// (nil: treated as absent).
func Judge(agent, tool string, input map[string]any, path string, main bool, read ReadFunc) Judgement {
	j := Judgement{Path: path, Agent: agent}
	fail := func(problem string) Judgement {
		j.RemovesGuard, j.Problem = true, problem
		return j
	}
	cur, res, unchanged, problem := Result(tool, input, path, main, read)
	if problem != "" {
		return fail(problem)
	}
	if unchanged {
		if cur == nil && touchesGuard(tool, input) {
			// The edit fails today because the file is not there, but
			// one created first (a Write, a second agent) would take it.
			// Refusing costs a user nothing: the edit could not apply.
			return fail("edit the hooks, hook switches or environment of a settings file that is not there, so agentjail cannot check the result")
		}
		if cur == nil {
			j.Grants = editGrants(agent, tool, input)
		}
		return j
	}
	judge := judges[agent]
	if judge == nil {
		judge = switchJudge(agent)
	}
	p := judge(cur, res)
	if p == "" && agent != claude.Agent.Name {
		// Beside each agent's structural judge: a file that names
		// agentjail-hook anywhere must keep naming it.
		p = keepsHookName(cur, res)
	}
	if p == "" {
		p = keepsPostHook(cur, res)
	}
	if p != "" {
		return fail(p)
	}
	if grants := grantJudges[agent]; grants != nil {
		j.Grants = grants(cur, res)
	}
	if runs := codeJudges[agent]; runs != nil {
		j.RunsCode = runs(cur, res)
	}
	j.CreatedUnhooked = cur == nil && res != nil && !strings.Contains(string(res), hookcmd.Program)
	return j
}

// Apply computes the content a tool call leaves at path, given the
// current content cur (nil when the file does not exist). unchanged is set
// when the call would fail and so leave the file as it is; problem when
// the result cannot be computed (agentjail then treats the write as one
// that removes the guard).
//
// Edits are applied as Claude Code applies them: old_string must occur in
// the file exactly once (every occurrence with replace_all), MultiEdit's
// edits apply in order to the result of the ones before, and any edit that
// does not apply makes the whole call fail. A call that fails leaves the
// file unchanged, which is harmless, with one exception: when the file
// exists but old_string is not in it, the agent's tool retries with
// normalised quotes and other rewrites agentjail does not reproduce, so
// that edit is treated as one that cannot be checked.
func Apply(tool string, input map[string]any, cur []byte) (res []byte, unchanged bool, problem string) {
	switch tool {
	case "Write":
		content, ok := input["content"].(string)
		if !ok {
			return nil, false, "write content agentjail cannot see"
		}
		return []byte(content), false, ""
	case "Edit":
		return applyEdits(cur, []any{input})
	case "MultiEdit":
		edits, ok := input["edits"].([]any)
		if !ok {
			return nil, false, "apply edits agentjail cannot read"
		}
		return applyEdits(cur, edits)
	}
	// Another tool that writes the file (an MCP write_file): judge the
	// whole content it carries. A notebook edit of a JSON file, or a tool
	// whose input holds no whole content, cannot be computed.
	if tool != "NotebookEdit" {
		if s, ok := Content(input); ok {
			return []byte(s), false, ""
		}
	}
	return nil, false, fmt.Sprintf("change it with %s, whose result agentjail cannot compute", tool)
}

// Content is the whole file content a generic write tool's input carries.
func Content(input map[string]any) (string, bool) {
	for _, k := range []string{"content", "contents", "text", "data"} {
		if s, ok := input[k].(string); ok {
			return s, true
		}
	}
	return "", false
}

func applyEdits(cur []byte, edits []any) ([]byte, bool, string) {
	if len(edits) > maxEdits {
		return nil, false, fmt.Sprintf("apply more than %d edits at once, more than agentjail checks", maxEdits)
	}
	exists := cur != nil
	text := string(cur)
	for i, e := range edits {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false, "apply an edit agentjail cannot read"
		}
		old, ok1 := m["old_string"].(string)
		repl, ok2 := m["new_string"].(string)
		all, _ := m["replace_all"].(bool)
		if !ok1 || !ok2 {
			return nil, false, "apply an edit agentjail cannot read"
		}
		if old == "" {
			// An empty old_string creates the file; the tool refuses it
			// for a file that has content.
			if i == 0 && (!exists || strings.TrimSpace(text) == "") {
				text, exists = repl, true
				continue
			}
			return nil, true, ""
		}
		if !exists {
			return nil, true, "" // the tool fails: no such file
		}
		if old == repl {
			return nil, true, "" // the tool refuses an edit that changes nothing
		}
		n := strings.Count(text, old)
		switch {
		case n == 0:
			return nil, false, "apply an edit whose old_string is not in the file as it is now (re-read the file and edit its current text)"
		case n > 1 && !all:
			return nil, true, "" // the tool refuses an ambiguous edit
		}
		if int64(len(text))+int64(n)*(int64(len(repl))-int64(len(old))) > MaxFileSize {
			return nil, false, fmt.Sprintf("leave a file agentjail cannot check (over %d bytes)", MaxFileSize)
		}
		if all {
			text = strings.ReplaceAll(text, old, repl)
		} else {
			text = strings.Replace(text, old, repl, 1)
		}
	}
	return []byte(text), false, ""
}

// keepsHookName is the conservative judge for agents whose configuration
// agentjail does not parse yet: a file that names agentjail-hook must
// still name it afterwards.
func keepsHookName(cur, res []byte) string {
	if strings.Contains(string(cur), hookcmd.Program) && !strings.Contains(string(res), hookcmd.Program) {
		return "drop the agentjail hook"
	}
	return ""
}

// postHook is the command of a post-tool entry of agentjail's, as it
// stands in a settings file.
var postHook = regexp.MustCompile(regexp.QuoteMeta(hookcmd.Program) + `[^"'\n]*\s--post\b`)

// keepsPostHook says what is wrong with an edit that drops one of
// agentjail's post-tool entries: they tell the daemon of every call that
// ran, checked or not, and without them a call that ran unchecked is
// never counted.
func keepsPostHook(cur, res []byte) string {
	if len(postHook.FindAll(res, -1)) < len(postHook.FindAll(cur, -1)) {
		return "drop the agentjail post-tool hook, which tells agentjail of every call that ran, checked or not"
	}
	return ""
}

// guardWords are the settings text that an edit weakening the guard
// touches: the hook tables, their switches and the environment.
var guardWords = []string{"agentjail", "hooks", "pretooluse", "matcher", "disableallhooks", "allowmanagedhooksonly", "\"env\"", "claude_code_", "\\u"}

// editsOf is an Edit's input, or a MultiEdit's edits, each an object
// with old_string and new_string.
func editsOf(tool string, input map[string]any) []map[string]any {
	switch tool {
	case "Edit":
		return []map[string]any{input}
	case "MultiEdit":
		list, _ := input["edits"].([]any)
		out := make([]map[string]any, 0, len(list))
		for _, e := range list {
			m, _ := e.(map[string]any)
			out = append(out, m)
		}
		return out
	}
	return nil
}

// touchesGuard reports whether an Edit or MultiEdit names guardWords in
// the text it replaces or the text it writes.
func touchesGuard(tool string, input map[string]any) bool {
	for _, m := range editsOf(tool, input) {
		for _, k := range []string{"old_string", "new_string"} {
			s, _ := m[k].(string)
			s = strings.ToLower(s)
			for _, w := range guardWords {
				if strings.Contains(s, w) {
					return true
				}
			}
		}
	}
	return false
}
