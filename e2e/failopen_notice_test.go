package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A call the hook lets run unchecked (fail_mode: open, no daemon) must be
// said where the person looks: in the agent's own channel for a message
// to the user, as agent.Notice answers it. These tests run the real CLIs
// headless with the installed hook failing open, and find the message in
// each CLI's user-facing output, beside the call having run. The
// look-alike, the same call checked by a running daemon, shows nothing.

// failOpenMark is the part of the hook's fail-open message every notice
// carries.
const failOpenMark = "this call was allowed unchecked"

// failOpen stops e's daemon and takes the installed agentjail away, so
// the installed hook can neither reach a daemon nor start one: with the
// default fail_mode (open) every call fails open. Cleanup puts it back.
func failOpen(t *testing.T, e *env) {
	t.Helper()
	daemonBin := filepath.Join(e.ajHome, "bin", "agentjail")
	if err := os.Rename(daemonBin, daemonBin+".away"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Rename(daemonBin+".away", daemonBin) })
	pid := daemonPID(t, e)
	syscall.Kill(pid, syscall.SIGTERM)
	waitFor(t, "the daemon to stop", func() bool { return syscall.Kill(pid, 0) != nil })
}

// Claude Code 2.1.330, measured: a PreToolUse hook's {"systemMessage"}
// on exit 0 is shown to the user and the call goes on under Claude's own
// permissions. Headless, `-p --output-format text` and `json` print only
// the model's answer; `--output-format stream-json --verbose` carries the
// message as {"type":"system","subtype":"informational","level":"notice",
// "content":"PreToolUse:Bash says: <message>"}. A stderr-only answer
// on exit 0 shows nowhere, in any of the three.
func TestRealClaudeFailOpenNotice(t *testing.T) {
	claude := claudeBinary(t)
	e := newEnv(t)
	api := startFakeAPI(t)
	os.WriteFile(filepath.Join(e.home, ".claude.json"), []byte("{}"), 0o600)
	os.MkdirAll(filepath.Join(e.home, ".claude"), 0o700) // Claude Code is here: install wires it
	work := filepath.Join(e.home, "work")
	os.MkdirAll(work, 0o755)
	installFor(t, e, "claude-code")
	rec := recordHook(t, e)

	// run has Claude run the harmless command and returns the tool's
	// result and the system records of its stream.
	run := func(t *testing.T) (string, []string) {
		t.Helper()
		rec.reset()
		api.script("Bash", map[string]any{"command": harmless, "description": "Say it"})
		r := runProcess(t, append(e.environ(),
			"ANTHROPIC_BASE_URL="+api.url,
			"ANTHROPIC_API_KEY=sk-ant-fake",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
			"DISABLE_AUTOUPDATER=1",
			"DISABLE_TELEMETRY=1",
			"DISABLE_ERROR_REPORTING=1",
		), work, claude, []string{"-p", "Do the task.", "--output-format", "stream-json", "--verbose", "--permission-mode", "default"}, 90*time.Second)
		if r.code != 0 {
			t.Fatalf("claude: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		res := api.received()
		if len(res) != 1 {
			t.Fatalf("the model got %d tool results back, want 1; claude said:\n%s%s", len(res), r.stdout, r.stderr)
		}
		var notices []string
		for _, line := range strings.Split(r.stdout, "\n") {
			var m struct{ Type, Subtype, Content string }
			if json.Unmarshal([]byte(line), &m) == nil && m.Type == "system" && m.Subtype == "informational" {
				notices = append(notices, m.Content)
			}
		}
		return res[0].Content, notices
	}

	t.Run("a checked call shows no notice", func(t *testing.T) {
		got, notices := run(t)
		if !strings.Contains(got, harmlessW) {
			t.Errorf("tool result:\n%s", got)
		}
		if len(notices) != 0 {
			t.Errorf("notices on a checked call: %q", notices)
		}
		if c := rec.one(t); c.Code != 0 || c.Stdout != "" {
			t.Errorf("hook answered exit %d, stdout %q", c.Code, c.Stdout)
		}
	})
	t.Run("a fail-open runs the call and shows the message", func(t *testing.T) {
		failOpen(t, e)
		got, notices := run(t)
		if !strings.Contains(got, harmlessW) {
			t.Errorf("the call did not run; tool result:\n%s", got)
		}
		c := rec.one(t)
		if c.Code != 0 || !strings.Contains(c.Stdout, `"systemMessage"`) {
			t.Errorf("hook answered exit %d, stdout %q, stderr %q; want exit 0 and a systemMessage", c.Code, c.Stdout, c.Stderr)
		}
		if len(notices) != 1 || !strings.HasPrefix(notices[0], "PreToolUse:Bash says: agentjail: ") || !strings.Contains(notices[0], failOpenMark) {
			t.Errorf("Claude Code showed %q, want one notice with the hook's message", notices)
		}
	})
}

// Gemini CLI 0.61.0, measured: a BeforeTool hook's {"systemMessage"} on
// exit 0 goes to the interactive screen as a hook system message and,
// headless (`-p`, every --output-format), to stderr as one line "Hook
// system message: <message>"; the call goes on. (Gemini reads a hook's
// plain text on exit 0, stdout or else stderr, as a systemMessage too,
// so a stderr-only answer would also show; with the JSON on stdout the
// message shows once, not twice.)
func TestRealGeminiFailOpenNotice(t *testing.T) {
	gemini := agentCLI(t, "gemini")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)
	settingsPath := filepath.Join(e.home, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(settingsPath), 0o700)
	os.WriteFile(settingsPath, []byte(`{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false},"general":{"enableAutoUpdate":false,"enableAutoUpdateNotification":false}}`), 0o600)
	installFor(t, e, "gemini")
	rec := recordHook(t, e)

	// run has Gemini run the harmless command and returns the tool's
	// result and Gemini's hook system messages.
	run := func(t *testing.T) (string, []string) {
		t.Helper()
		rec.reset()
		api.script(&modelCall{Name: "run_shell_command", Args: map[string]any{"command": harmless}})
		r := runProcess(t, agentEnv(e,
			"GOOGLE_GEMINI_BASE_URL="+api.url,
			"GEMINI_API_KEY=x",
			"GEMINI_CLI_TRUST_WORKSPACE=true",
			"GEMINI_CLI_NO_RELAUNCH=true",
		), work.dir, gemini, []string{"-p", "Do the task.", "--yolo", "-m", geminiModel}, 120*time.Second)
		if r.code != 0 {
			t.Fatalf("gemini: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		var notices []string
		for _, line := range strings.Split(r.stderr, "\n") {
			if m, ok := strings.CutPrefix(line, "Hook system message: "); ok {
				notices = append(notices, m)
			}
		}
		return oneResult(t, api, r.stdout+r.stderr), notices
	}

	t.Run("a checked call shows no notice", func(t *testing.T) {
		got, notices := run(t)
		if !strings.Contains(got, harmlessW) {
			t.Errorf("tool result:\n%s", got)
		}
		if len(notices) != 0 {
			t.Errorf("notices on a checked call: %q", notices)
		}
		if c := rec.one(t); c.Code != 0 || c.Stdout != "" {
			t.Errorf("hook answered exit %d, stdout %q", c.Code, c.Stdout)
		}
	})
	t.Run("a fail-open runs the call and shows the message", func(t *testing.T) {
		failOpen(t, e)
		got, notices := run(t)
		if !strings.Contains(got, harmlessW) {
			t.Errorf("the call did not run; tool result:\n%s", got)
		}
		c := rec.one(t)
		if c.Code != 0 || !strings.Contains(c.Stdout, `"systemMessage"`) {
			t.Errorf("hook answered exit %d, stdout %q, stderr %q; want exit 0 and a systemMessage", c.Code, c.Stdout, c.Stderr)
		}
		if len(notices) != 1 || !strings.HasPrefix(notices[0], "agentjail: ") || !strings.Contains(notices[0], failOpenMark) {
			t.Errorf("Gemini CLI showed %q, want one notice with the hook's message", notices)
		}
	})
}
