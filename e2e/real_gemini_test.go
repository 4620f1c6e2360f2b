package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Gemini CLI (npm @google/gemini-cli 0.61.0) as measured here, headless
// (`gemini -p ... --yolo`) against fakeModel's Gemini API
// (GOOGLE_GEMINI_BASE_URL, streamGenerateContent?alt=sse):
//
//   - The hook gets BeforeTool, tool_name "run_shell_command",
//     tool_input {"command": ...}, plus session_id, transcript_path, cwd
//     and timestamp.
//   - The model reads "Tool execution blocked: <reason>" after a
//     top-level {"decision":"deny","reason":...} and after exit 2 with
//     the reason on stderr; a deny with an empty reason still blocks
//     ("No reason provided"). Claude Code's hookSpecificOutput
//     permissionDecision "deny" is ignored and the tool runs.
//   - {"decision":"ask"} leaves a headless run waiting until it is killed.
//   - Exit 1 and a hook past its timeout let the tool run (fails open).
//   - Without --yolo, headless Gemini does not offer run_shell_command at
//     all ("Tool not found"), so a hook cannot widen what it runs there.
//   - Settings need security.auth.selectedType "gemini-api-key" for
//     GEMINI_API_KEY to be used; an untrusted folder needs
//     GEMINI_CLI_TRUST_WORKSPACE=true headless; GEMINI_CLI_NO_RELAUNCH
//     saves the second Node start.
func TestRealGemini(t *testing.T) {
	gemini := agentCLI(t, "gemini")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)

	// The user's own settings, JSON with comments as Gemini allows; the
	// installer edits them in place and uninstall gives them back.
	settingsPath := filepath.Join(e.home, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(settingsPath), 0o700)
	settings := `// my Gemini settings
{
  "security": {
    "auth": { "selectedType": "gemini-api-key" } // the key comes from GEMINI_API_KEY
  },
  "privacy": { "usageStatisticsEnabled": false },
  "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
  /* the hooks I had before */
  "hooks": {}
}
`
	if err := os.WriteFile(settingsPath, []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	before := takeSnapshot(settingsPath)

	writeConfig(t, e, "approval_timeout: 30s\n")
	installFor(t, e, "gemini")
	rec := recordHook(t, e)

	run := func(t *testing.T, call *modelCall) string {
		t.Helper()
		rec.reset()
		api.script(call)
		r := runGemini(t, e, api, work.dir, gemini)
		out := r.stdout + r.stderr
		if r.code != 0 {
			t.Fatalf("gemini: exit %d\n%s", r.code, out)
		}
		return oneResult(t, api, out)
	}
	shell := func(command string) *modelCall {
		return &modelCall{Name: "run_shell_command", Args: map[string]any{"command": command}}
	}

	t.Run("a key read is blocked and the model gets our reason", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, keyRead)
		got := run(t, shell(keyRead))
		if !strings.Contains(got, reason) || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s\nwant our reason verbatim:\n%s", got, reason)
		}
		c := rec.one(t)
		ev := c.event(t)
		if ev["hook_event_name"] != "BeforeTool" || ev["tool_name"] != "run_shell_command" {
			t.Errorf("event %v/%v, want BeforeTool/run_shell_command:\n%s", ev["hook_event_name"], ev["tool_name"], c.Stdin)
		}
		if in, _ := ev["tool_input"].(map[string]any); in["command"] != keyRead {
			t.Errorf("tool_input %v, want command %q", ev["tool_input"], keyRead)
		}
		loggedOnce(t, e, "gemini", ".ssh/id_rsa", "deny")
		if !strings.Contains(c.Args, "--agent gemini") {
			t.Errorf("the hook runs as %q, want --agent gemini", c.Args)
		}
	})

	t.Run("an allowed command runs confined", func(t *testing.T) {
		ranJailed(t, work, run(t, shell(jailedKeyRead)))
	})

	t.Run("its own file tool reading the key is blocked too", func(t *testing.T) {
		// Gemini refuses paths outside the workspace before any hook
		// runs, so the key is one inside the project.
		key := filepath.Join(work.dir, ".ssh", "id_rsa")
		os.MkdirAll(filepath.Dir(key), 0o700)
		if err := os.WriteFile(key, []byte(work.key+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		got := run(t, &modelCall{Name: "read_file", Args: map[string]any{"file_path": key}})
		if !strings.Contains(got, "holds private keys") || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s", got)
		}
		if ev := rec.one(t).event(t); ev["tool_name"] != "read_file" {
			t.Errorf("tool_name %v, want read_file", ev["tool_name"])
		}
	})

	t.Run("a harmless command runs, rewritten to run jailed and nothing more", func(t *testing.T) {
		got := run(t, shell(harmless))
		if !strings.Contains(got, harmlessW) {
			t.Errorf("tool result:\n%s", got)
		}
		c := rec.one(t)
		if c.Code != 0 || !jailedRewrite(c.Stdout, harmless) || strings.Contains(c.Stdout, "decision") {
			t.Errorf("hook answered exit %d, stdout %q, stderr %q; want exit 0 and only the command rewritten to run jailed", c.Code, c.Stdout, c.Stderr)
		}
	})

	// Gemini CLI cannot ask from a hook: agentjail holds the call.
	t.Run("an ask-class command runs once a person approves it in a terminal", func(t *testing.T) {
		head := work.head(t, e)
		answer := answerFromTerminal(t, e, "approve")
		got := run(t, shell(askClass))
		a := answeredBy(t, answer)
		if a.call.agent != "gemini" || work.head(t, e) == head || strings.Contains(got, a.call.code) {
			t.Errorf("agentjail pending showed:\n%s\ntool result:\n%s", a.call.listing, got)
		}
		loggedApproval(t, e, a.call.id, "allow", "person", "terminal")
	})

	t.Run("an ask-class command nobody approves is denied with our reason, not run", func(t *testing.T) {
		writeConfig(t, e, "approval_timeout: 5s\n")
		defer writeConfig(t, e, "approval_timeout: 30s\n")
		reason := tryReason(t, e, work.dir, askClass)
		head := work.head(t, e)
		got := run(t, shell(askClass))
		if !strings.Contains(got, reasonCore(reason)) || !strings.Contains(got, "nobody answered") {
			t.Errorf("tool result:\n%s\nwant our reason (%s) and that nobody answered", got, reason)
		}
		if now := work.head(t, e); now != head {
			t.Errorf("the reset ran: HEAD moved from %s to %s", head, now)
		}
	})

	t.Run("with the daemon stopped, the hook starts it and still blocks", func(t *testing.T) {
		// Gemini waits for the hook's output pipes to close, even past
		// the hook's timeout (measured with a hook whose child slept on),
		// so the daemon the hook starts must not hold them.
		pid := daemonPID(t, e)
		syscall.Kill(pid, syscall.SIGTERM)
		waitFor(t, "the daemon to stop", func() bool { return syscall.Kill(pid, 0) != nil })
		got := run(t, shell(keyRead)) // a held pipe would hang it past run's limit
		if !strings.Contains(got, "holds private keys") || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s", got)
		}
		if now := daemonPID(t, e); now == pid {
			t.Errorf("no new daemon: pid %d", now)
		}
	})

	t.Run("uninstall gives the settings back byte for byte", func(t *testing.T) {
		if r := ajRun(t, e, "uninstall", "--for", "gemini"); r.code != 0 {
			t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		before.same(t)
		got := run(t, shell(keyRead))
		if !strings.Contains(got, work.key) {
			t.Errorf("after uninstall the key read should run unguarded; tool result:\n%s", got)
		}
		if n := len(rec.calls()); n != 0 {
			t.Errorf("the hook still ran %d times", n)
		}
	})
}

