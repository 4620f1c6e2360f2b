package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/wire"
)

// uncheckedRec is the part of an unchecked record the tests read.
type uncheckedRec struct {
	SessionID string `json:"session_id"`
	Agent     string `json:"agent"`
	Summary   string `json:"summary"`
	Verdict   string `json:"verdict"`
	Unchecked *struct {
		Cause  string `json:"cause"`
		Source string `json:"source"`
	} `json:"unchecked"`
}

// uncheckedCalls are the records `agentjail logs --unchecked --json` shows.
func uncheckedCalls(t *testing.T, e *env) []uncheckedRec {
	t.Helper()
	r := e.cli("logs", "--unchecked", "--json", "-n", "0")
	var out []uncheckedRec
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var rec uncheckedRec
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Verdict == "unchecked" {
			out = append(out, rec)
		}
	}
	return out
}

// uncheckedWith waits (the records are read every two seconds, and a
// call gets 15 s for its decision) for an unchecked call whose summary
// holds needle.
func uncheckedWith(t *testing.T, e *env, needle string) uncheckedRec {
	t.Helper()
	var found uncheckedRec
	defer func() {
		if found.Verdict == "" {
			b, _ := os.ReadFile(filepath.Join(e.ajHome, "agentjail.log"))
			t.Logf("the daemon's log:\n%s", b)
			t.Logf("logs:\n%s", e.cli("logs", "-n", "0", "--json").stdout)
			filepath.Walk(filepath.Join(e.home, ".claude"), func(p string, fi os.FileInfo, err error) error {
				if err == nil && !fi.IsDir() {
					t.Logf("file %s (%d bytes, %v)", p, fi.Size(), fi.ModTime())
				}
				return nil
			})

		}
	}()
	waitForLong(t, "an unchecked call running "+needle, 60*time.Second, func() bool {
		for _, r := range uncheckedCalls(t, e) {
			if strings.Contains(r.Summary, needle) {
				found = r
				return true
			}
		}
		return false
	})
	return found
}

func waitForLong(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out after %v waiting for %s", limit, what)
}

// auditOf is `agentjail audit --json`'s row of session.
func auditOf(t *testing.T, e *env, session string) map[string]any {
	t.Helper()
	var rows []map[string]any
	r := e.cli("audit", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatalf("audit --json: %v\n%s%s", err, r.stdout, r.stderr)
	}
	for _, row := range rows {
		if row["session"] == session {
			return row
		}
	}
	return nil
}

// accountingOf is what `agentjail status --json` says the daemon read of
// the calls the agents ran; the text form must say the same.
func accountingOf(t *testing.T, e *env) wire.Accounting {
	t.Helper()
	var rep struct {
		Daemon struct {
			Accounting *wire.Accounting `json:"accounting"`
		} `json:"daemon"`
	}
	r := e.cli("status", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Daemon.Accounting == nil {
		t.Fatalf("status --json has no accounting (%v):\n%s%s", err, r.stdout, r.stderr)
	}
	// The counts may grow between the two: only the form is compared.
	if text := e.cli("status").stdout; !regexp.MustCompile(`\naccounting: \d+ calls? read from \d+ agent record files? \(\d+ subagent calls?\), \d+ post-tool events?; \d+ found judged`).MatchString(text) {
		t.Errorf("status text has no accounting line:\n%s", text)
	}
	return *rep.Daemon.Accounting
}

// claudeSession runs `claude -p` in dir with extra environment, the
// model asking for one Bash command, and returns the session id.
func claudeSession(t *testing.T, e *env, api *fakeAPI, dir, command string, extra ...string) string {
	t.Helper()
	api.script("Bash", map[string]any{"command": command, "description": "Run it"})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, claudeBinary(t), "-p", "Do the task.", "--output-format", "json", "--permission-mode", "default")
	cmd.Dir = dir
	cmd.Env = claudeEnv(e, api, extra...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("claude: %v\n%s", err, out)
	}
	var res struct {
		SessionID string `json:"session_id"`
	}
	if i := strings.Index(string(out), "{"); i >= 0 {
		json.Unmarshal(out[i:], &res)
	}
	if res.SessionID == "" {
		t.Fatalf("claude gave no session id:\n%s", out)
	}
	return res.SessionID
}

