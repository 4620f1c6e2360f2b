package installer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/agents/opencode"
	"github.com/agentjail/agentjail/agents/pi"
	"github.com/agentjail/agentjail/internal/agentconfig"
	"github.com/agentjail/agentjail/internal/hookcmd"
	"github.com/agentjail/agentjail/internal/wire"
)

// Each agent has switches of its own that stop it running hooks: with one
// set, the hook install added is in the file but never runs, and the
// agent says nothing. The switches below were read from the agents' own
// code (Claude Code 2.1.330, Gemini CLI 0.61.0, Codex 0.169.0, Copilot
// CLI 1.0.102); Cursor documents none. Each check reads the files the
// agent reads at user scope (and machine-wide, where readable), never
// writes, and counts a file it cannot read or parse as not switching
// anything off (install and status say what is wrong with a broken file
// of ours elsewhere).

// configSays names where the settings install writes come from, for a
// message: config.yaml, or its defaults when there is none.
func (o Options) configSays() string {
	if o.NoConfigFile {
		return "with no config.yaml the default is"
	}
	return "config.yaml sets"
}

// readSettingsJSON reads a JSON (or JSON-with-comments) settings file as
// an object; nil when it is missing, unreadable or not an object.
func readSettingsJSON(path string) map[string]any {
	b, err := readThrough(path)
	if err != nil {
		return nil
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return nil
	}
	v.Standardize()
	var doc map[string]any
	if json.Unmarshal(v.Pack(), &doc) != nil {
		return nil
	}
	return doc
}

// tildePath shows a path under the user's home as ~/...
func (o Options) tildePath(p string) string {
	if o.UserHome != "" {
		if rel, err := filepath.Rel(o.UserHome, p); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
			return filepath.Join("~", rel)
		}
	}
	return p
}

// claudeOff: "disableAllHooks": true in any settings file Claude Code
// merges turns off every hook but managed ones; managed settings with
// "allowManagedHooksOnly": true run only their own hooks.
func (o Options) claudeOff() []string {
	files := []string{filepath.Join(o.UserHome, ".claude", "settings.json")}
	if o.Scope == "project" {
		files = append(files,
			filepath.Join(o.ProjectDir, ".claude", "settings.json"),
			filepath.Join(o.ProjectDir, ".claude", "settings.local.json"))
	}
	var out []string
	for _, f := range files {
		if doc := readSettingsJSON(f); doc != nil && doc["disableAllHooks"] == true {
			out = append(out, fmt.Sprintf(`%s sets "disableAllHooks": true, so Claude Code runs no hooks: remove the key or set it to false`, o.tildePath(f)))
		}
	}
	for _, f := range claudeManagedFiles() {
		doc := readSettingsJSON(f)
		switch {
		case doc == nil:
		case doc["disableAllHooks"] == true:
			out = append(out, fmt.Sprintf(`the managed settings %s set "disableAllHooks": true, so Claude Code runs no hooks: ask whoever manages this machine to remove it`, f))
		case doc["allowManagedHooksOnly"] == true:
			out = append(out, fmt.Sprintf(`the managed settings %s set "allowManagedHooksOnly": true, so Claude Code runs only managed hooks, not the one in your settings: ask whoever manages this machine to put agentjail's hook into the managed settings (sudo agentjail install --system)`, f))
		}
	}
	return out
}

// claudeManagedFiles are the managed settings files: the one file and
// the drop-ins of managed-settings.d, in the folder of this OS.
func claudeManagedFiles() []string {
	dir := claudeManagedDir
	files := []string{filepath.Join(dir, "managed-settings.json")}
	drop, _ := filepath.Glob(filepath.Join(dir, "managed-settings.d", "*.json"))
	sort.Strings(drop)
	return append(files, drop...)
}

// geminiSystemSettings is Gemini CLI's machine-wide settings file, which
// overrides the user's; system-defaults.json beside it is overridden by
// the user's.
func geminiSystemSettings() string {
	if p := os.Getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"); p != "" {
		return p
	}
	return geminiSystemSettingsPath
}

func geminiSystemDefaults() string {
	if p := os.Getenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH"); p != "" {
		return p
	}
	return filepath.Join(filepath.Dir(geminiSystemSettings()), "system-defaults.json")
}