// Gemini CLI's own switch, hooksConfig.enabled: false, measured: with it
// the installed hook is not run at all (the command runs unchecked), and
// install and status say so; set to true, the hook runs again and
// neither complains.
func TestRealGeminiHooksSwitchedOff(t *testing.T) {
	gemini := agentCLI(t, "gemini")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)
	settingsPath := filepath.Join(e.home, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(settingsPath), 0o700)
	settings := func(enabled bool) string {
		return fmt.Sprintf(`{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
  "hooksConfig": {"enabled": %v}
}
`, enabled)
	}
	os.WriteFile(settingsPath, []byte(settings(false)), 0o600)
	r := ajRun(t, e, "install", "--for", "gemini")
	t.Cleanup(func() { ajRun(t, e, "uninstall") })
	if r.code != 0 || !strings.Contains(r.stdout, "WARNING: Gemini CLI will not run agentjail's hook: ~/.gemini/settings.json sets hooksConfig.enabled: false") {
		t.Fatalf("install: %+v", r)
	}
	rec := recordHook(t, e)
	run := func(t *testing.T) string {
		t.Helper()
		rec.reset()
		api.script(&modelCall{Name: "run_shell_command", Args: map[string]any{"command": harmless}})
		r := runGemini(t, e, api, work.dir, gemini)
		if r.code != 0 {
			t.Fatalf("gemini: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		return oneResult(t, api, r.stdout+r.stderr)
	}

	if got := run(t); !strings.Contains(got, harmlessW) {
		t.Fatalf("tool result:\n%s", got)
	}
	if calls := rec.calls(); len(calls) != 0 {
		t.Errorf("switched off, Gemini still ran the hook %d times", len(calls))
	}
	if st := ajRun(t, e, "status"); st.code != 4 || !strings.Contains(st.stdout, "Gemini CLI wired, switched off") || !strings.Contains(st.stdout, "agent_off: Gemini CLI does not run agentjail's hook") {
		t.Errorf("status with the switch off: %+v", st)
	}

	// The look-alike: the same key, true. Our entry stays as installed.
	cur, _ := os.ReadFile(settingsPath)
	os.WriteFile(settingsPath, []byte(strings.Replace(string(cur), `"enabled": false`, `"enabled": true`, 1)), 0o600)
	if got := run(t); !strings.Contains(got, harmlessW) {
		t.Fatalf("tool result:\n%s", got)
	}
	rec.one(t)
	if st := ajRun(t, e, "status"); strings.Contains(st.stdout, "switched off") || strings.Contains(st.stdout, "agent_off") || !strings.Contains(st.stdout, "Gemini CLI wired;") {
		t.Errorf("status with the switch on: %+v", st)
	}
	if r := ajRun(t, e, "install", "--for", "gemini"); r.code != 0 || strings.Contains(r.stdout, "WARNING") {
		t.Errorf("install with hooks on: %+v", r)
	}
}

// runGemini has the Gemini CLI do one headless task in dir against the
// fake model API, trusting the folder and approving every tool (--yolo):
// the hook is what decides.
func runGemini(t *testing.T, e *env, api *fakeModel, dir, gemini string) result {
	t.Helper()
	return runProcess(t, agentEnv(e,
		"GOOGLE_GEMINI_BASE_URL="+api.url,
		"GEMINI_API_KEY=x",
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"GEMINI_CLI_NO_RELAUNCH=true",
	), dir, gemini, []string{"-p", "Do the task.", "--yolo", "-m", geminiModel}, 120*time.Second)
}
