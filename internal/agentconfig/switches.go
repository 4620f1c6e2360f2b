package agentconfig

import (
	"fmt"
	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/internal/hookcmd"
	"reflect"
	"slices"
	"strings"
)

// The switches and settings that turn an agent's hooks off, reroute them,
// or run code of their own beside them: one table per fact, read by the
// judges here, by the nested-launch judge and by the installer's check of
// switched-off hooks (installer/hooksoff.go).

// CodexHookFeatures are the [features] names under which Codex switches
// its hooks on: false under either (in config.toml, a profile, or -c
// features.X=false) switches every hook off.
var CodexHookFeatures = []string{"hooks", "codex_hooks"}

// CopilotSwitches are Copilot CLI settings.json keys that turn off every
// hook, user-level and repository ones alike.
var CopilotSwitches = []string{"disableAllHooks"}

// launchSwitch is an option or variable that starts an agent without
// its hooks, agentjail's included: the agent's word, and its Switch.
type launchSwitch struct {
	agent string
	agent.Switch
}

// launchSwitches are the agents' Switches (their facts), by the word
// that names each agent's program: the whole launch judge of the agents
// other than Claude Code and Codex (nestedClaude, nestedCodex).
var launchSwitches = func() []launchSwitch {
	var out []launchSwitch
	for _, a := range agents.All {
		for _, sw := range a.Switches {
			out = append(out, launchSwitch{a.Programs[0], sw})
		}
	}
	return out
}()

// nestedSwitch judges one launch of agent by launchSwitches: args are
// its words (up to a --), env what it starts with.
func nestedSwitch(agent string, args []string, env map[string]string) *Launch {
	for _, sw := range launchSwitches {
		if sw.agent != agent {
			continue
		}
		hit := false
		if sw.Env != "" {
			_, hit = env[sw.Env]
		}
		for _, a := range args {
			if a == "--" {
				break
			}
			if f, _, _ := strings.Cut(a, "="); sw.Flag != "" && f == sw.Flag {
				hit = true
			}
		}
		if hit {
			return &Launch{Program: agent, Verdict: sw.Verdict, Problem: sw.Why}
		}
	}
	return nil
}

// disablingEnv are environment variables that switch off or redirect
// agentjail's hook, or run code around every command the agent runs,
// hooks included: bash sources BASH_ENV before every non-interactive
// script, CLAUDE_CODE_SHELL_PREFIX wraps every command line.
var disablingEnv = map[string]bool{
	"CLAUDE_CODE_SIMPLE": true, "CLAUDE_CODE_SAFE_MODE": true, "CLAUDE_CONFIG_DIR": true, "HOME": true,
	"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "LD_AUDIT": true, "NODE_OPTIONS": true,
	"BASH_ENV": true, "CLAUDE_CODE_SHELL_PREFIX": true,
}

// disablingEnvPrefixes: every variable named so (AGENTJAIL_SOCKET, DYLD_INSERT_LIBRARIES).
var disablingEnvPrefixes = []string{"AGENTJAIL_", "DYLD_"}

// commandEnv are variables that change which programs every command
// runs, or what a shell runs first: set in an agent's settings they run
// code the user did not see (a human should confirm). ENV is what an
// interactive sh sources; a common name for other things too, so it asks.
var commandEnv = map[string]bool{
	"PATH": true, "SHELL": true, "ENV": true, "ZDOTDIR": true, "PROMPT_COMMAND": true, "PYTHONSTARTUP": true,
	"PYTHONPATH": true, "PERL5OPT": true, "PERL5LIB": true, "RUBYOPT": true, "GIT_CONFIG_GLOBAL": true,
	"GIT_EXEC_PATH": true, "GIT_SSH_COMMAND": true, "EDITOR": true, "VISUAL": true, "PAGER": true,
}

