package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Qwen Code (npm @qwen-code/qwen-code 0.24.4, on Node 22; it ran on Node
// 20 too) as measured here, headless (`qwen "prompt"`), with
// --auth-type openai pointed at fakeModel's chat completions:
//
//   - The hook (a PreToolUse entry in Claude Code's format in
//     ~/.qwen/settings.json, timeout in seconds) gets {"session_id",
//     "transcript_path","cwd","hook_event_name":"PreToolUse","timestamp",
//     "permission_mode","prompt_id","tool_name":"run_shell_command",
//     "tool_input":{"command","description"},"tool_use_id":"toolu_...",
//     "tool_call_id":"call_1"}; files are read_file, write_file and edit
//     with Claude Code's field names (file_path, content, old_string ...).
//   - PreToolUse runs after Qwen Code's own approval, on calls it already
//     lets run: headless in the default approval mode it refuses a shell
//     command that no --allowed-tools rule allows ("Qwen Code requires
//     permission to use ..."; a command that writes, such as touch, is
//     "denied by permission rules. Matching deny rule: "edit""), and a
//     read_file outside the workspace, without running the hook; its own
//     guard refuses `git reset --hard` unless a rule allows git. So a
//     hook's "allow" cannot widen its permissions; this test runs the
//     default mode with rules that allow the commands it sends.
//   - The model reads the hook's reason as the tool's result: stderr on
//     exit 2 (before the JSON's), else hookSpecificOutput's
//     permissionDecisionReason, else the legacy {"decision":"block",
//     "reason"}, which it also takes as a deny.
//   - "ask" headless is a deny with the hook's reason as it is (no word
//     of approval is added); interactive, Qwen Code asks the user.
//   - Exit 1, garbage on stdout and a hook past its timeout let the tool
//     run (fails open).
//   - Qwen Code rewrites its settings.json on start to add "$version": 4
//     when missing, so the user's file here carries it already.
//   - A project's .qwen/settings.json with "disableAllHooks": true turns
//     every hook off, with no trust step, unless the system settings
//     (/etc/qwen-code/settings.json, QWEN_CODE_SYSTEM_SETTINGS_PATH) set
//     it false; hooks in the system settings run.
func TestRealQwen(t *testing.T) {
	qwen := agentCLI(t, "qwen")
	node, err := filepath.Abs(filepath.Join("..", ".tools", "node", "node_modules", ".bin"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)

	// The user's own settings, with a hook of their own beside ours.
	settingsPath := filepath.Join(e.home, ".qwen", "settings.json")
	os.MkdirAll(filepath.Dir(settingsPath), 0o700)
	settings := `{
  "privacy": {
    "usageStatisticsEnabled": false
  },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "*",
        "hooks": [{"type": "command", "command": "true"}]
      }
    ]
  },
  "$version": 4
}
`
	if err := os.WriteFile(settingsPath, []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	before := takeSnapshot(settingsPath)

	installFor(t, e, "qwen")
	rec := recordHook(t, e)

	environ := agentEnv(e, "QWEN_CODE_SYSTEM_SETTINGS_PATH="+filepath.Join(e.home, "no-system-settings.json"))
	environ = append(environ, "PATH="+node+string(os.PathListSeparator)+envValue(environ, "PATH"))
	// The approval rules a user gives a headless run: these commands, and
	// nothing else, may run without a person.
	allowed := "run_shell_command(cat *),run_shell_command(echo *),run_shell_command(git reset *)"
	run := func(t *testing.T, call *modelCall) string {
		t.Helper()
		rec.reset()
		api.script(call)
		r := runProcess(t, environ, work.dir, qwen, []string{"Do the task.",
			"--auth-type", "openai", "--openai-api-key", "x", "--openai-base-url", api.url + "/v1", "-m", copilotModel,
			"--approval-mode", "default", "--allowed-tools", allowed}, 120*time.Second)
		out := r.stdout + r.stderr
		if r.code != 0 {
			t.Fatalf("qwen: exit %d\n%s", r.code, out)
		}
		return oneResult(t, api, out)
	}
	shell := func(command string) *modelCall {
		return &modelCall{Name: "run_shell_command", Args: map[string]any{"command": command, "description": "Run it"}}
	}

	t.Run("a key read is blocked and the model gets our reason", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, keyRead)
		got := run(t, shell(keyRead))
		if !strings.Contains(got, reason) || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s\nwant our reason verbatim:\n%s", got, reason)
		}
		c := rec.one(t)
		ev := c.event(t)
		if ev["hook_event_name"] != "PreToolUse" || ev["tool_name"] != "run_shell_command" {
			t.Errorf("event %v/%v, want PreToolUse/run_shell_command:\n%s", ev["hook_event_name"], ev["tool_name"], c.Stdin)
		}
		if in, _ := ev["tool_input"].(map[string]any); in["command"] != keyRead {
			t.Errorf("tool_input %v, want command %q", ev["tool_input"], keyRead)
		}
		loggedOnce(t, e, "qwen", ".ssh/id_rsa", "deny")
		if !strings.Contains(c.Args, "--agent qwen") {
			t.Errorf("the hook runs as %q, want --agent qwen", c.Args)
		}
	})

	t.Run("its own file tool reading the key is blocked too", func(t *testing.T) {
		// Headless, Qwen Code refuses to read outside the workspace before
		// any hook runs, so the key is one inside the project.
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

	t.Run("a harmless command runs and the hook says nothing", func(t *testing.T) {
		got := run(t, shell(harmless))
		if !strings.Contains(got, harmlessW) {
			t.Errorf("tool result:\n%s", got)
		}
		c := rec.one(t)
		if c.Code != 0 || c.Stdout != "" {
			t.Errorf("hook answered exit %d, stdout %q, stderr %q; want exit 0 and nothing on stdout", c.Code, c.Stdout, c.Stderr)
		}
	})

	t.Run("an ask-class command is not run and the model hears a person must approve", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, askClass)
		head := work.head(t, e)
		got := run(t, shell(askClass))
		if !strings.Contains(got, reasonCore(reason)) || !strings.Contains(got, "A person must approve") {
			t.Errorf("tool result:\n%s\nwant our reason (%s) and that a person must approve", got, reason)
		}
		if now := work.head(t, e); now != head {
			t.Errorf("the reset ran: HEAD moved from %s to %s", head, now)
		}
		if c := rec.one(t); !strings.Contains(c.Stdout, `"permissionDecision":"ask"`) {
			t.Errorf("hook answered %q, want an ask", c.Stdout)
		}
	})

	t.Run("no objection leaves Qwen Code's own refusal in place", func(t *testing.T) {
		// No rule allows touch: Qwen Code refuses it headless before any
		// hook runs, and with ours installed it still does.
		made := filepath.Join(work.dir, "made-by-tool")
		got := run(t, shell("touch "+made))
		if _, err := os.Stat(made); err == nil {
			t.Errorf("the touch ran; tool result:\n%s", got)
		}
		// touch counts as an edit, which the default mode asks for.
		if !strings.Contains(got, `denied by permission rules. Matching deny rule: "edit"`) && !strings.Contains(got, "requires permission") {
			t.Errorf("tool result:\n%s\nwant Qwen Code's own refusal", got)
		}
		for _, c := range rec.calls() {
			if c.Code != 0 || c.Stdout != "" {
				t.Errorf("hook answered exit %d, stdout %q", c.Code, c.Stdout)
			}
		}
	})

	t.Run("uninstall gives the settings back byte for byte", func(t *testing.T) {
		if r := ajRun(t, e, "uninstall", "--for", "qwen"); r.code != 0 {
			t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		before.same(t)
		got := run(t, shell(keyRead))
		// Under load Qwen Code has once returned a run cat's output as
		// "(empty)": the read ran (exit 0) and no hook saw it.
		if !strings.Contains(got, work.key) && !strings.Contains(got, "Exit Code: 0") {
			t.Errorf("after uninstall the key read should run unguarded; tool result:\n%s", got)
		}
		if n := len(rec.calls()); n != 0 {
			t.Errorf("the hook still ran %d times", n)
		}
	})
}

// envValue is the last value of key in environ.
func envValue(environ []string, key string) string {
	v := ""
	for _, kv := range environ {
		if s, ok := strings.CutPrefix(kv, key+"="); ok {
			v = s
		}
	}
	return v
}