// geminiOff: hooksConfig.enabled false turns the hooks system off (the
// last of system defaults, user settings, system settings wins);
// hooksConfig.disabled (merged as a union) names hooks that do not run,
// by their name or, without one, their command. The user's own file is
// read in system mode too: the system file's enabled true outweighs its
// false, but nothing outweighs its disabled list.
func (o Options) geminiOff() []string {
	files := []string{geminiSystemDefaults(), filepath.Join(o.UserHome, ".gemini", "settings.json"), geminiSystemSettings()}
	var out []string
	enabled, from := true, ""
	for _, f := range files {
		doc := readSettingsJSON(f)
		hc, _ := doc["hooksConfig"].(map[string]any)
		if v, ok := hc["enabled"].(bool); ok {
			enabled, from = v, f
		}
		list, _ := hc["disabled"].([]any)
		for _, n := range list {
			s, _ := n.(string)
			if s == "agentjail" || hookcmd.IsHook(s) {
				out = append(out, fmt.Sprintf(`%s lists %q in hooksConfig.disabled, so Gemini CLI skips agentjail's hook: take it out of the list`, o.tildePath(f), s))
			}
		}
	}
	if !enabled {
		out = append([]string{fmt.Sprintf(`%s sets hooksConfig.enabled: false, so Gemini CLI runs no hooks: remove the key or set it to true`, o.tildePath(from))}, out...)
	}
	return out
}

// codexOff: the hooks feature ([features] hooks, or its older name
// codex_hooks; the new name wins where both are set) false in the user's
// config.toml, or in /etc/codex/config.toml when the user's says nothing.
func (o Options) codexOff() []string {
	for _, f := range []string{o.codexConfigPath(), codexSystemConfig} {
		b, err := readThrough(f)
		if err != nil {
			continue
		}
		var doc struct {
			Features map[string]any `toml:"features"`
		}
		if toml.Unmarshal(b, &doc) != nil {
			continue
		}
		for _, key := range agentconfig.CodexHookFeatures {
			v, ok := doc.Features[key].(bool)
			if !ok {
				continue
			}
			if v {
				return nil
			}
			return []string{fmt.Sprintf(`%s sets %s = false under [features], so Codex runs no hooks: remove the line or set it to true`, o.tildePath(f), key)}
		}
	}
	return nil
}

// copilotOff: "disableAllHooks": true in Copilot CLI's settings.json
// turns off user-level and repository hooks alike, but not the
// machine-wide policy hooks of a system install.
func (o Options) copilotOff() []string {
	if o.System {
		return nil // the policy.d hook holds against every user switch
	}
	f := filepath.Join(o.copilotHome(), "settings.json")
	doc := readSettingsJSON(f)
	for _, key := range agentconfig.CopilotSwitches {
		if doc != nil && doc[key] == true {
			return []string{fmt.Sprintf(`%s sets "%s": true, so Copilot CLI runs no hooks: remove the key or set it to false`, o.tildePath(f), key)}
		}
	}
	return nil
}

// hookCommandsIn lists the agentjail-hook command lines in a JSON (or
// JSON-with-comments) hooks file, with the object holding each: any
// object whose "command" (or Copilot's "bash") runs agentjail-hook.
func hookCommandsIn(src []byte) []hookUse {
	if isClineHook(src) {
		return clineHookUses(src)
	}
	if js, ok := pluginSettingsJSON(src); ok {
		src = js // opencode's and Kilo CLI's plugin
	}
	v, err := hujson.Parse(src)
	if err != nil {
		return nil
	}
	v.Standardize()
	var doc any
	if json.Unmarshal(v.Pack(), &doc) != nil {
		return nil
	}
	var out []hookUse
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			for _, k := range []string{"command", "bash"} {
				if c, ok := t[k].(string); ok && hookcmd.IsHook(c) {
					out = append(out, hookUse{command: c, entry: t})
					break
				}
			}
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(t[k])
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(doc)
	return out
}

// hookUse is one agentjail-hook command found in an agent's file.
type hookUse struct {
	command string
	entry   map[string]any
}

