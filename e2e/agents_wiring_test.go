package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/internal/wire"
)

// agentsEnv runs the built agentjail with a PATH that may hold fake
// agent programs, and none of the caller's variables that move an
// agent's configuration (CODEX_HOME, COPILOT_HOME ...).
func agentsEnv(e *env, path string) func(args ...string) result {
	extra := []string{"PATH=" + path + ":" + machinePath("/usr/bin:/bin")}
	for _, a := range agents.All {
		for _, r := range a.Roots {
			if r.Var != "HOME" && r.Var != "XDG_CONFIG_HOME" {
				extra = append(extra, r.Var+"=")
			}
		}
	}
	return func(args ...string) result {
		e.t.Helper()
		return e.withEnv(extra, "agentjail", args...)
	}
}

// fakeProgram puts an executable of this name in dir.
func fakeProgram(t *testing.T, dir, name string) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// Install without --for wires every agent whose folder is on the machine,
// names the others, makes no agent's folder, and status shows each agent
// and stays degraded while one found is not wired.
func TestInstallWiresEveryAgentFound(t *testing.T) {
	e := newEnv(t)
	fakeBin := filepath.Join(e.home, "fakebin")
	fakeProgram(t, fakeBin, "codex") // Codex: its program only, no ~/.codex
	for _, d := range []string{".claude", ".gemini", ".cursor"} {
		os.MkdirAll(filepath.Join(e.home, d), 0o755)
	}
	aj := agentsEnv(e, fakeBin)
	defer aj("uninstall")

	r := aj("install")
	if r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	for _, want := range []string{
		"agents: wiring Claude Code, Gemini CLI, Cursor; not found: Copilot CLI",
		"Codex: found (its program is on PATH) but not wired: ~/.codex does not exist",
		"`agentjail install --for codex` makes it",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("install does not say %q:\n%s", want, r.stdout)
		}
	}
	for _, f := range []string{".claude/settings.json", ".gemini/settings.json", ".cursor/hooks.json"} {
		if !strings.Contains(read(filepath.Join(e.home, f)), "agentjail-hook") {
			t.Errorf("%s has no hook", f)
		}
	}
	for _, d := range []string{".codex", ".copilot"} {
		if exists(filepath.Join(e.home, d)) {
			t.Errorf("install made ~/%s", d)
		}
	}

	st := aj("status")
	if st.code != 4 || !strings.Contains(st.stdout, "agents:    Claude Code wired; Codex found, not wired; Gemini CLI wired; Copilot CLI not found; Cursor wired;") ||
		!strings.Contains(st.stdout, "agent_unguarded: Codex is on this machine but agentjail's hook is not in its settings") {
		t.Errorf("status with Codex unguarded: %+v", st)
	}
	var rep struct {
		Agents []struct {
			Name         string `json:"name"`
			Found, Wired bool
		} `json:"agents"`
		Healthy bool `json:"healthy"`
	}
	js := aj("status", "--json")
	if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil || len(rep.Agents) != len(agents.All) || rep.Healthy || rep.Agents[1].Name != "codex" || !rep.Agents[1].Found || rep.Agents[1].Wired {
		t.Errorf("status --json: %v %+v\n%s", err, rep, js.stdout)
	}

	// Named, Codex's folder is made, and install says so.
	r = aj("install", "--for", "codex")
	if r.code != 0 || !strings.Contains(r.stdout, "Codex: ~/.codex does not exist; install makes it, as --for codex asked") || !exists(filepath.Join(e.home, ".codex", "hooks.json")) {
		t.Fatalf("install --for codex: %+v", r)
	}
	if st := aj("status"); st.code != 0 || !strings.Contains(st.stdout, "Codex wired;") || !strings.Contains(st.stdout, "health: ok") {
		t.Errorf("status with every agent found wired: %+v", st)
	}
}

// With no agent at all, install changes no agent's settings and says so,
// and status is not degraded by agents that are not there.
func TestInstallWithNoAgentSaysSo(t *testing.T) {
	e := newEnv(t)
	aj := agentsEnv(e, filepath.Join(e.home, "empty"))
	defer aj("uninstall", "--purge")
	before := tree(t, e.home)
	r := aj("install")
	if r.code != 0 || !strings.Contains(r.stdout, "no agent found to wire: looked for ~/.claude, ~/.codex, ~/.gemini, ~/.copilot, ~/.cursor") ||
		!strings.Contains(r.stdout, "`agentjail install --for NAME`") || strings.Contains(r.stdout, "added the agentjail hook") {
		t.Fatalf("install: %+v", r)
	}
	for _, d := range []string{".claude", ".codex", ".gemini", ".copilot", ".cursor"} {
		if exists(filepath.Join(e.home, d)) {
			t.Errorf("install made ~/%s", d)
		}
	}
	if st := aj("status"); st.code != 0 || !strings.Contains(st.stdout, "agents:    Claude Code not found;") {
		t.Errorf("status: %+v", st)
	}
	if r := aj("uninstall", "--purge"); r.code != 0 {
		t.Fatal(r)
	}
	if after := tree(t, e.home); after != before {
		t.Errorf("HOME after install and uninstall --purge:\n%s\nbefore:\n%s", after, before)
	}
}

