package agentconfig

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/agentjail/agentjail/internal/hookcmd"
)

// ClaudeSettings reports whether path is a Claude Code settings file:
// .claude/settings.json or .claude/settings.local.json of any folder (the
// user's and every project's), or a managed-settings file.
func ClaudeSettings(path string) bool {
	base := filepath.Base(path)
	if (base == "settings.json" || base == "settings.local.json") && filepath.Base(filepath.Dir(path)) == ".claude" {
		return true
	}
	return managedSettings.MatchString(path)
}

var managedSettings = regexp.MustCompile(`^(/etc/claude-code|/Library/Application Support/ClaudeCode)/(managed-settings\.json|managed-settings\.d/[^/]+\.json)$`)

// minHookTimeout is the shortest Claude Code timeout (seconds) a new
// agentjail hook entry may have: the installer never writes less, and a
// shorter one lets Claude Code kill the hook, which runs the tool unchecked.
const minHookTimeout = 4

// defaultHookTimeout is Claude Code's timeout for a hook that sets none.
const defaultHookTimeout = 60

// switches are settings keys that turn hooks off wherever they take
// effect: disableAllHooks in any settings file drops every hook but the
// managed ones; the others keep only managed or plugin hooks.
var switches = []string{"disableAllHooks", "allowManagedHooksOnly", "strictPluginOnlyCustomization"}

// judgeClaude: the result must not be less guarded than the current file.
// Every file: no new hook switch, no new env that disables or redirects
// us, no new agentjail hook entry that is weaker than the installer's.
// A file that runs our hook must keep running it, for every tool, with
// the same command and no weaker settings, and must stay a file Claude
// Code accepts.
func judgeClaude(cur, res []byte) string {
	curDoc, curOK := parseObject(cur)
	if cur == nil {
		curDoc, curOK = map[string]any{}, true
	}
	resDoc, resOK := parseObject(res)
	if !resOK {
		if !curOK {
			return "" // it was not valid before either: nothing of ours was read
		}
		return "leave a file that is not a valid JSON object, which Claude Code would ignore, hooks included"
	}
	if !curOK {
		curDoc = map[string]any{}
	}
	for _, key := range switches {
		v, ok := resDoc[key]
		if ok && v != false && !reflect.DeepEqual(v, curDoc[key]) {
			return fmt.Sprintf("set %s, which switches off agentjail's hook", key)
		}
	}
	resEnv, _ := resDoc["env"].(map[string]any)
	curEnv, _ := curDoc["env"].(map[string]any)
	for _, k := range sortedKeys(resEnv) {
		if DisablingEnv(k) && !reflect.DeepEqual(resEnv[k], curEnv[k]) {
			return fmt.Sprintf("set env %s, which switches off or redirects agentjail's hook", k)
		}
	}
	for _, want := range ourHooks(curDoc) {
		if p := kept(want, resDoc); p != "" {
			return p
		}
	}
	if p := newWeakEntry(curDoc, resDoc); p != "" {
		return p
	}
	if len(ourHooks(curDoc)) > 0 {
		before := invalid(curDoc)
		for _, v := range invalid(resDoc) {
			if !slices.Contains(before, v) {
				return fmt.Sprintf("make Claude Code reject the whole file (%s), agentjail's hook with it", v)
			}
		}
	}
	return ""
}