// DisablingEnv reports an environment variable that switches off or
// redirects agentjail's hook (AGENTJAIL_*), every hook (CLAUDE_CODE_SIMPLE,
// set by --bare; CLAUDE_CODE_SAFE_MODE, set by --safe-mode), the settings
// that hold the hook (CLAUDE_CONFIG_DIR, CODEX_HOME, HOME), or what runs
// the hook command and every other (loader and Node injection, BASH_ENV,
// CLAUDE_CODE_SHELL_PREFIX).
func DisablingEnv(name string) bool {
	if disablingEnv[name] {
		return true
	}
	for _, p := range disablingEnvPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// CommandEnv reports a variable that changes what every command runs
// (PATH, SHELL, PYTHONSTARTUP ...), short of switching the hook off.
func CommandEnv(name string) bool { return commandEnv[name] }

// claudeCodeKeys are Claude Code settings whose value is a command it
// runs by itself: at every prompt (statusLine), for credentials
// (apiKeyHelper, awsAuthRefresh, awsCredentialExport, gcpAuthRefresh),
// for telemetry headers (otelHeadersHelper), for file suggestions.
var claudeCodeKeys = []string{"statusLine", "apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "gcpAuthRefresh", "otelHeadersHelper", "fileSuggestion"}

// quietStatusPrograms are programs that only print, and for git the
// subcommands (with the only options) that only print: a statusLine that
// runs one of them as one plain command, no shell syntax, runs nothing
// else and passes (git branch --show-current, pwd, date).
var quietStatusPrograms = map[string][]string{
	"pwd": nil, "date": nil, "whoami": nil, "hostname": nil, "uname": nil, "echo": nil, "printf": nil,
	"git": {"branch --show-current", "rev-parse", "describe", "status"},
}

// quietStatusLine: a statusLine setting whose command is one of
// quietStatusPrograms' forms.
func quietStatusLine(key string, v any) bool {
	m, _ := v.(map[string]any)
	cmd, _ := m["command"].(string)
	if key != "statusLine" || cmd == "" || strings.ContainsAny(cmd, "$`;|&<>()\\\n'\"{}*?~") {
		return false
	}
	f := strings.Fields(cmd)
	forms, ok := quietStatusPrograms[f[0]]
	if !ok {
		return false
	}
	if forms == nil {
		return true
	}
	rest := strings.Join(f[1:], " ")
	for _, form := range forms {
		if rest == form || !strings.Contains(form, " ") && strings.HasPrefix(rest, form) && !strings.Contains(rest, "--output") {
			return true
		}
	}
	return false
}

// claudeRunsCode: a new PreToolUse hook that is not ours (it runs after
// agentjail's check and may rewrite the tool's input), a new or changed
// command setting (statusLine, apiKeyHelper ...), an env entry that
// changes what every command runs.
func claudeRunsCode(cur, res []byte) []string {
	curDoc, _ := parseObject(cur)
	resDoc, ok := parseObject(res)
	if !ok {
		return nil
	}
	var out []string
	old := map[string]bool{}
	for _, c := range hookCommands(curDoc) {
		old[c] = true
	}
	for _, c := range hookCommands(resDoc) {
		if !old[c] && !hookcmd.IsHook(c) {
			out = append(out, fmt.Sprintf("add the PreToolUse hook `%s`, which runs before every tool call beside agentjail's and may rewrite what the tool gets after agentjail has checked it", c))
		}
	}
	for _, k := range claudeCodeKeys {
		if v, ok := resDoc[k]; ok && v != nil && !reflect.DeepEqual(v, curDoc[k]) && !quietStatusLine(k, v) {
			out = append(out, fmt.Sprintf("set %s to %s, a command Claude Code runs by itself, unchecked by agentjail", k, jsonText(v)))
		}
	}
	resEnv, _ := resDoc["env"].(map[string]any)
	curEnv, _ := curDoc["env"].(map[string]any)
	for _, k := range sortedKeys(resEnv) {
		if CommandEnv(k) && !reflect.DeepEqual(resEnv[k], curEnv[k]) {
			out = append(out, fmt.Sprintf("set env %s, which changes what every command Claude Code runs", k))
		}
	}
	return out
}

// hookCommands are the command lines of every PreToolUse hook in a
// Claude Code settings document, once each.
func hookCommands(doc map[string]any) []string {
	var out []string
	for _, e := range preToolUse(doc) {
		hs, _ := e["hooks"].([]any)
		for _, h := range hs {
			m, _ := h.(map[string]any)
			c, _ := m["command"].(string)
			if t, _ := m["type"].(string); c == "" && t != "" {
				c = t // a prompt or agent hook: it too runs before the tool
			}
			if c != "" && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// switchedOn: a settings key that res sets to anything but false where
// cur did not.
func switchedOn(key string, cur, res map[string]any) bool {
	v, ok := res[key]
	return ok && v != false && !reflect.DeepEqual(v, cur[key])
}

// hookEntryChanged names what a change of one of our hook entries (in a
// format where entries carry their own env or type, Copilot's and
// Cursor's) adds that reroutes or replaces the hook: an env, which runs
// the hook against another daemon or with a loader, or a type other than
// a command.
func hookEntryChanged(want, got map[string]any) string {
	if !reflect.DeepEqual(want["env"], got["env"]) && got["env"] != nil {
		return "give the agentjail hook an env of its own, which can run it against another daemon or switch it off"
	}
	if t, ok := got["type"]; ok && t != "command" && !reflect.DeepEqual(t, want["type"]) {
		return fmt.Sprintf("turn the agentjail hook into a %s hook, which no longer runs agentjail", jsonText(t))
	}
	return ""
}