// Each agent's own hooks-off switch shows in install (a warning naming
// the key) and in status (degraded); the same key set to its harmless
// value shows in neither.
func TestAgentHooksOffSwitches(t *testing.T) {
	tests := []struct {
		agent, title  string
		file          string // relative to HOME
		on, lookAlike string
		key           string // what the messages name
	}{
		{"claude-code", "Claude Code", ".claude/settings.json", `"disableAllHooks": true`, `"disableAllHooks": false`, `"disableAllHooks": true`},
		{"gemini", "Gemini CLI", ".gemini/settings.json", `"hooksConfig": {"enabled": false}`, `"hooksConfig": {"enabled": true}`, "hooksConfig.enabled: false"},
		{"gemini", "Gemini CLI", ".gemini/settings.json", `"hooksConfig": {"disabled": ["agentjail"]}`, `"hooksConfig": {"disabled": ["other-hook"]}`, `"agentjail" in hooksConfig.disabled`},
		{"codex", "Codex", ".codex/config.toml", "[features]\nhooks = false\n", "[features]\nhooks = true\n", "hooks = false under [features]"},
		{"codex", "Codex", ".codex/config.toml", "[features]\ncodex_hooks = false\n", "[features]\ncodex_hooks = false\nhooks = true\n", "codex_hooks = false under [features]"},
		{"copilot", "Copilot CLI", ".copilot/settings.json", `"disableAllHooks": true`, `"disableAllHooks": false`, `"disableAllHooks": true`},
	}
	for _, tt := range tests {
		t.Run(tt.agent+" "+tt.key, func(t *testing.T) {
			e := newEnv(t)
			aj := agentsEnv(e, filepath.Join(e.home, "empty"))
			defer aj("uninstall")
			path := filepath.Join(e.home, tt.file)
			os.MkdirAll(filepath.Dir(path), 0o755)
			setSwitch := func(line string) {
				t.Helper()
				cur := read(path)
				if strings.HasSuffix(path, ".toml") {
					// Our trust table stays; the switch goes first.
					if i := strings.Index(cur, "# agentjail's hook"); i >= 0 {
						cur = cur[i:]
					}
					cur = line + "\n" + cur
				} else if i := strings.Index(cur, "{"); i >= 0 {
					body := strings.TrimSpace(cur[i+1:])
					// Drop a switch set before: it is the first member.
					if strings.HasPrefix(body, `"disableAllHooks"`) || strings.HasPrefix(body, `"hooksConfig"`) {
						body = body[strings.Index(body, "\n")+1:]
					}
					sep := ",\n  "
					if strings.HasPrefix(strings.TrimSpace(body), "}") {
						sep = "\n"
					}
					cur = "{\n  " + line + sep + body
				} else {
					cur = "{\n  " + line + "\n}\n"
				}
				if err := os.WriteFile(path, []byte(cur), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			setSwitch(tt.on)
			r := aj("install", "--for", tt.agent)
			if r.code != 0 || !strings.Contains(r.stdout, "WARNING: "+tt.title+" will not run agentjail's hook: ") || !strings.Contains(r.stdout, tt.key) {
				t.Fatalf("install with the switch on: %+v\nfile:\n%s", r, read(path))
			}
			st := aj("status")
			if st.code != 4 || !strings.Contains(st.stdout, tt.title+" wired, switched off") || !strings.Contains(st.stdout, "agent_off: "+tt.title+" does not run agentjail's hook") || !strings.Contains(st.stdout, tt.key) {
				t.Errorf("status with the switch on: %+v", st)
			}

			setSwitch(tt.lookAlike)
			if !strings.Contains(read(path), "agentjail-hook") && !strings.HasSuffix(path, ".toml") && tt.agent != "copilot" {
				t.Fatalf("the test lost our entry:\n%s", read(path))
			}
			r = aj("install", "--for", tt.agent)
			if r.code != 0 || strings.Contains(r.stdout, "WARNING") {
				t.Errorf("install with the look-alike: %+v\nfile:\n%s", r, read(path))
			}
			if st := aj("status"); st.code != 0 || !strings.Contains(st.stdout, tt.title+" wired;") || strings.Contains(st.stdout, "agent_off") {
				t.Errorf("status with the look-alike: %+v\nfile:\n%s", st, read(path))
			}
		})
	}
}

// fail_mode: closed in config.yaml reaches every agent's entry through
// the advised install, and status complains while any entry is open.
func TestFailClosedReachesEveryAgent(t *testing.T) {
	e := newEnv(t)
	for _, d := range []string{".claude", ".codex", ".gemini", ".copilot", ".cursor", ".qwen", ".factory", ".cline", ".pi/agent", ".config/opencode", ".config/kilo"} {
		os.MkdirAll(filepath.Join(e.home, d), 0o755)
	}
	aj := agentsEnv(e, filepath.Join(e.home, "empty"))
	defer aj("uninstall")
	if r := aj("install"); r.code != 0 || !strings.Contains(r.stdout, "agents: wiring Claude Code, Codex, Gemini CLI, Copilot CLI, Cursor, Qwen Code, Factory Droid, Cline, pi, opencode, Kilo CLI\n") {
		t.Fatalf("install: %+v", r)
	}
	if st := aj("status"); st.code != 0 {
		t.Fatalf("status before: %+v", st)
	}
	files := map[string]string{
		"Claude Code": ".claude/settings.json", "Codex": ".codex/hooks.json", "Gemini CLI": ".gemini/settings.json",
		"Copilot CLI": ".copilot/hooks/agentjail.json", "Cursor": ".cursor/hooks.json", "Cline": ".cline/hooks/PreToolUse",
		"Qwen Code": ".qwen/settings.json", "Factory Droid": ".factory/hooks.json",
		"pi":       ".pi/agent/extensions/agentjail.ts",
		"opencode": ".config/opencode/plugin/agentjail.js", "Kilo CLI": ".config/kilo/plugin/agentjail.js",
	}
	os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte("fail_mode: closed\n"), 0o600)
	var st result
	waitFor(t, "status to see fail_mode: closed", func() bool {
		st = aj("status")
		return strings.Contains(st.stdout, "fail mode closed")
	})
	for title, f := range files {
		want := "agent_entry: " + title + ": ~/" + f + ": the hook runs without --fail-closed but config.yaml sets fail_mode: closed"
		if st.code != 4 || !strings.Contains(st.stdout, want) {
			t.Errorf("status does not say %q:\n%s", want, st.stdout)
		}
	}

	if r := aj("install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	for title, f := range files {
		if got := read(filepath.Join(e.home, f)); !strings.Contains(got, "--fail-closed") {
			t.Errorf("%s's entry has no --fail-closed:\n%s", title, got)
		}
	}
	if !strings.Contains(read(filepath.Join(e.home, files["Cursor"])), `"failClosed": true`) || !strings.Contains(read(filepath.Join(e.home, files["Claude Code"])), `"onFailure": "block"`) {
		t.Errorf("Cursor's failClosed or Claude Code's onFailure missing")
	}
	if st := aj("status"); st.code != 0 || !strings.Contains(st.stdout, "health: ok") {
		t.Errorf("status after install: %+v", st)
	}

	// One entry open again (an older install's, say): status names it alone.
	gemini := filepath.Join(e.home, files["Gemini CLI"])
	os.WriteFile(gemini, []byte(strings.Replace(read(gemini), " --fail-closed", "", 1)), 0o644)
	st = aj("status")
	if st.code != 4 || !strings.Contains(st.stdout, "Gemini CLI: ~/.gemini/settings.json: the hook runs without --fail-closed") || strings.Count(st.stdout, "agent_entry") != 1 {
		t.Errorf("status with Gemini's entry open: %+v", st)
	}
	// The hook program gone: the entry cannot run.
	os.Rename(filepath.Join(e.ajHome, "bin", "agentjail-hook"), filepath.Join(e.ajHome, "bin", "moved"))
	st = aj("status")
	os.Rename(filepath.Join(e.ajHome, "bin", "moved"), filepath.Join(e.ajHome, "bin", "agentjail-hook"))
	if st.code != 4 || !strings.Contains(st.stdout, "Cursor wired, entry broken") || !strings.Contains(st.stdout, "agentjail-hook is missing, so the agent cannot run the hook") {
		t.Errorf("status with the hook program gone: %+v", st)
	}
}

// The daemon's own health, which the tray shows, sees the agents as
// status does: a found agent unwired and an entry whose fail mode is not
// config.yaml's are problems, and go when fixed.
func TestDaemonHealthSeesEveryAgent(t *testing.T) {
	e := newEnv(t)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CODEX_HOME", "")
	t.Setenv("COPILOT_HOME", "")
	os.MkdirAll(e.ajHome, 0o700)
	os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte("fail_mode: closed\n"), 0o600)
	settings := filepath.Join(e.home, ".claude", "settings.json")
	entry := func(flags, knob string) string {
		return `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "` + filepath.Join(bin, "agentjail-hook") + flags + `"` + knob + `}]}]}}`
	}
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(entry("", "")), 0o644)
	os.MkdirAll(filepath.Join(e.home, ".gemini"), 0o755)
	e.start()
	kinds := func() string {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		st, err := (&wire.Client{Socket: e.socket}).Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range st.Problems {
			out = append(out, p.Kind+" "+p.Message)
		}
		return strings.Join(out, "\n")
	}
	got := kinds()
	for _, want := range []string{
		"agent_entry Claude Code: ~/.claude/settings.json: the hook runs without --fail-closed but config.yaml sets fail_mode: closed",
		"agent_unguarded Gemini CLI is on this machine",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the daemon's problems lack %q:\n%s", want, got)
		}
	}
	os.WriteFile(settings, []byte(entry(" --fail-closed --hold 1m0s", `, "onFailure": "block"`)), 0o644)
	os.Remove(filepath.Join(e.home, ".gemini"))
	if got := kinds(); strings.Contains(got, "agent_") || strings.Contains(got, "fail_mode") {
		t.Errorf("problems left after the fixes:\n%s", got)
	}
}
