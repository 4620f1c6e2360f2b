package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Cline CLI (npm cline 3.0.65, on @cline/core 0.0.86) as measured here,
// headless (`cline "prompt"`, act mode, tools auto-approved unless
// --auto-approve false), with an OpenAI-compatible provider (`cline auth
// -p openai -k KEY -m MODEL -b URL`) pointed at fakeModel's chat
// completions:
//
//   - Hooks are executable files named after the event (PreToolUse, or
//     PreToolUse.sh, .py, .js ... any case) in ~/Documents/Cline/Hooks,
//     $CLINE_DIR or ~/.cline /hooks, and the project's .clinerules/hooks
//     and .cline/hooks; every one found runs, one after another, and a
//     file with a #! line runs through the program it names.
//   - The hook gets {"clineVersion","hookName":"tool_call","timestamp",
//     "taskId","sessionContext","workspaceRoots":[cwd],"workspaceInfo",
//     "userId","agent_id","parent_agent_id","iteration","tool_call":{"id",
//     "name","input"},"preToolUse":{"toolName","parameters"}}: the input
//     as the tool gets it, and again with every value that is not a
//     string turned into JSON text. No cwd; the hook runs in the
//     workspace. Tools offered: read_files, search_codebase,
//     run_commands ({"commands":[...]}), fetch_web_content, apply_patch
//     (editor for some models), ask_question, spawn_agent, team_*.
//   - Only the JSON the hook prints counts, whatever its exit code:
//     Claude Code's hookSpecificOutput deny with exit 2, garbage with
//     exit 1 and {"review":true} all let the tool run (fails open); so
//     does a hook past Cline's timeout (120 s).
//   - {"cancel":true,"errorMessage":R} stops the whole run before the
//     tool runs: the model gets no tool result and is never told why, the
//     user sees "[abort] aborted by another client", R goes to
//     ~/.cline/data/logs/cline.log alone, and cline exits 0. In a
//     subagent (spawn_agent) it stops the subagent, whose parent reads
//     finishReason "aborted". There is no ask, and no allow that widens
//     Cline's own approval.
//   - contextModification reaches the model as a <hook_context> message
//     but does not stop the call; overrideInput replaces the input (the
//     last hook to give one wins, and an MCP tool given a non-object runs
//     with no arguments), so neither is a deny.
//   - With --auto-approve false a headless run refuses each tool itself
//     ("requires approval in a TTY session"), after the hook has run.
//   - After a tool has run, executable files named PostToolUse get the
//     same fields with "hookName":"tool_result" and "tool_result":{"id",
//     "name","input","output","durationMs",...} (and postToolUse, the
//     older shape); a call stopped before it ran gets none.
//   - Its record of a session is ~/.cline/data/sessions/<id>/<id>.json
//     and <id>.messages.json, one JSON object each, rewritten whole
//     (and a SQLite sessions.db): nothing agentjail follows by lines.
//   - Every run but with CLINE_SESSION_BACKEND_MODE=local leaves a hub
//     daemon (`cline --cline-hub-daemon`, its own process group, port
//     25463) running, found in ~/.cline/data/locks/hub/*.json.
func TestRealCline(t *testing.T) {
	cline := agentCLI(t, "cline")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)
	t.Cleanup(func() { stopClineHub(t, e) })
	environ := agentEnv(e, "CLINE_SESSION_BACKEND_MODE=local", "CLINE_NO_AUTO_UPDATE=1")

	if r := runProcess(t, environ, work.dir, cline, []string{"auth", "-p", "openai", "-k", "x", "-m", copilotModel, "-b", api.url + "/v1"}, 60*time.Second); r.code != 0 {
		t.Fatalf("cline auth: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A hook of the user's own beside the one the installer adds: Cline
	// runs both; uninstall must leave the folder as it was.
	hooksDir := filepath.Join(e.home, ".cline", "hooks")
	os.MkdirAll(hooksDir, 0o755)
	if err := os.WriteFile(filepath.Join(hooksDir, "PreToolUse.sh"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	filesBefore := dirFiles(hooksDir)
	before := takeSnapshot(append(filesBefore, filepath.Join(hooksDir, "PreToolUse"))...)

	installFor(t, e, "cline")
	if fi, err := os.Stat(filepath.Join(hooksDir, "PreToolUse")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("the installer's hook file: %v %v, want mode 0755", fi, err)
	}
	rec := recordHook(t, e)

	run := func(t *testing.T, call *modelCall, args ...string) string {
		t.Helper()
		rec.reset()
		api.script(call)
		r := runProcess(t, environ, work.dir, cline, append(args, "Do the task."), 120*time.Second)
		out := r.stdout + r.stderr
		if r.code != 0 {
			t.Fatalf("cline: exit %d\n%s", r.code, out)
		}
		return out
	}
	shell := func(command string) *modelCall {
		return &modelCall{Name: "run_commands", Args: map[string]any{"commands": []string{command}}}
	}
	// cancelled checks a call stopped by the hook: its answer is a cancel
	// whose message says reason, the run stopped, and the model got
	// nothing back.
	cancelled := func(t *testing.T, out string, reason ...string) hookCall {
		t.Helper()
		c := rec.one(t)
		var ans struct {
			Cancel       bool   `json:"cancel"`
			ErrorMessage string `json:"errorMessage"`
		}
		if err := json.Unmarshal([]byte(c.Stdout), &ans); err != nil || !ans.Cancel || c.Code != 0 {
			t.Errorf("hook answered exit %d, stdout %q (%v); want a cancel", c.Code, c.Stdout, err)
		}
		for _, r := range reason {
			if !strings.Contains(ans.ErrorMessage, r) {
				t.Errorf("errorMessage %q, want it to say %q", ans.ErrorMessage, r)
			}
		}
		if got := api.received(); len(got) != 0 {
			t.Errorf("the model got tool results %q; a cancel stops the run", got)
		}
		if !strings.Contains(out, "aborted") {
			t.Errorf("cline said:\n%s\nwant the run aborted", out)
		}
		return c
	}

	t.Run("a key read is stopped before it runs", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, keyRead)
		out := run(t, shell(keyRead))
		c := cancelled(t, out, reason)
		if strings.Contains(out, work.key) || strings.Contains(api.seen(), work.key) {
			t.Errorf("the key leaked:\n%s", out)
		}
		ev := c.event(t)
		tc, _ := ev["tool_call"].(map[string]any)
		in, _ := tc["input"].(map[string]any)
		if ev["hookName"] != "tool_call" || tc["name"] != "run_commands" || !slices.Equal(stringList(in["commands"]), []string{keyRead}) {
			t.Errorf("event:\n%s\nwant hookName tool_call, run_commands with commands [%q]", c.Stdin, keyRead)
		}
		if pre, _ := ev["preToolUse"].(map[string]any); pre["toolName"] != "run_commands" {
			t.Errorf("preToolUse %v", ev["preToolUse"])
		} else if params, _ := pre["parameters"].(map[string]any); params["commands"] != `["`+keyRead+`"]` {
			t.Errorf("preToolUse.parameters %v, want commands as JSON text", params)
		}
		if roots, _ := ev["workspaceRoots"].([]any); len(roots) != 1 || roots[0] != work.dir {
			t.Errorf("workspaceRoots %v, want [%s]", ev["workspaceRoots"], work.dir)
		}
		loggedOnce(t, e, "cline", ".ssh/id_rsa", "deny")
		if !strings.Contains(c.Args, "--agent cline") {
			t.Errorf("the hook runs as %q, want --agent cline", c.Args)
		}
	})

	t.Run("its own file tool reading the key is stopped too", func(t *testing.T) {
		key := filepath.Join(e.home, ".ssh", "id_rsa")
		out := run(t, &modelCall{Name: "read_files", Args: map[string]any{"files": []any{map[string]any{"path": key}}}})
		c := cancelled(t, out, "private key")
		if tc, _ := c.event(t)["tool_call"].(map[string]any); tc["name"] != "read_files" {
			t.Errorf("tool %v, want read_files", tc["name"])
		}
		if strings.Contains(out, work.key) {
			t.Errorf("the key leaked:\n%s", out)
		}
	})

	t.Run("an allowed command runs confined", func(t *testing.T) {
		run(t, shell(jailedKeyRead))
		ranJailed(t, work, oneResult(t, api, ""))
	})

	// Cline runs a call's commands at once (Promise.all), so each writes
	// its own file: what shows the rewrite kept every command at its
	// place is that each file holds its own command's line.
	t.Run("each of several commands runs confined, as written", func(t *testing.T) {
		first, second := filepath.Join(work.dir, "made-first"), filepath.Join(work.dir, "made-second")
		run(t, &modelCall{Name: "run_commands", Args: map[string]any{"commands": []any{
			"echo first > " + first,
			map[string]any{"command": "sh", "args": []string{"-c", "echo second > " + second}},
			jailedKeyRead,
		}}})
		ranJailed(t, work, oneResult(t, api, ""))
		for file, want := range map[string]string{first: "first\n", second: "second\n"} {
			if b, _ := os.ReadFile(file); string(b) != want {
				t.Errorf("%s holds %q, want %q", file, b, want)
			}
		}
	})

	t.Run("a harmless command runs, rewritten to run jailed", func(t *testing.T) {
		run(t, shell(harmless))
		if got := oneResult(t, api, ""); !strings.Contains(got, harmlessW) {
			t.Errorf("tool result:\n%s", got)
		}
		c := rec.one(t)
		if c.Code != 0 || !jailedRewrite(c.Stdout, harmless) {
			t.Errorf("hook answered exit %d, stdout %q, stderr %q; want exit 0 and the command rewritten to run jailed", c.Code, c.Stdout, c.Stderr)
		}
		// After it ran, PostToolUse got the same call, in the same
		// conversation (rec.one checked it said nothing), and the daemon
		// had judged it: nothing is unchecked.
		post := rec.postCalls()
		if len(post) != 1 {
			t.Fatalf("the post-tool hook ran %d times, want once", len(post))
		}
		pre, ev := c.event(t), post[0].event(t)
		tc, _ := pre["tool_call"].(map[string]any)
		tr, _ := ev["tool_result"].(map[string]any)
		if ev["hookName"] != "tool_result" || ev["taskId"] != pre["taskId"] || tr["id"] != tc["id"] || tr["name"] != tc["name"] || !strings.Contains(post[0].Args, "--agent cline --post") {
			t.Errorf("post-tool hook %q got:\n%s\nafter the tool_call:\n%s", post[0].Args, post[0].Stdin, c.Stdin)
		}
		for _, r := range uncheckedCalls(t, e) {
			t.Errorf("unchecked: %+v %+v", r, r.Unchecked)
		}
		if row := auditOf(t, e, pre["taskId"].(string)); row == nil || row["judged"].(float64) != 1 || row["seen"] != row["judged"] {
			t.Errorf("audit of the conversation %v: %v", pre["taskId"], row)
		}
	})

	t.Run("a call whose PreToolUse did not run is reported from PostToolUse", func(t *testing.T) {
		pre := filepath.Join(hooksDir, "PreToolUse")
		os.Rename(pre, pre+".away")
		defer os.Rename(pre+".away", pre)
		run(t, shell("echo cline-pre-away"))
		post := rec.postCalls()
		if len(post) != 1 {
			t.Fatalf("the post-tool hook ran %d times, want once", len(post))
		}
		rec := uncheckedWith(t, e, "echo cline-pre-away")
		if rec.Agent != "cline" || rec.SessionID != post[0].event(t)["taskId"] || rec.Unchecked == nil || rec.Unchecked.Source != "post-tool event" || !strings.Contains(rec.Unchecked.Cause, "not its pre-tool hook") {
			t.Errorf("unchecked record %+v %+v; want cline's, its conversation, from the post-tool event", rec, rec.Unchecked)
		}
	})

	t.Run("an ask-class command is stopped and the reason says a person must approve", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, askClass)
		head := work.head(t, e)
		out := run(t, shell(askClass))
		cancelled(t, out, reasonCore(reason), "nobody answered")
		if now := work.head(t, e); now != head {
			t.Errorf("the reset ran: HEAD moved from %s to %s", head, now)
		}
	})

	t.Run("no objection leaves Cline's own refusal in place", func(t *testing.T) {
		// With --auto-approve false a headless Cline refuses a tool
		// itself; the hook's silence must not change that.
		made := filepath.Join(work.dir, "made-by-tool")
		run(t, shell("touch "+made), "--auto-approve", "false")
		got := oneResult(t, api, "")
		if _, err := os.Stat(made); err == nil {
			t.Errorf("the touch ran; tool result:\n%s", got)
		}
		if !strings.Contains(got, "requires approval") {
			t.Errorf("tool result:\n%s\nwant Cline's own refusal", got)
		}
		if c := rec.one(t); c.Code != 0 || (c.Stdout != "" && !jailedRewrite(c.Stdout, "touch "+made)) {
			t.Errorf("hook answered exit %d, stdout %q", c.Code, c.Stdout)
		}
	})

	t.Run("uninstall leaves the hooks folder as it was", func(t *testing.T) {
		if r := ajRun(t, e, "uninstall", "--for", "cline"); r.code != 0 {
			t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		before.same(t)
		if now := dirFiles(hooksDir); !slices.Equal(now, filesBefore) {
			t.Errorf("hooks folder holds %v, want %v", now, filesBefore)
		}
		run(t, shell(keyRead))
		if got := oneResult(t, api, ""); !strings.Contains(got, work.key) {
			t.Errorf("after uninstall the key read should run unguarded; tool result:\n%s", got)
		}
		if n := len(rec.calls()); n != 0 {
			t.Errorf("the hook still ran %d times", n)
		}
	})
}

// stringList is v's strings, if v is a list of them.
func stringList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// stopClineHub stops a hub daemon a Cline run left in e's home, should
// one have started despite CLINE_SESSION_BACKEND_MODE=local: the pid its
// discovery file names, a process group of its own.
func stopClineHub(t *testing.T, e *env) {
	files, _ := filepath.Glob(filepath.Join(e.home, ".cline", "data", "locks", "hub", "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var d struct {
			PID int `json:"pid"`
		}
		if json.Unmarshal(b, &d) != nil || d.PID <= 1 {
			continue
		}
		environ, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(d.PID), "environ"))
		if err == nil && !strings.Contains(string(environ), "HOME="+e.home+"\x00") {
			continue // not from this test's home
		}
		if syscall.Kill(-d.PID, syscall.SIGTERM) == nil || syscall.Kill(d.PID, syscall.SIGTERM) == nil {
			t.Logf("stopped the Cline hub daemon %d that a run left behind", d.PID)
		}
	}
}