// parseObject decodes a settings file as Claude Code does (JSON.parse:
// strict JSON, the last of duplicate keys wins, as in encoding/json).
func parseObject(b []byte) (map[string]any, bool) {
	if b == nil {
		return nil, false
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// hookRef is one agentjail hook command inside a PreToolUse entry.
type hookRef struct {
	entry map[string]any
	hook  map[string]any
}

func (h hookRef) command() string { s, _ := h.hook["command"].(string); return s }

// preToolUse lists the entries under hooks.PreToolUse.
func preToolUse(doc map[string]any) []map[string]any {
	hooks, _ := doc["hooks"].(map[string]any)
	list, _ := hooks["PreToolUse"].([]any)
	var out []map[string]any
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// ourHooks are the hook commands running agentjail-hook under PreToolUse.
func ourHooks(doc map[string]any) []hookRef {
	var out []hookRef
	for _, e := range preToolUse(doc) {
		hs, _ := e["hooks"].([]any)
		for _, h := range hs {
			if m, ok := h.(map[string]any); ok {
				if s, ok := m["command"].(string); ok && hookcmd.IsHook(s) {
					out = append(out, hookRef{e, m})
				}
			}
		}
	}
	return out
}

// fullMatcher: a matcher that matches every tool (absent, "" or "*").
func fullMatcher(e map[string]any) bool {
	v, ok := e["matcher"]
	if !ok {
		return true
	}
	s, ok := v.(string)
	return ok && (s == "" || s == "*" || s == ".*")
}

// kept reports what res lost of want, a hook of ours in the current file:
// res must have the same command in a PreToolUse entry whose matcher
// still covers what it covered, with the same settings (a timeout may
// only grow).
func kept(want hookRef, res map[string]any) string {
	problem := "remove the agentjail hook from hooks.PreToolUse"
	for _, got := range ourHooks(res) {
		if got.command() != want.command() {
			problem = "change the agentjail hook's command"
			continue
		}
		if p := sameEntry(want.entry, got.entry); p != "" {
			problem = p
			continue
		}
		if p := sameHook(want.hook, got.hook); p != "" {
			problem = p
			continue
		}
		return ""
	}
	if p := renamed(want, res); p != "" {
		return p
	}
	return problem
}

// renamed names the more specific loss when the command is still in the
// file, but not where Claude Code looks for it.
func renamed(want hookRef, res map[string]any) string {
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), hookcmd.Program) {
		return ""
	}
	if _, ok := res["hooks"].(map[string]any); !ok {
		return "move the agentjail hook out of \"hooks\", where Claude Code no longer runs it"
	}
	if len(ourHooks(res)) == 0 {
		return "move the agentjail hook out of hooks.PreToolUse, where Claude Code no longer runs it before each tool"
	}
	return ""
}

func sameEntry(want, got map[string]any) string {
	if !fullMatcher(got) && !reflect.DeepEqual(want["matcher"], got["matcher"]) {
		return fmt.Sprintf("change the agentjail entry's matcher to %s, which no longer matches every tool", jsonText(got["matcher"]))
	}
	for _, k := range unionKeys(want, got) {
		if k != "hooks" && k != "matcher" && !reflect.DeepEqual(want[k], got[k]) {
			return fmt.Sprintf("change %q of the agentjail entry", k)
		}
	}
	return ""
}

func sameHook(want, got map[string]any) string {
	for _, k := range unionKeys(want, got) {
		if k == "timeout" {
			if timeout(got) < timeout(want) {
				return fmt.Sprintf("lower the agentjail hook's timeout to %s seconds, so Claude Code would kill it and run the tool unchecked", jsonText(got["timeout"]))
			}
			continue
		}
		if !reflect.DeepEqual(want[k], got[k]) {
			return fmt.Sprintf("change %q of the agentjail hook", k)
		}
	}
	return ""
}

// timeout is a hook's timeout in seconds; anything but a positive number
// counts as none at all.
func timeout(h map[string]any) float64 {
	v, ok := h["timeout"]
	if !ok {
		return defaultHookTimeout
	}
	f, ok := v.(float64)
	if !ok || f <= 0 {
		return 0
	}
	return f
}

// newWeakEntry finds an agentjail hook entry that res adds or changes
// (in any settings file) and that is weaker than the installer's: Claude
// Code runs one copy of identical hook commands, so a weak copy in a
// project file could stand in for the user's.
func newWeakEntry(cur, res map[string]any) string {
	old := map[string]bool{}
	for _, h := range ourHooks(cur) {
		old[jsonText(h.entry)] = true
	}
	for _, h := range ourHooks(res) {
		if old[jsonText(h.entry)] {
			continue
		}
		switch {
		case !fullMatcher(h.entry):
			return fmt.Sprintf("add an agentjail hook whose matcher %s does not match every tool", jsonText(h.entry["matcher"]))
		case h.hook["type"] != "command":
			return "add an agentjail hook whose type is not \"command\""
		case h.hook["async"] != nil && h.hook["async"] != false, h.hook["asyncRewake"] != nil && h.hook["asyncRewake"] != false:
			return "add an agentjail hook that runs asynchronously, after the tool has already run"
		case h.hook["if"] != nil:
			return "add an agentjail hook with an \"if\" condition, so it would not run for every tool"
		case timeout(h.hook) < minHookTimeout:
			return fmt.Sprintf("add an agentjail hook with a timeout under %d seconds, so Claude Code would kill it and run the tool unchecked", minHookTimeout)
		}
	}
	return ""
}

// invalid lists what in doc Claude Code's settings schema refuses, for
// the keys that matter to the hook: one refused value makes Claude Code
// skip the whole file.
func invalid(doc map[string]any) []string {
	var out []string
	add := func(f string, a ...any) { out = append(out, fmt.Sprintf(f, a...)) }
	for _, key := range switches {
		if v, ok := doc[key]; ok {
			if _, ok := v.(bool); !ok {
				add("%s is not true or false", key)
			}
		}
	}
	if v, ok := doc["env"]; ok {
		env, ok := v.(map[string]any)
		if !ok {
			add("env is not an object")
		}
		for _, k := range sortedKeys(env) {
			if _, ok := env[k].(string); !ok {
				add("env.%s is not a string", k)
			}
		}
	}
	if v, ok := doc["permissions"]; ok {
		if _, ok := v.(map[string]any); !ok {
			add("permissions is not an object")
		}
	}
	v, ok := doc["hooks"]
	if !ok {
		return out
	}
	hooks, ok := v.(map[string]any)
	if !ok {
		return append(out, "hooks is not an object")
	}
	for _, event := range sortedKeys(hooks) {
		list, ok := hooks[event].([]any)
		if !ok {
			add("hooks.%s is not a list", event)
			continue
		}
		for i, e := range list {
			entry, ok := e.(map[string]any)
			if !ok {
				add("hooks.%s[%d] is not an object", event, i)
				continue
			}
			if m, ok := entry["matcher"]; ok {
				if _, ok := m.(string); !ok {
					add("hooks.%s[%d].matcher is not a string", event, i)
				}
			}
			hs, ok := entry["hooks"].([]any)
			if !ok {
				add("hooks.%s[%d].hooks is not a list", event, i)
				continue
			}
			for j, h := range hs {
				hook, ok := h.(map[string]any)
				if !ok {
					add("hooks.%s[%d].hooks[%d] is not an object", event, i, j)
					continue
				}
				if _, ok := hook["type"].(string); !ok {
					add("hooks.%s[%d].hooks[%d].type is missing", event, i, j)
				}
				if hook["type"] == "command" {
					if _, ok := hook["command"].(string); !ok {
						add("hooks.%s[%d].hooks[%d].command is not a string", event, i, j)
					}
				}
				if t, ok := hook["timeout"]; ok {
					if f, ok := t.(float64); !ok || f <= 0 {
						add("hooks.%s[%d].hooks[%d].timeout is not a positive number", event, i, j)
					}
				}
			}
		}
	}
	return out
}

func unionKeys(a, b map[string]any) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// claudeModes: permissions.defaultMode values by what they approve.
var (
	claudeWideModes   = []string{"bypassPermissions"}
	claudeNarrowModes = []string{"acceptEdits", "auto"}
	claudeSafeModes   = []string{"default", "plan", "dontAsk"}
)

// claudeGrants: what a change of a Claude Code settings file lets the
// agent do without asking: rules added to permissions.allow, deny and
// ask rules removed, a default mode that approves calls, folders added
// to additionalDirectories, the switches that guard bypass mode and the
// sandbox turned off. A file Claude Code would ignore loses its deny
// rules with it.
func claudeGrants(cur, res []byte) []Grant {
	curDoc, _ := parseObject(cur)
	curP := object(curDoc["permissions"])
	var g grants
	resDoc, ok := parseObject(res)
	if !ok || (resDoc["permissions"] != nil && object(resDoc["permissions"]) == nil) {
		if len(strList(curP["deny"])) > 0 {
			g.add(true, "leave a file Claude Code ignores, the user's permissions.deny rules with it")
		}
		return g
	}
	resP := object(resDoc["permissions"])
	g.newRules("permissions.allow", curP["allow"], resP["allow"], wideRule)
	g.removedRules("permissions.deny", curP["deny"], resP["deny"], true)
	g.removedRules("permissions.ask", curP["ask"], resP["ask"], false)
	g.mode("permissions.defaultMode", curP["defaultMode"], resP["defaultMode"], claudeWideModes, claudeNarrowModes, claudeSafeModes)
	g.newDirs("permissions.additionalDirectories", curP["additionalDirectories"], resP["additionalDirectories"])
	if curP["disableBypassPermissionsMode"] == "disable" && resP["disableBypassPermissionsMode"] != "disable" {
		g.add(false, "drop permissions.disableBypassPermissionsMode, which keeps the agent from skipping every permission check")
	}
	if turnedOn(curDoc["skipDangerousModePermissionPrompt"], resDoc["skipDangerousModePermissionPrompt"]) {
		g.add(false, "set skipDangerousModePermissionPrompt, so bypass mode starts without the user's confirmation")
	}
	if object(curDoc["sandbox"])["enabled"] == true && object(resDoc["sandbox"])["enabled"] != true {
		g.add(false, "turn off the sandbox that confines the agent's commands")
	}
	if turnedOn(object(curDoc["sandbox"])["autoAllowBashIfSandboxed"], object(resDoc["sandbox"])["autoAllowBashIfSandboxed"]) {
		g.add(false, "set sandbox.autoAllowBashIfSandboxed, approving sandboxed commands in advance")
	}
	return g
}
