package installer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/service"
)

// Install without --for wires the agents whose folders are there, names
// the rest, and makes no agent's folder; a named agent gets its folder,
// and install says so.
func TestInstallWiresAgentsFoundOnly(t *testing.T) {
	o := agentOptions(t)
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	os.WriteFile(filepath.Join(bin, "codex"), []byte("#!/bin/sh\n"), 0o755)
	os.MkdirAll(filepath.Join(o.UserHome, ".gemini"), 0o755)
	os.MkdirAll(filepath.Join(o.UserHome, ".cursor"), 0o755)
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	out := o.Out.(*bytes.Buffer).String()
	for _, want := range []string{
		"agents: wiring Gemini CLI, Cursor; not found: Claude Code, Copilot CLI, ",
		"Codex: found (its program is on PATH) but not wired: ~/.codex does not exist",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, d := range []string{".claude", ".codex", ".copilot"} {
		if isDir(filepath.Join(o.UserHome, d)) {
			t.Errorf("install made ~/%s", d)
		}
	}
	if read(t, o.geminiSettingsPath()) == "<missing>" || read(t, o.cursorHooksPath()) == "<missing>" {
		t.Errorf("gemini or cursor not wired")
	}
	states := Agents(o)
	if c := states[1]; c.Name != "codex" || !c.Found || c.Wired || !c.NoFolder {
		t.Errorf("codex: %+v", c)
	}
	if p := AgentProblems(states); len(p) != 1 || p[0].Kind != "agent_unguarded" || !strings.Contains(p[0].Fix, "--for codex") {
		t.Errorf("problems: %+v", p)
	}

	o.Agents, o.Out = []string{"codex"}, &bytes.Buffer{}
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if out := o.Out.(*bytes.Buffer).String(); !strings.Contains(out, "Codex: ~/.codex does not exist; install makes it, as --for codex asked") {
		t.Errorf("install --for codex:\n%s", out)
	}
	if p := AgentProblems(Agents(o)); len(p) != 0 {
		t.Errorf("problems after wiring codex: %+v", p)
	}
}

// With nothing found nothing is wired or made, and install says how to
// wire an agent later.
func TestInstallWithNoAgent(t *testing.T) {
	o := agentOptions(t)
	t.Setenv("PATH", t.TempDir())
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	out := o.Out.(*bytes.Buffer).String()
	if !strings.Contains(out, "no agent found to wire") || !strings.Contains(out, "agentjail install --for NAME") || strings.Contains(out, "added the agentjail hook") {
		t.Errorf("output:\n%s", out)
	}
	entries, _ := os.ReadDir(o.UserHome)
	for _, e := range entries {
		if e.Name() != ".agentjail" {
			t.Errorf("install made ~/%s", e.Name())
		}
	}
}

// Each agent's own switches, as its code reads them, across the files it
// reads (user, machine-wide, defaults) in its order of precedence; the
// same keys with harmless values are not reported.
func TestAgentSwitchesOff(t *testing.T) {
	type files map[string]string // relative to a root: home/... or sys/...
	tests := []struct {
		name  string
		agent string
		files files
		want  string // "" for not off; else a part of the message
	}{
		{"claude user switch", "claude-code", files{"home/.claude/settings.json": `{"disableAllHooks": true}`}, `"disableAllHooks": true`},
		{"claude user switch false", "claude-code", files{"home/.claude/settings.json": `{"disableAllHooks": false}`}, ""},
		{"claude switch as a string is not the switch", "claude-code", files{"home/.claude/settings.json": `{"disableAllHooks": "true"}`}, ""},
		{"claude managed switch", "claude-code", files{"sys/claude/managed-settings.json": `{"disableAllHooks": true}`}, "the managed settings"},
		{"claude managed drop-in", "claude-code", files{"sys/claude/managed-settings.d/10-org.json": `{"allowManagedHooksOnly": true}`}, "allowManagedHooksOnly"},
		{"claude managed, hooks allowed", "claude-code", files{"sys/claude/managed-settings.json": `{"allowManagedHooksOnly": false}`}, ""},
		{"gemini user off", "gemini", files{"home/.gemini/settings.json": "// c\n{\"hooksConfig\": {\"enabled\": false}}"}, "hooksConfig.enabled: false"},
		{"gemini user on", "gemini", files{"home/.gemini/settings.json": `{"hooksConfig": {"enabled": true}}`}, ""},
		{"gemini system overrides the user", "gemini", files{"home/.gemini/settings.json": `{"hooksConfig": {"enabled": false}}`, "sys/gemini/settings.json": `{"hooksConfig": {"enabled": true}}`}, ""},
		{"gemini system off", "gemini", files{"home/.gemini/settings.json": `{"hooksConfig": {"enabled": true}}`, "sys/gemini/settings.json": `{"hooksConfig": {"enabled": false}}`}, "sys/gemini/settings.json sets hooksConfig.enabled: false"},
		{"gemini user overrides the defaults", "gemini", files{"sys/gemini/system-defaults.json": `{"hooksConfig": {"enabled": false}}`, "home/.gemini/settings.json": `{"hooksConfig": {"enabled": true}}`}, ""},
		{"gemini our hook disabled by name", "gemini", files{"home/.gemini/settings.json": `{"hooksConfig": {"disabled": ["x", "agentjail"]}}`}, `"agentjail" in hooksConfig.disabled`},
		{"gemini another hook disabled", "gemini", files{"home/.gemini/settings.json": `{"hooksConfig": {"disabled": ["agentjail-audit"]}}`}, ""},
		{"gemini the notifications switch", "gemini", files{"home/.gemini/settings.json": `{"hooksConfig": {"notifications": false}}`}, ""},
		{"codex hooks off", "codex", files{"home/.codex/config.toml": "model = \"o4\"\n[features]\nhooks = false\n"}, "hooks = false under [features]"},
		{"codex old name off", "codex", files{"home/.codex/config.toml": "[features]\ncodex_hooks = false\n"}, "codex_hooks = false"},
		{"codex new name wins", "codex", files{"home/.codex/config.toml": "[features]\ncodex_hooks = false\nhooks = true\n"}, ""},
		{"codex another feature off", "codex", files{"home/.codex/config.toml": "[features]\nplugin_hooks = false\n"}, ""},
		{"codex hooks key elsewhere", "codex", files{"home/.codex/config.toml": "[tui]\nhooks = false\n"}, ""},
		{"codex system off, user silent", "codex", files{"sys/codex/config.toml": "[features]\nhooks = false\n"}, "sys/codex/config.toml sets hooks = false"},
		{"codex user on over system off", "codex", files{"home/.codex/config.toml": "[features]\nhooks = true\n", "sys/codex/config.toml": "[features]\nhooks = false\n"}, ""},
		{"copilot off", "copilot", files{"home/.copilot/settings.json": `{"disableAllHooks": true}`}, `"disableAllHooks": true`},
		{"copilot on", "copilot", files{"home/.copilot/settings.json": `{"disableAllHooks": false, "disabledHooks": []}`}, ""},
		{"copilot switch in another file", "copilot", files{"home/.copilot/config.json": `{"disableAllHooks": true}`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := agentOptions(t)
			sys := filepath.Join(o.UserHome, "..", "sys")
			sys, _ = filepath.Abs(sys)
			os.RemoveAll(sys)
			t.Cleanup(func() { os.RemoveAll(sys) })
			setVar(t, &claudeManagedDir, filepath.Join(sys, "claude"))
			setVar(t, &codexSystemConfig, filepath.Join(sys, "codex", "config.toml"))
			t.Setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", filepath.Join(sys, "gemini", "settings.json"))
			t.Setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "")
			for rel, content := range tt.files {
				root := o.UserHome
				if r, ok := strings.CutPrefix(rel, "sys/"); ok {
					root, rel = sys, r
				} else {
					rel = strings.TrimPrefix(rel, "home/")
				}
				write(t, filepath.Join(root, rel), content)
			}
			got := strings.Join(partNamed(tt.agent).off(o), "\n")
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("off: %q, want %q", got, tt.want)
			}
		})
	}
}