// Every call real Claude Code made is accounted for, from its own
// transcripts: a guarded session has none unchecked; a nested run with
// its hooks switched off, and a run while the daemon was down (the hook
// failed open), are reported unchecked with their session and cause.
func TestRealClaudeUncheckedCalls(t *testing.T) {
	claudeBinary(t)
	e := newEnv(t)
	api := startFakeAPI(t)
	os.WriteFile(filepath.Join(e.home, ".claude.json"), []byte("{}"), 0o600)
	os.MkdirAll(filepath.Join(e.home, ".claude"), 0o700)
	work := filepath.Join(e.home, "work")
	os.MkdirAll(work, 0o755)
	os.WriteFile(filepath.Join(work, "README.md"), []byte("hello\n"), 0o644)
	if r := e.cli("install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	t.Cleanup(func() { e.cli("uninstall") })

	guarded := claudeSession(t, e, api, work, "echo guarded-run")
	t.Run("a guarded session has no unchecked call", func(t *testing.T) {
		waitForLong(t, "the session in audit", 30*time.Second, func() bool {
			row := auditOf(t, e, guarded)
			return row != nil && row["judged"].(float64) >= 1
		})
		// Past the grace a call gets, nothing of it is unchecked.
		time.Sleep(17 * time.Second)
		if row := auditOf(t, e, guarded); row["unchecked"].(float64) != 0 {
			t.Errorf("audit of the guarded session: %v", row)
		}
	})

	t.Run("a nested run with hooks off is reported unchecked", func(t *testing.T) {
		session := claudeSession(t, e, api, work, "echo nested-unguarded", "CLAUDE_CODE_SIMPLE=1")
		rec := uncheckedWith(t, e, "echo nested-unguarded")
		if rec.SessionID != session || rec.Agent != "claude-code" || rec.Unchecked == nil || !strings.Contains(rec.Unchecked.Cause, "hooks did not run") {
			t.Errorf("unchecked record %+v %+v; want session %s, hooks off", rec, rec.Unchecked, session)
		}
		if r := e.cli("status"); r.code != 4 || !strings.Contains(r.stdout, "ran unchecked") {
			t.Errorf("status (exit %d):\n%s", r.code, r.stdout)
		}
	})

	// A cloned repository that ships .claude/settings.json with
	// "disableAllHooks": true: Claude Code runs no hook there. Status run
	// from inside it says so (and not from elsewhere), and the session's
	// calls are unchecked with the project's file as their cause.
	t.Run("a project that switches hooks off is named by status and the accounting", func(t *testing.T) {
		proj := filepath.Join(e.home, "src", "cloned")
		os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
		os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), []byte(`{"disableAllHooks": true}`+"\n"), 0o644)
		want := "in this project, ~/src/cloned/.claude/settings.json sets \"disableAllHooks\": true"
		if r := e.runIn(filepath.Join(proj, ".claude"), "", "agentjail", "status"); r.code != 4 || !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "Claude Code wired, switched off") {
			t.Errorf("status inside the project (exit %d):\n%s", r.code, r.stdout)
		}
		if r := e.runIn(work, "", "agentjail", "status", "--json"); strings.Contains(r.stdout, "cloned") {
			t.Errorf("status elsewhere names the project:\n%s", r.stdout)
		}
		session := claudeSession(t, e, api, proj, "echo project-switched-off")
		rec := uncheckedWith(t, e, "echo project-switched-off")
		if rec.SessionID != session || rec.Unchecked == nil || !strings.Contains(rec.Unchecked.Cause, "its project's settings switch the agent's hooks off: ~/src/cloned/.claude/settings.json") {
			t.Errorf("unchecked record %+v %+v; want session %s, the project's file", rec, rec.Unchecked, session)
		}
	})

	// The pre-tool hook gives up on the daemon at once (its --timeout
	// cut to a microsecond, as a daemon late under load would make it)
	// and lets the call run; the post-tool hook reaches the daemon, which
	// reports the call from that event, not at the next read of the
	// transcript, and knows why from the hook's failure log.
	t.Run("a call the hook let run unchecked is reported from the post-tool event", func(t *testing.T) {
		settings := filepath.Join(e.home, ".claude", "settings.json")
		orig, err := os.ReadFile(settings)
		if err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(settings, orig, 0o600)
		var cfg map[string]any
		if err := json.Unmarshal(orig, &cfg); err != nil {
			t.Fatal(err)
		}
		pre := cfg["hooks"].(map[string]any)["PreToolUse"].([]any)
		rewired := 0
		for _, entry := range pre {
			for _, h := range entry.(map[string]any)["hooks"].([]any) {
				h := h.(map[string]any)
				if cmd, _ := h["command"].(string); strings.Contains(cmd, "agentjail-hook") {
					h["command"] = cmd + " --timeout 1us"
					rewired++
				}
			}
		}
		if rewired != 1 {
			t.Fatalf("%d pre-tool entries of ours in %s", rewired, orig)
		}
		b, _ := json.Marshal(cfg)
		if err := os.WriteFile(settings, b, 0o600); err != nil {
			t.Fatal(err)
		}
		session := claudeSession(t, e, api, work, "echo let-through")
		ran := false
		for _, r := range api.received() {
			ran = ran || strings.Contains(r.Content, "let-through")
		}
		if !ran {
			t.Fatalf("the call should have run, failed open; the model got %+v", api.received())
		}
		rec := uncheckedWith(t, e, "echo let-through")
		if rec.SessionID != session || rec.Unchecked == nil || !strings.Contains(rec.Unchecked.Cause, "failed open") || (rec.Unchecked.Source != "post-tool event" && rec.Unchecked.Source != "the hook's failure log") {
			t.Errorf("unchecked record %+v %+v; want session %s, failed open, from the post-tool event (or the failure log, which names it too)", rec, rec.Unchecked, session)
		}
	})

	t.Run("calls made while the daemon was down are reported once it is back", func(t *testing.T) {
		daemonBin := filepath.Join(e.ajHome, "bin", "agentjail")
		os.Rename(daemonBin, daemonBin+".away")
		pid := daemonPID(t, e)
		syscall.Kill(pid, syscall.SIGTERM)
		waitFor(t, "the daemon to stop", func() bool { return syscall.Kill(pid, 0) != nil })
		session := claudeSession(t, e, api, work, "echo while-down")
		os.Rename(daemonBin+".away", daemonBin)
		if r := e.cli("install"); r.code != 0 { // starts the daemon again
			t.Fatalf("install: %+v", r)
		}
		rec := uncheckedWith(t, e, "echo while-down")
		if rec.SessionID != session || rec.Unchecked == nil || !strings.Contains(rec.Unchecked.Cause, "failed open") {
			t.Errorf("unchecked record %+v %+v; want session %s, failed open", rec, rec.Unchecked, session)
		}
		if row := auditOf(t, e, session); row == nil || row["failed_open"].(float64) < 1 {
			t.Errorf("audit of the session: %v", row)
		}
	})
}

