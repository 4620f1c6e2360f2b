package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
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

// noticeSubtests runs the two sides with run (the agent doing the
// harmless call, returning the tool's result and the notices it showed):
// a checked call shows nothing, and a fail-open runs the call and shows
// exactly one notice, starting with prefix, with the hook's message.
func noticeSubtests(t *testing.T, e *env, rec *hookRecorder, run func(*testing.T) (string, []string), agentTitle, prefix string) {
	t.Run("a checked call shows no notice", func(t *testing.T) {
		got, notices := run(t)
		if !strings.Contains(got, harmlessW) {
			t.Errorf("tool result:\n%s", got)
		}
		if len(notices) != 0 {
			t.Errorf("notices on a checked call: %q", notices)
		}
		// Nothing but, for an agent that confines, the call rewritten to
		// run in the jail.
		if c := rec.one(t); c.Code != 0 || (c.Stdout != "" && !jailedRewrite(c.Stdout, harmless)) {
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
		if len(notices) != 1 || !strings.HasPrefix(notices[0], prefix) || !strings.Contains(notices[0], failOpenMark) {
			t.Errorf("%s showed %q, want one notice with the hook's message", agentTitle, notices)
		}
	})
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

	noticeSubtests(t, e, rec, run, "Claude Code", "PreToolUse:Bash says: agentjail: ")
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
		r := runGemini(t, e, api, work.dir, gemini)
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

	noticeSubtests(t, e, rec, run, "Gemini CLI", "agentjail: ")
}

// Codex 0.169.0, measured: a PreToolUse hook's {"systemMessage"} on exit
// 0 is accepted (the hook's run is "completed", not "failed", and the
// call runs) and becomes a warning entry of the hook's run, which Codex's
// app server (what its screen and editor extensions draw from) sends in
// hook/completed as run.entries [{"kind":"warning","text":<message>}].
// A stderr-only answer on exit 0 gives no entry at all. `codex exec`
// prints neither, in text or --json: headless, the message is only in
// the app server's events (and the hook's stderr).
func TestRealCodexFailOpenNotice(t *testing.T) {
	codex := agentCLI(t, "codex")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)
	writeCodexHome(t, e, api, "")
	installFor(t, e, "codex")

	// run has Codex run the harmless command in one app-server turn and
	// returns the tool's result and our hook's completed run.
	run := func(t *testing.T) (string, codexHookRun) {
		t.Helper()
		api.script(&modelCall{Name: "exec_command", Args: map[string]any{"cmd": harmless}})
		var ours []codexHookRun
		for _, n := range codexTurn(t, e, codex, work.dir) {
			if n.Method != "hook/completed" {
				continue
			}
			var p struct{ Run codexHookRun }
			json.Unmarshal(n.Params, &p)
			if strings.HasSuffix(filepath.Dir(p.Run.SourcePath), ".codex") && p.Run.EventName == "preToolUse" {
				ours = append(ours, p.Run)
			}
		}
		if len(ours) != 1 {
			t.Fatalf("Codex reported %d PreToolUse hook runs, want 1: %+v", len(ours), ours)
		}
		return oneResult(t, api, ""), ours[0]
	}

	t.Run("a checked call shows no notice", func(t *testing.T) {
		got, hook := run(t)
		if !strings.Contains(got, harmlessW) {
			t.Errorf("tool result:\n%s", got)
		}
		if hook.Status != "completed" || len(hook.Entries) != 0 {
			t.Errorf("hook run %+v, want completed with no entries", hook)
		}
	})
	t.Run("a fail-open runs the call and shows the message", func(t *testing.T) {
		failOpen(t, e)
		got, hook := run(t)
		if !strings.Contains(got, harmlessW) {
			t.Errorf("the call did not run; tool result:\n%s", got)
		}
		if hook.Status != "completed" || len(hook.Entries) != 1 || hook.Entries[0].Kind != "warning" ||
			!strings.HasPrefix(hook.Entries[0].Text, "agentjail: ") || !strings.Contains(hook.Entries[0].Text, failOpenMark) {
			t.Errorf("hook run %+v, want completed with one warning carrying the hook's message", hook)
		}
	})
}

// codexHookRun is the part of a hook run that Codex's app server reports.
type codexHookRun struct {
	EventName  string
	SourcePath string
	Status     string
	Entries    []struct{ Kind, Text string }
}

// codexNotification is one notification of Codex's app server.
type codexNotification struct {
	Method string
	Params json.RawMessage
}

// codexTurn starts Codex's app server in dir, opens a thread, runs one
// turn asking the model for its task, and returns every notification up
// to the turn's end.
func codexTurn(t *testing.T, e *env, codex, dir string) []codexNotification {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "app-server")
	cmd.Env, cmd.Dir = agentEnv(e, "FAKE_MODEL_KEY=x"), dir
	var stderr syncBuffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 5 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	enc := json.NewEncoder(stdin)
	send := func(m map[string]any) {
		m["jsonrpc"] = "2.0"
		if err := enc.Encode(m); err != nil {
			t.Fatalf("codex app-server: %v\n%s", err, stderr.String())
		}
	}
	send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"clientInfo": map[string]any{"name": "agentjail-e2e", "title": nil, "version": "1"}, "capabilities": nil}})
	send(map[string]any{"method": "initialized"})
	send(map[string]any{"id": 2, "method": "thread/start", "params": map[string]any{"cwd": dir, "sandbox": "danger-full-access", "approvalPolicy": "never"}})
	var out []codexNotification
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
			codexNotification
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		if m.ID != nil && len(m.Error) > 0 {
			t.Fatalf("codex app-server: request %d failed: %s", *m.ID, m.Error)
		}
		if m.ID != nil && *m.ID == 2 {
			var r struct{ Thread struct{ ID string } }
			json.Unmarshal(m.Result, &r)
			send(map[string]any{"id": 3, "method": "turn/start", "params": map[string]any{"threadId": r.Thread.ID, "input": []any{map[string]any{"type": "text", "text": "Do the task."}}}})
		}
		if m.Method == "" {
			continue
		}
		out = append(out, m.codexNotification)
		if m.Method == "turn/completed" {
			return out
		}
	}
	t.Fatalf("codex app-server ended before the turn did (%v)\n%s", ctx.Err(), stderr.String())
	return nil
}