// entryProblems checks the agentjail entries of one wired file of an
// agent: the hook program must be there and executable, the entry must
// carry config.yaml's fail mode (the flag, and the agent's own knob
// where it has one), hook timeout and hold, as install writes them, and
// the agent must let the hook run longer than it can take.
func (o Options) entryProblems(agent, path string, cur []byte) []string {
	var out []string
	wantTimeout := o.HookTimeout
	if wantTimeout <= 0 {
		wantTimeout = hookcmd.DefaultTimeout
	}
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	where := o.tildePath(path)
	if staleGuardCode(path, cur) {
		add(fmt.Sprintf("%s: agentjail's code in it is not the code this agentjail writes (another version's), so it may not do what the daemon answers (run a call confined, say): run `agentjail install`", where))
	}
	if isPiExtension(path) {
		cur = piConfigOf(cur) // the extension's settings line
	}
	for _, u := range hookCommandsIn(cur) {
		line := hookcmd.ParseLine(u.command)
		f := line.Flags
		if fi, err := os.Stat(line.Program); err != nil {
			add(fmt.Sprintf("%s: the hook program %s is missing, so the agent cannot run the hook", where, line.Program))
		} else if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			add(fmt.Sprintf("%s: the hook program %s is not an executable file, so the agent cannot run the hook", where, line.Program))
		}
		if line.Err != nil {
			add(fmt.Sprintf("%s: the hook command has a flag the hook cannot read (%v), and the hook reads no flag after it: run `agentjail install`", where, line.Err))
		}
		switch {
		case o.FailClosed && !f.FailClosed:
			add(fmt.Sprintf("%s: the hook runs without --fail-closed but config.yaml sets fail_mode: closed", where))
		case !o.FailClosed && f.FailClosed:
			add(fmt.Sprintf("%s: the hook runs with --fail-closed but %s fail_mode: open", where, o.configSays()))
		}
		// A post-tool entry blocks nothing (its call has run), so it has
		// no knob to carry.
		if knob := failClosedKnob(agent); knob.Key != "" && o.FailClosed && !f.Post && u.entry[knob.Key] != knob.Value {
			add(fmt.Sprintf("%s: agentjail's entry lacks %q: %s, so the call runs unchecked when the hook cannot start, though config.yaml sets fail_mode: closed", where, knob.Key, mustJSON(knob.Value)))
		}
		if f.Timeout != wantTimeout {
			add(fmt.Sprintf("%s: the hook runs with --timeout %v but %s hook_timeout %v", where, f.Timeout, o.configSays(), wantTimeout))
		}
		hold := f.Hold
		if want := o.holdFor(agent); hold != want {
			add(fmt.Sprintf("%s: the hook command has %s but %s approval_timeout %v, which install writes as %s: run `agentjail install`", where, holdFlag(hold), o.configSays(), o.ApprovalTimeout, holdFlag(want)))
		}
		if f.Post {
			hold = 0 // a call that has run is not held
		}
		if p := agentTimeoutProblem(agent, u, f, hold); p != "" {
			add(where + ": " + p)
		}
	}
	return slices.Clip(out)
}

// holdFlag names a hold as the hook command carries it.
func holdFlag(hold time.Duration) string {
	if hold <= 0 {
		return "no --hold"
	}
	return "--hold " + hold.String()
}

// agentTimeoutProblem says what is wrong when the agent would stop the
// hook before the hook can be done: its own timeout (the key of its
// entry, or its fixed bound) not above the hook's deadline and hold. An
// entry without the key, or an agent whose bound is not known, is not
// judged.
func agentTimeoutProblem(name string, u hookUse, f hookcmd.Flags, hold time.Duration) string {
	a, _ := agents.Named(name)
	t := a.HookTimeout
	own := t.Fixed
	if t.Key != "" {
		n, ok := u.entry[t.Key].(float64)
		if !ok {
			return ""
		}
		own = time.Duration(n * float64(t.Unit))
	}
	hook := f.Timeout
	if own <= 0 {
		return ""
	}
	if run := hookRun(hook, hold); own <= run {
		return fmt.Sprintf("%s stops the hook after %v, but the hook may take %v (--timeout %v, %v more for a daemon that is starting, %s), so a call could run unchecked: run `agentjail install`", a.Title, own, run, hook, wire.StartGrace, holdFlag(f.Hold))
	}
	return ""
}

// staleGuardCode reports a plugin or extension of ours whose code (all
// but its settings line) is not the code this build writes: one an
// older agentjail wrote, which would ignore what a newer hook answers.
func staleGuardCode(path string, cur []byte) bool {
	var template string
	var settings func(line string) bool
	switch {
	case isPluginPath(path):
		template, settings = opencode.Plugin, func(l string) bool { return strings.Contains(l, opencode.SettingsMarker) }
	case isPiExtension(path):
		template, settings = pi.Extension, func(l string) bool { return strings.HasPrefix(l, pi.ConfigPrefix) }
	default:
		return false
	}
	code := func(src string) string {
		var b strings.Builder
		for _, l := range strings.SplitAfter(src, "\n") {
			if !settings(l) {
				b.WriteString(l)
			}
		}
		return b.String()
	}
	return code(string(cur)) != code(template)
}

// failClosedKnob is the key an agent's own entry holds, beside the
// hook's --fail-closed, that makes the agent block a call when the hook
// cannot start at all (its facts): install sets it with fail_mode: closed.
func failClosedKnob(name string) agent.Knob {
	a, _ := agents.Named(name)
	return a.FailClosed
}