// The same for real Codex, from its session files: a guarded run leaves
// nothing unchecked; a run with its hooks switched off by the command
// line (-c features.hooks=false) is reported unchecked.
func TestRealCodexUncheckedCalls(t *testing.T) {
	codex := agentCLI(t, "codex")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)
	writeCodexHome(t, e, api, "")
	installFor(t, e, "codex")
	run := func(t *testing.T, command string, extra ...string) {
		t.Helper()
		api.script(&modelCall{Name: "exec_command", Args: map[string]any{"cmd": command}})
		args := append(append([]string{"exec"}, extra...), "--skip-git-repo-check", "-s", "danger-full-access", "Do the task.")
		r := runProcess(t, agentEnv(e, "FAKE_MODEL_KEY=x"), work.dir, codex, args, 90*time.Second)
		if r.code != 0 {
			t.Fatalf("codex exec: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}
	t.Run("a guarded run has no unchecked call", func(t *testing.T) {
		run(t, "echo codex-guarded")
		// Read from its session file, and found judged.
		waitForLong(t, "the call read from Codex's session file", 30*time.Second, func() bool { return accountingOf(t, e).RecordCalls >= 1 })
		time.Sleep(17 * time.Second) // past the grace a call gets
		for _, r := range uncheckedCalls(t, e) {
			t.Errorf("unchecked: %+v", r)
		}
		if a := accountingOf(t, e); a.Judged < a.RecordCalls+a.PostEvents {
			t.Errorf("not every call read was found judged: %+v", a)
		}
	})
	t.Run("a run with its hooks off is reported unchecked", func(t *testing.T) {
		run(t, "echo codex-unguarded", "-c", "features.hooks=false")
		rec := uncheckedWith(t, e, "echo codex-unguarded")
		if rec.Agent != "codex" || rec.SessionID == "" || rec.Unchecked == nil || !strings.Contains(rec.Unchecked.Cause, "hooks did not run") {
			t.Errorf("unchecked record %+v %+v", rec, rec.Unchecked)
		}
	})
	t.Run("calls made while the daemon was down are reported once it is back", func(t *testing.T) {
		daemonBin := filepath.Join(e.ajHome, "bin", "agentjail")
		os.Rename(daemonBin, daemonBin+".away") // so the hook cannot start it again
		pid := daemonPID(t, e)
		syscall.Kill(pid, syscall.SIGTERM)
		waitFor(t, "the daemon to stop", func() bool { return syscall.Kill(pid, 0) != nil })
		run(t, "echo codex-while-down")
		os.Rename(daemonBin+".away", daemonBin)
		if r := e.cli("install", "--for", "codex"); r.code != 0 { // starts the daemon again
			t.Fatalf("install: %+v", r)
		}
		rec := uncheckedWith(t, e, "echo codex-while-down")
		// Once, failed open, from whichever names it first: the hook's
		// failure log or Codex's session file.
		if rec.Agent != "codex" || rec.SessionID == "" || rec.Unchecked == nil || !strings.Contains(rec.Unchecked.Cause, "failed open") ||
			(rec.Unchecked.Source != "the agent's record" && rec.Unchecked.Source != "the hook's failure log") {
			t.Errorf("unchecked record %+v %+v; want failed open, with its session", rec, rec.Unchecked)
		}
		n := 0
		for _, r := range uncheckedCalls(t, e) {
			if strings.Contains(r.Summary, "echo codex-while-down") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d unchecked records of the call, want 1", n)
		}
	})
}

// guardedHasNoneUnchecked checks, past the grace a call gets, that
// session has a judged call and none unchecked.
func guardedHasNoneUnchecked(t *testing.T, e *env, session string) {
	t.Helper()
	waitForLong(t, "the session in audit", 30*time.Second, func() bool {
		row := auditOf(t, e, session)
		return row != nil && row["judged"].(float64) >= 1
	})
	time.Sleep(17 * time.Second)
	if row := auditOf(t, e, session); row["unchecked"].(float64) != 0 || row["seen"] != row["judged"] {
		t.Errorf("audit of the guarded session: %v", row)
	}
}

// The same for real Copilot CLI, from its session's events.jsonl. It
// gives its hook no id of the call, so a recorded call is matched with
// its decision by session, tool and input. Copilot has no switch that
// turns its hooks off headless (disableAllHooks in settings.json, the
// user's or the repository's, left the hooks file's hooks running), so
// the escaped session is one started with another COPILOT_HOME, which
// holds no hooks, whose session-state is the user's: its hooks, post-tool
// one included, did not run, and its record is where the daemon reads.
func TestRealCopilotUncheckedCalls(t *testing.T) {
	copilot := agentCLI(t, "copilot")
	cache, err := filepath.Abs(filepath.Join("..", ".tools", "copilot", "cache"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)
	installFor(t, e, "copilot")
	run := func(t *testing.T, command string, extra ...string) string {
		t.Helper()
		api.script(&modelCall{Name: "bash", Args: map[string]any{"command": command, "description": "Run it"}})
		r := runProcess(t, append(agentEnv(e,
			"COPILOT_OFFLINE=true",
			"COPILOT_PROVIDER_BASE_URL="+api.url+"/v1",
			"COPILOT_PROVIDER_API_KEY=x",
			"COPILOT_MODEL="+copilotModel,
			"COPILOT_AUTO_UPDATE=false",
			"XDG_CACHE_HOME="+cache,
		), extra...), work.dir, copilot, []string{"-p", "Do the task.", "--allow-all-tools"}, 90*time.Second)
		out := r.stdout + r.stderr
		if r.code != 0 {
			t.Fatalf("copilot: exit %d\n%s", r.code, out)
		}
		oneResult(t, api, out)
		_, session, ok := strings.Cut(out, "--resume=")
		if session, _, _ = strings.Cut(session, "\n"); !ok || strings.TrimSpace(session) == "" {
			t.Fatalf("copilot named no session:\n%s", out)
		}
		return strings.TrimSpace(session)
	}

	guarded := run(t, "echo copilot-guarded")
	t.Run("a guarded session has no unchecked call", func(t *testing.T) {
		guardedHasNoneUnchecked(t, e, guarded)
	})

	t.Run("a session whose hooks did not run is reported unchecked", func(t *testing.T) {
		other := filepath.Join(e.home, "other-copilot-home")
		os.MkdirAll(other, 0o700)
		if err := os.Symlink(filepath.Join(e.home, ".copilot", "session-state"), filepath.Join(other, "session-state")); err != nil {
			t.Fatal(err)
		}
		session := run(t, "echo copilot-unguarded", "COPILOT_HOME="+other)
		rec := uncheckedWith(t, e, "echo copilot-unguarded")
		if rec.SessionID != session || rec.Agent != "copilot" || rec.Unchecked == nil || rec.Unchecked.Source != "the agent's record" || !strings.Contains(rec.Unchecked.Cause, "hooks did not run") {
			t.Errorf("unchecked record %+v %+v; want session %s from the record, hooks off", rec, rec.Unchecked, session)
		}
		// The guarded session's record, read beside it, is still all judged.
		if row := auditOf(t, e, guarded); row["unchecked"].(float64) != 0 {
			t.Errorf("audit of the guarded session: %v", row)
		}
	})

	t.Run("a call only its post-tool hook saw is reported once", func(t *testing.T) {
		// The pre-tool entry taken out of agentjail's hooks file, the
		// postToolUse one left: the post-tool event and the record both
		// tell of the call, named alike (no id), so it is one report.
		path := filepath.Join(e.home, ".copilot", "hooks", "agentjail.json")
		orig, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(path, orig, 0o600)
		var hooks map[string]any
		if err := json.Unmarshal(orig, &hooks); err != nil {
			t.Fatal(err)
		}
		delete(hooks["hooks"].(map[string]any), "preToolUse")
		b, _ := json.Marshal(hooks)
		os.WriteFile(path, b, 0o600)
		session := run(t, "echo copilot-post-only")
		rec := uncheckedWith(t, e, "echo copilot-post-only")
		if rec.SessionID != session || rec.Unchecked == nil || rec.Unchecked.Source != "post-tool event" {
			t.Errorf("unchecked record %+v %+v; want session %s from the post-tool event", rec, rec.Unchecked, session)
		}
		time.Sleep(17 * time.Second) // the record read too, past its grace
		if row := auditOf(t, e, session); row == nil || row["unchecked"].(float64) != 1 || row["seen"].(float64) != 1 {
			t.Errorf("audit of the session: %v; want its one call unchecked once", row)
		}
	})
}

// The same for real Factory Droid, from its session files. It gives its
// hook no id of the call either. A repository's .factory/settings.json
// with hooks.hooksDisabled turns every hook off, the post-tool one too:
// the calls of a session started there are known only from its record.
func TestRealDroidUncheckedCalls(t *testing.T) {
	droid := agentCLI(t, "droid")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)
	dir := filepath.Join(e.home, ".factory")
	os.MkdirAll(dir, 0o700)
	settings := `{"customModels": [{"model": "local-model", "displayName": "Local", "baseUrl": "` + api.url + `/v1", "apiKey": "x", "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}]}`
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	installFor(t, e, "droid")
	// run runs `droid exec` in wd and returns its session: the name of
	// the record holding command.
	run := func(t *testing.T, wd, command string) string {
		t.Helper()
		api.script(&modelCall{Name: "Execute", Args: map[string]any{"command": command, "summary": "Run it", "riskLevel": "low", "riskLevelReason": "as asked"}})
		r := runProcess(t, agentEnv(e, "FACTORY_API_KEY=fk-dummy"), wd, droid,
			[]string{"exec", "-m", "custom:local-model", "--auto", "low", "Do the task."}, 90*time.Second)
		if r.code != 0 {
			t.Fatalf("droid exec: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		oneResult(t, api, r.stdout+r.stderr)
		files, _ := filepath.Glob(filepath.Join(dir, "sessions", "*", "*.jsonl"))
		for _, f := range files {
			if b, _ := os.ReadFile(f); strings.Contains(string(b), command) {
				return strings.TrimSuffix(filepath.Base(f), ".jsonl")
			}
		}
		t.Fatalf("no session file of Droid's holds %q: %v", command, files)
		return ""
	}

	guarded := run(t, work.dir, "echo droid-guarded")
	t.Run("a guarded session has no unchecked call", func(t *testing.T) {
		guardedHasNoneUnchecked(t, e, guarded)
	})

	t.Run("a session in a repository that turns hooks off is reported unchecked", func(t *testing.T) {
		repo := filepath.Join(e.home, "hooks-off")
		os.MkdirAll(filepath.Join(repo, ".factory"), 0o755)
		if err := os.WriteFile(filepath.Join(repo, ".factory", "settings.json"), []byte(`{"hooks": {"hooksDisabled": true}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		session := run(t, repo, "echo droid-unguarded")
		rec := uncheckedWith(t, e, "echo droid-unguarded")
		// The cause names the project's own switch.
		if rec.SessionID != session || rec.Agent != "droid" || rec.Unchecked == nil || rec.Unchecked.Source != "the agent's record" || !strings.Contains(rec.Unchecked.Cause, "its project's settings switch the agent's hooks off: ~/hooks-off/.factory/settings.json") {
			t.Errorf("unchecked record %+v %+v; want session %s from the record, the project's switch", rec, rec.Unchecked, session)
		}
		if row := auditOf(t, e, guarded); row["unchecked"].(float64) != 0 {
			t.Errorf("audit of the guarded session: %v", row)
		}
	})
}
