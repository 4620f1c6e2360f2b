package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Factory Droid (npm @factory/cli 0.225.1, its binary from
// @factory/cli-linux-x64 0.225.2) as measured here, headless
// (`droid exec`), offline, with a dummy FACTORY_API_KEY and a custom
// model of provider "generic-chat-completion-api" pointed at fakeModel's
// chat completions (a model named gpt-* gets ApplyPatch instead of
// Create and Edit):
//
//   - The hook (~/.factory/hooks.json, events at the top level; a
//     {"hooks": ...} wrapper does not load; the "hooks" key of
//     ~/.factory/settings.json loads too, and hooks.json's PreToolUse
//     replaces settings.json's) gets {"session_id","transcript_path",
//     "cwd","permission_mode":"auto-low","hook_event_name":"PreToolUse",
//     "tool_name":"Execute","tool_input":{"command","riskLevel",
//     "riskLevelReason","summary"}}: no tool_use_id. Read takes
//     file_path, Create file_path and content, Edit file_path, old_str,
//     new_str and change_all.
//   - The model reads "Error: <reason>" after Claude Code's JSON deny
//     (exit 0 or 2; the JSON's reason wins over stderr) and after exit 2
//     with the reason on stderr. The legacy {"decision":"block"} is
//     ignored: the tool runs.
//   - A JSON "ask" lets the call run, under --auto low as under high.
//   - The hook runs before Droid's own gate, and a JSON "allow" skips it:
//     a command the model rates riskLevel "high" runs under --auto low.
//     Silent, Droid refuses it ("Exec ended early: insufficient
//     permission to proceed", exit 1). The gate trusts the model's
//     riskLevel: a destructive command rated "low" runs under --auto low.
//   - Exit 1 (its stderr is put before the tool's output), garbage on
//     stdout and a hook past its timeout let the tool run (fails open).
//   - A project's .factory/hooks.json runs with no trust step; its
//     .factory/settings.json with "hooks": {"hooksDisabled": true} turns
//     every hook off, the user's and the organisation's, unless the
//     organisation's settings (/etc/factory/settings.json, read as
//     FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH here) set
//     "allowManagedHooksOnly": true; hooks in those settings run.
func TestRealDroid(t *testing.T) {
	droid := agentCLI(t, "droid")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)

	// The user's own settings (the custom model) and a hooks file with a
	// hook of their own, which keeps running beside ours.
	dir := filepath.Join(e.home, ".factory")
	os.MkdirAll(dir, 0o700)
	settingsPath, hooksPath := filepath.Join(dir, "settings.json"), filepath.Join(dir, "hooks.json")
	settings := fmt.Sprintf(`{
  "customModels": [
    {
      "model": "local-model",
      "displayName": "Local",
      "baseUrl": "%s/v1",
      "apiKey": "x",
      "provider": "generic-chat-completion-api",
      "maxOutputTokens": 1000
    }
  ]
}
`, api.url)
	hooks := `{
  "PreToolUse": [
    {"matcher": "Execute", "hooks": [{"type": "command", "command": "true"}]}
  ]
}
`
	for path, content := range map[string]string{settingsPath: settings, hooksPath: hooks} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	before := takeSnapshot(settingsPath, hooksPath, filepath.Join(dir, "hooks", "hooks.json"))

	installFor(t, e, "droid")
	rec := recordHook(t, e)

	exec := func(t *testing.T, call *modelCall, auto string) (result, string) {
		t.Helper()
		rec.reset()
		api.script(call)
		r := runProcess(t, agentEnv(e, "FACTORY_API_KEY=fk-dummy"), work.dir, droid,
			[]string{"exec", "-m", "custom:local-model", "--auto", auto, "Do the task."}, 120*time.Second)
		res := api.received()
		if len(res) > 1 {
			t.Fatalf("the model got %d tool results back, want at most 1: %q", len(res), res)
		}
		if len(res) == 0 {
			return r, ""
		}
		return r, res[0]
	}
	run := func(t *testing.T, call *modelCall, auto string) string {
		t.Helper()
		r, got := exec(t, call, auto)
		if r.code != 0 || got == "" {
			t.Fatalf("droid: exit %d, tool result %q\nrequests:\n%s\n%s%s", r.code, got, api.seen(), r.stdout, r.stderr)
		}
		return got
	}
	execute := func(command, risk string) *modelCall {
		return &modelCall{Name: "Execute", Args: map[string]any{"command": command, "summary": "Run it", "riskLevel": risk, "riskLevelReason": "as asked"}}
	}

	t.Run("a key read is blocked and the model gets our reason", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, keyRead)
		got := run(t, execute(keyRead, "low"), "low")
		if !strings.Contains(got, reason) || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s\nwant our reason verbatim:\n%s", got, reason)
		}
		c := rec.one(t)
		ev := c.event(t)
		if ev["hook_event_name"] != "PreToolUse" || ev["tool_name"] != "Execute" {
			t.Errorf("event %v/%v, want PreToolUse/Execute:\n%s", ev["hook_event_name"], ev["tool_name"], c.Stdin)
		}
		if in, _ := ev["tool_input"].(map[string]any); in["command"] != keyRead || in["riskLevel"] != "low" {
			t.Errorf("tool_input %v, want command %q rated low", ev["tool_input"], keyRead)
		}
		if _, ok := ev["tool_use_id"]; ok {
			t.Logf("Droid now sends a tool_use_id: %v", ev["tool_use_id"])
		}
		loggedOnce(t, e, "droid", ".ssh/id_rsa", "deny")
		if !strings.Contains(c.Args, "--agent droid") {
			t.Errorf("the hook runs as %q, want --agent droid", c.Args)
		}
	})

	t.Run("its own Read of the key is blocked too", func(t *testing.T) {
		key := filepath.Join(e.home, ".ssh", "id_rsa")
		got := run(t, &modelCall{Name: "Read", Args: map[string]any{"file_path": key}}, "low")
		if !strings.Contains(got, "holds private keys") || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s", got)
		}
		if ev := rec.one(t).event(t); ev["tool_name"] != "Read" {
			t.Errorf("tool_name %v, want Read", ev["tool_name"])
		}
	})

	t.Run("an allowed command runs confined", func(t *testing.T) {
		ranJailed(t, work, run(t, execute(jailedKeyRead, "low"), "low"))
	})

	t.Run("a harmless command runs, rewritten to run jailed", func(t *testing.T) {
		got := run(t, execute(harmless, "low"), "low")
		if !strings.Contains(got, harmlessW) {
			t.Errorf("tool result:\n%s", got)
		}
		c := rec.one(t)
		if c.Code != 0 || !jailedRewrite(c.Stdout, harmless) || strings.Contains(c.Stdout, "permissionDecision") {
			t.Errorf("hook answered exit %d, stdout %q, stderr %q; want exit 0 and the command rewritten to run jailed, with no decision", c.Code, c.Stdout, c.Stderr)
		}
	})

	t.Run("an ask-class command nobody approves is not run and the model hears why", func(t *testing.T) {
		// --auto high: Droid would run the reset on its own, and runs a
		// JSON ask too, so the ask comes as a deny.
		reason := tryReason(t, e, work.dir, askClass)
		head := work.head(t, e)
		got := run(t, execute(askClass, "medium"), "high")
		if !strings.Contains(got, reasonCore(reason)) || !strings.Contains(got, "nobody answered") {
			t.Errorf("tool result:\n%s\nwant our reason (%s) and that nobody answered in time", got, reason)
		}
		if now := work.head(t, e); now != head {
			t.Errorf("the reset ran: HEAD moved from %s to %s", head, now)
		}
	})

	t.Run("no objection leaves Droid's own gate in place", func(t *testing.T) {
		// Rated high, a command is more than --auto low allows: Droid
		// refuses it after our hook rewrote it with no decision (a JSON
		// allow would have let it run, measured), keeping the model's
		// rating (the entry's preserveRiskLevel).
		made := filepath.Join(work.dir, "made-by-tool")
		r, got := exec(t, execute("touch "+made, "high"), "low")
		if _, err := os.Stat(made); err == nil {
			t.Errorf("the touch ran; tool result:\n%s", got)
		}
		if out := r.stdout + r.stderr; !strings.Contains(out, "insufficient permission") {
			t.Errorf("droid: exit %d\n%s\nwant Droid's own refusal", r.code, out)
		}
		if c := rec.one(t); c.Code != 0 || !jailedRewrite(c.Stdout, "touch "+made) {
			t.Errorf("hook answered exit %d, stdout %q", c.Code, c.Stdout)
		}
	})

	t.Run("uninstall leaves the user's files byte for byte", func(t *testing.T) {
		if r := ajRun(t, e, "uninstall", "--for", "droid"); r.code != 0 {
			t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		before.same(t)
		got := run(t, execute(keyRead, "low"), "low")
		if !strings.Contains(got, work.key) {
			t.Errorf("after uninstall the key read should run unguarded; tool result:\n%s", got)
		}
		if n := len(rec.calls()); n != 0 {
			t.Errorf("the hook still ran %d times", n)
		}
	})
}