// In system mode the user's own settings still count for Gemini CLI: the
// system file's enabled true outweighs the user's false, but the user's
// hooksConfig.disabled is merged in and switches our hook off by name.
func TestGeminiOffInSystemMode(t *testing.T) {
	o := agentOptions(t)
	o.System = true
	sys := filepath.Join(t.TempDir(), "settings.json")
	t.Setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", sys)
	t.Setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "")
	write(t, sys, `{"hooksConfig": {"enabled": true}}`)
	user := filepath.Join(o.UserHome, ".gemini", "settings.json")
	write(t, user, `{"hooksConfig": {"enabled": false}}`)
	if got := o.geminiOff(); len(got) != 0 {
		t.Errorf("the user's enabled false under the system's true: %q, want nothing", got)
	}
	write(t, user, `{"hooksConfig": {"enabled": false, "disabled": ["agentjail"]}}`)
	if got := strings.Join(o.geminiOff(), "\n"); !strings.Contains(got, `~/.gemini/settings.json lists "agentjail" in hooksConfig.disabled`) {
		t.Errorf("the user's disabled list in system mode: %q", got)
	}
}

func setVar(t *testing.T, v *string, to string) {
	old := *v
	*v = to
	t.Cleanup(func() { *v = old })
}

// A wired agent's entry is checked against the config: the hook program
// there and executable, the fail mode and timeout config.yaml sets.
func TestAgentEntryProblems(t *testing.T) {
	o := agentOptions(t, AgentNames()...)
	t.Setenv("PATH", t.TempDir())
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	problems := func(oo Options) map[string][]string {
		out := map[string][]string{}
		for _, a := range Agents(oo) {
			if !a.Wired {
				t.Errorf("%s not wired", a.Name)
			}
			if len(a.Problems) > 0 {
				out[a.Name] = a.Problems
			}
		}
		return out
	}
	if p := problems(o); len(p) != 0 {
		t.Fatalf("as installed: %v", p)
	}
	closed := o
	closed.FailClosed = true
	p := problems(closed)
	for _, name := range AgentNames() {
		want := 1 // the flag; Claude Code, Cursor and pi have a knob of their own too
		if name == "claude-code" || name == "cursor" || name == "pi" {
			want = 2
		}
		want *= hookFiles(name)
		if len(p[name]) != want || !strings.Contains(p[name][0], "without --fail-closed but config.yaml sets fail_mode: closed") {
			t.Errorf("%s, config closed: %v", name, p[name])
		}
	}
	slow := o
	slow.HookTimeout = 5 * time.Second
	if p := problems(slow); len(p["gemini"]) != 1 || !strings.Contains(p["gemini"][0], "--timeout 2s but config.yaml sets hook_timeout 5s") {
		t.Errorf("timeout: %v", p)
	}
	// With no config.yaml, the message names the default, not the file.
	slow.NoConfigFile = true
	if p := problems(slow); len(p["gemini"]) != 1 || !strings.Contains(p["gemini"][0], "--timeout 2s but with no config.yaml the default is hook_timeout 5s") {
		t.Errorf("timeout, no config.yaml: %v", p)
	}

	// Closed everywhere; then Cursor's own failClosed taken out by hand:
	// the flag is right, the entry is not what install writes.
	closed.Agents, closed.Out = nil, &bytes.Buffer{}
	for _, d := range []string{".claude", ".codex", ".gemini", ".copilot", ".cursor", ".cline", ".pi/agent"} {
		os.MkdirAll(filepath.Join(o.UserHome, d), 0o755)
	}
	if err := Install(context.Background(), closed); err != nil {
		t.Fatal(err)
	}
	if p := problems(closed); len(p) != 0 {
		t.Fatalf("after install with fail_mode closed: %v", p)
	}
	write(t, closed.cursorHooksPath(), strings.ReplaceAll(read(t, closed.cursorHooksPath()), `"failClosed": true`, `"failClosed": false`))
	if p := problems(closed); len(p) != 1 || len(p["cursor"]) != 1 || !strings.Contains(p["cursor"][0], `lacks "failClosed": true`) {
		t.Errorf("cursor without failClosed: %v", p)
	}

	write(t, closed.cursorHooksPath(), strings.ReplaceAll(read(t, closed.cursorHooksPath()), `"failClosed": false`, `"failClosed": true`))
	write(t, closed.piExtensionPath(), strings.ReplaceAll(read(t, closed.piExtensionPath()), `"failClosed":true`, `"failClosed":false`))
	if p := problems(closed); len(p) != 1 || len(p["pi"]) != 1 || !strings.Contains(p["pi"][0], `lacks "failClosed": true`) {
		t.Errorf("pi without failClosed: %v", p)
	}

	hook := filepath.Join(o.Home, "bin", hookBinary)
	os.Chmod(hook, 0o644)
	if p := problems(closed); len(p) != len(AgentNames()) || !strings.Contains(p["codex"][0], "is not an executable file") {
		t.Errorf("hook not executable: %v", p)
	}
	os.Remove(hook)
	if p := problems(closed); len(p) != len(AgentNames()) || !strings.Contains(p["gemini"][0], hook+" is missing") {
		t.Errorf("hook missing: %v", p)
	}
}

// --dry-run lists a service unit only where install would write one: with
// no service manager reachable the daemon starts detached, and no unit is
// claimed.
func TestDryRunClaimsOnlyWhatInstallWrites(t *testing.T) {
	for _, mode := range []string{"", service.ModeDetached} {
		t.Run("mode "+mode, func(t *testing.T) {
			o := agentOptions(t)
			o.DryRun, o.KeepService, o.ServiceMode = true, false, mode
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			out := o.Out.(*bytes.Buffer).String()
			_, managed := describeManaged(o.service())
			managed = managed && mode != service.ModeDetached
			for _, s := range PlanFor(runtime.GOOS, Options{UserHome: o.UserHome, Home: o.Home}) {
				if s.Kind == StepService && strings.Contains(out, "would write "+s.Path) != managed {
					t.Errorf("service manager reachable %v, but:\n%s", managed, out)
				}
			}
			if strings.Contains(out, "detached (no service manager reachable)") == managed {
				t.Errorf("service manager reachable %v, but:\n%s", managed, out)
			}
		})
	}
}
