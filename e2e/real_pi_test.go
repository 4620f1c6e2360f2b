package e2e

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// pi (npm @mariozechner/pi-coding-agent 0.73.1) as measured here,
// headless (`pi -p`), against fakeModel's chat completions through a
// custom provider in ~/.pi/agent/models.json ("api":
// "openai-completions"):
//
//   - pi runs no hook commands. Extensions (*.ts and *.js, loaded with
//     jiti, in ~/.pi/agent/extensions/ or $PI_CODING_AGENT_DIR/extensions/,
//     a project's .pi/extensions/, and paths or packages named in
//     settings.json) get a "tool_call" event {type: "tool_call", toolName,
//     toolCallId, input} and a context (cwd, hasUI, ui, sessionManager)
//     before a tool runs. agentjail's extension sends the hook that event,
//     with cwd and session_id, as {"hook_event_name":"tool_call",...}.
//   - Tools offered by default: read {path, offset, limit}, bash
//     {command, timeout}, edit {path, edits: [{oldText, newText}]}, write
//     {path, content}; grep, find and ls when --tools names them.
//   - A handler's {block: true, reason} is the tool's result as the
//     model reads it, verbatim, with no prefix, and the tool does not
//     run; a handler that throws blocks too, its message the result.
//   - pi puts no time limit on a handler: one that answers after 8 s
//     lets the tool run then. A handler whose promise never settles,
//     with nothing else pending, ends the run at once: exit 0, nothing
//     on stdout, the tool not run. The extension's own bound (the hook's
//     deadline rounded up, plus 3 s) is the only one.
//   - pi has no permission prompts of its own: every tool runs headless
//     unless an extension blocks it, so a hook that says nothing cannot
//     widen anything, and the extension never answers anything but a
//     block.
//   - ask: in print mode ctx.hasUI is false and ctx.ui.confirm cannot
//     prompt, so the hook answers ask as a deny saying a person must
//     approve. (Interactive and RPC modes could ask with ctx.ui.confirm;
//     the extension does not.)
//   - When the hook fails (exit 1, a signal, garbage, past the bound),
//     the extension lets the call run with a warning on stderr, or
//     blocks it when installed with fail_mode: closed.
func TestRealPi(t *testing.T) {
	pi := agentCLI(t, "pi")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)

	// The user's own pi setup: a provider, settings, and an extension of
	// theirs that logs every call, beside which ours goes.
	files := piHome(e, api)
	agentDir := filepath.Join(e.home, ".pi", "agent")
	extDir := filepath.Join(agentDir, "extensions")
	os.MkdirAll(extDir, 0o700)
	seenLog := filepath.Join(e.home, "mine.log")
	maps.Copy(files, map[string]string{
		filepath.Join(extDir, "mine.ts"): `import { appendFileSync } from "node:fs";
export default function (pi) {
	pi.on("tool_call", async (event) => { appendFileSync(` + "`" + seenLog + "`" + `, event.toolName + "\n"); });
}
`,
	})
	for f, s := range files {
		if err := os.WriteFile(f, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	extBefore := dirFiles(extDir)
	before := takeSnapshot(slices.Collect(maps.Keys(files))...)

	installFor(t, e, "pi")
	rec := recordHook(t, e)

	run := func(t *testing.T, call *modelCall, args ...string) (string, result) {
		t.Helper()
		rec.reset()
		api.script(call)
		r := runProcess(t, agentEnv(e), work.dir, pi,
			append([]string{"-p", "--no-session", "--provider", "fake", "--model", copilotModel, "Do the task."}, args...), 120*time.Second)
		out := r.stdout + r.stderr
		if r.code != 0 {
			t.Fatalf("pi: exit %d\n%s", r.code, out)
		}
		return oneResult(t, api, out), r
	}
	bash := func(command string) *modelCall {
		return &modelCall{Name: "bash", Args: map[string]any{"command": command}}
	}

	t.Run("a key read is blocked and the model gets our reason", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, keyRead)
		got, _ := run(t, bash(keyRead))
		if got != reason || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s\nwant our reason verbatim:\n%s", got, reason)
		}
		c := rec.one(t)
		ev := c.event(t)
		if ev["hook_event_name"] != "tool_call" || ev["toolName"] != "bash" || ev["toolCallId"] != "call_1" || ev["cwd"] != work.dir {
			t.Errorf("event:\n%s\nwant tool_call, bash, call_1, cwd %s", c.Stdin, work.dir)
		}
		if in, _ := ev["input"].(map[string]any); in["command"] != keyRead {
			t.Errorf("input %v, want command %q", ev["input"], keyRead)
		}
		if id, _ := ev["session_id"].(string); id == "" {
			t.Errorf("no session_id:\n%s", c.Stdin)
		}
		loggedOnce(t, e, "pi", ".ssh/id_rsa", "deny")
		if !strings.Contains(c.Args, "--agent pi") {
			t.Errorf("the hook runs as %q, want --agent pi", c.Args)
		}
	})

	t.Run("its read tool on the key is blocked, however pi spells it", func(t *testing.T) {
		// pi drops a leading @ from a path before it reads.
		for _, p := range []string{"~/.ssh/id_rsa", "@~/.ssh/id_rsa", filepath.Join(e.home, ".ssh", "id_rsa")} {
			got, _ := run(t, &modelCall{Name: "read", Args: map[string]any{"path": p}})
			if !strings.Contains(got, "private key") || strings.Contains(got, work.key) {
				t.Errorf("read %s: tool result:\n%s", p, got)
			}
			if ev := rec.one(t).event(t); ev["toolName"] != "read" {
				t.Errorf("toolName %v, want read", ev["toolName"])
			}
		}
	})

	made := filepath.Join(work.dir, "made-by-pi")
	t.Run("an allowed command runs confined", func(t *testing.T) {
		got, _ := run(t, bash(jailedKeyRead))
		ranJailed(t, work, got)
	})

	t.Run("a harmless command runs, rewritten to run jailed", func(t *testing.T) {
		got, _ := run(t, bash(harmless+" > "+made+" && cat "+made))
		if !strings.Contains(got, harmlessW) {
			t.Errorf("tool result:\n%s", got)
		}
		if b, err := os.ReadFile(made); err != nil || !strings.Contains(string(b), harmlessW) {
			t.Errorf("the command did not run: %v %q", err, b)
		}
		c := rec.one(t)
		if c.Code != 0 || !jailedRewrite(c.Stdout, harmless+" > "+made+" && cat "+made) || c.Stderr != "" {
			t.Errorf("hook answered exit %d, stdout %q, stderr %q; want exit 0 and the command rewritten to run jailed", c.Code, c.Stdout, c.Stderr)
		}
		// After it ran, the post-tool hook got the same call (rec.one
		// checked it said nothing).
		post := rec.postCalls()
		if len(post) != 1 {
			t.Fatalf("the post-tool hook ran %d times, want once", len(post))
		}
		pre, ev := c.event(t), post[0].event(t)
		for _, k := range []string{"toolName", "toolCallId", "session_id", "cwd"} {
			if ev[k] != pre[k] {
				t.Errorf("post-tool event's %s %v, the tool_call's %v", k, ev[k], pre[k])
			}
		}
		if ev["hook_event_name"] != "tool_result" || !strings.Contains(post[0].Args, "--agent pi --post") {
			t.Errorf("post-tool hook %q got:\n%s", post[0].Args, post[0].Stdin)
		}
		// The user's own extension saw every call, ours beside it.
		if b, _ := os.ReadFile(seenLog); !strings.Contains(string(b), "bash") {
			t.Errorf("the user's extension did not run: %q", b)
		}
	})

	t.Run("no objection does not widen the tools pi offers", func(t *testing.T) {
		// pi asks no one before a tool runs; the one gate it has headless
		// is which tools it offers (--tools). A call of a tool it does not
		// offer is refused before any extension sees it.
		os.Remove(made)
		got, _ := run(t, bash("touch "+made), "--tools", "read")
		if _, err := os.Stat(made); err == nil {
			t.Errorf("bash ran though pi did not offer it; tool result:\n%s", got)
		}
		if !strings.Contains(got, "not found") {
			t.Errorf("tool result:\n%s\nwant pi's own refusal", got)
		}
		if n := len(rec.calls()); n != 0 {
			t.Errorf("the hook ran %d times for a tool pi does not offer", n)
		}
	})

	t.Run("an ask-class command is denied with our reason, not run", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, askClass)
		head := work.head(t, e)
		got, _ := run(t, bash(askClass))
		if !strings.HasPrefix(got, reasonCore(reason)) || !strings.Contains(got, "nobody answered") {
			t.Errorf("tool result:\n%s\nwant our reason (%s) and that nobody answered in time", got, reason)
		}
		if now := work.head(t, e); now != head {
			t.Errorf("the reset ran: HEAD moved from %s to %s", head, now)
		}
	})

	t.Run("a blocked call runs no post-tool hook", func(t *testing.T) {
		run(t, bash(keyRead))
		if post := rec.postCalls(); len(post) != 0 {
			t.Errorf("the post-tool hook ran for a call that did not: %+v", post)
		}
	})

	hook := filepath.Join(e.ajHome, "bin", "agentjail-hook")
	t.Run("a hook that fails lets the call run with a warning (fail_mode: open)", func(t *testing.T) {
		recorder, err := os.ReadFile(hook)
		if err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(hook, recorder, 0o755)
		os.WriteFile(hook, []byte("#!/bin/sh\necho broken >&2\nexit 1\n"), 0o755)
		os.Remove(made)
		got, r := run(t, bash("touch "+made+" && echo touched"))
		if !strings.Contains(got, "touched") {
			t.Errorf("tool result:\n%s", got)
		}
		if !strings.Contains(r.stderr, "agentjail's hook exited 1: broken") || !strings.Contains(r.stderr, "allowed unchecked") {
			t.Errorf("pi's stderr does not warn:\n%s", r.stderr)
		}
	})

	t.Run("a hook that hangs is cut off and, with fail_mode: closed, blocks", func(t *testing.T) {
		os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte("fail_mode: closed\napproval_timeout: 5s\n"), 0o600)
		if r := ajRun(t, e, "install", "--for", "pi"); r.code != 0 {
			t.Fatalf("install: %+v", r)
		}
		ext := read(filepath.Join(extDir, "agentjail.ts"))
		if !strings.Contains(ext, `--fail-closed --hold 5s --agent pi","timeoutMs":12000,"failClosed":true,`) {
			t.Fatalf("the extension does not fail closed:\n%s", ext)
		}
		os.WriteFile(hook, []byte("#!/bin/sh\nexec sleep 60\n"), 0o755)
		os.Remove(made)
		got, _ := run(t, bash("touch "+made))
		if !strings.Contains(got, "did not answer within 12000 ms") || !strings.Contains(got, "fail_mode: closed") {
			t.Errorf("tool result:\n%s", got)
		}
		if _, err := os.Stat(made); err == nil {
			t.Errorf("the call ran")
		}
		writeConfig(t, e, "approval_timeout: 5s\n")
		rec = recordHook(t, e) // install put the real hook back
	})

	t.Run("uninstall leaves pi's folder as it was", func(t *testing.T) {
		if r := ajRun(t, e, "uninstall", "--for", "pi"); r.code != 0 {
			t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		before.same(t)
		if now := dirFiles(extDir); !slices.Equal(now, extBefore) {
			t.Errorf("extensions folder holds %v, want %v", now, extBefore)
		}
		got, _ := run(t, bash(keyRead))
		if !strings.Contains(got, work.key) {
			t.Errorf("after uninstall the key read should run unguarded; tool result:\n%s", got)
		}
		if n := len(rec.calls()); n != 0 {
			t.Errorf("the hook still ran %d times", n)
		}
	})
}

// piHome writes pi's provider (fakeModel's chat completions) and
// settings into e's home, and returns the files it wrote.
func piHome(e *env, api *fakeModel) map[string]string {
	agentDir := filepath.Join(e.home, ".pi", "agent")
	os.MkdirAll(agentDir, 0o700)
	files := map[string]string{
		filepath.Join(agentDir, "models.json"): `{"providers": {"fake": {"baseUrl": "` + api.url + `/v1", "api": "openai-completions", "apiKey": "x",
  "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false}, "models": [{"id": "` + copilotModel + `"}]}}}
`,
		filepath.Join(agentDir, "settings.json"): `{"quietStartup": true}` + "\n",
	}
	for f, s := range files {
		os.WriteFile(f, []byte(s), 0o600)
	}
	return files
}

// Every call real pi made is accounted for: a guarded run, whose session
// file the daemon reads, has every call judged; a call its pre-tool
// handler did not send is reported from the post-tool event; a run
// started with --no-extensions, which loads no extension, is reported
// from its session file.
func TestRealPiUncheckedCalls(t *testing.T) {
	pi := agentCLI(t, "pi")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)
	piHome(e, api)
	installFor(t, e, "pi")
	sessions := filepath.Join(e.home, ".pi", "agent", "sessions")
	// run has the model ask for one bash command and returns the session
	// pi recorded it in ("" with --no-session).
	run := func(t *testing.T, command string, extra ...string) string {
		t.Helper()
		before, _ := filepath.Glob(filepath.Join(sessions, "*", "*.jsonl"))
		api.script(&modelCall{Name: "bash", Args: map[string]any{"command": command}})
		args := append([]string{"-p", "--provider", "fake", "--model", copilotModel}, extra...)
		r := runProcess(t, agentEnv(e), work.dir, pi, append(args, "Do the task."), 120*time.Second)
		if r.code != 0 {
			t.Fatalf("pi: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		after, _ := filepath.Glob(filepath.Join(sessions, "*", "*.jsonl"))
		for _, f := range after {
			if slices.Contains(before, f) {
				continue
			}
			var head struct{ Type, ID string }
			line, _, _ := strings.Cut(read(f), "\n")
			if json.Unmarshal([]byte(line), &head); head.Type != "session" || head.ID == "" {
				t.Fatalf("%s does not start with a session header:\n%s", f, line)
			}
			return head.ID
		}
		return ""
	}

	t.Run("a guarded run has every call judged", func(t *testing.T) {
		session := run(t, "echo pi-guarded")
		if session == "" {
			t.Fatal("pi wrote no session file")
		}
		waitForLong(t, "the session in audit", 30*time.Second, func() bool {
			row := auditOf(t, e, session)
			return row != nil && row["judged"].(float64) >= 1
		})
		time.Sleep(17 * time.Second) // past the grace a recorded call gets
		if row := auditOf(t, e, session); row["seen"].(float64) < 1 || row["seen"] != row["judged"] || row["unchecked"].(float64) != 0 {
			t.Errorf("audit of the guarded session: %v", row)
		}
		for _, r := range uncheckedCalls(t, e) {
			t.Errorf("unchecked: %+v %+v", r, r.Unchecked)
		}
	})

	t.Run("a call the pre-tool handler did not send is reported from the post-tool event", func(t *testing.T) {
		// The extension's tool_call handler runs a command that judges
		// nothing; its tool_result handler still runs the hook. With
		// --no-session pi keeps no record: the post-tool event alone
		// tells of the call.
		ext := filepath.Join(e.home, ".pi", "agent", "extensions", "agentjail.ts")
		src := read(ext)
		defer os.WriteFile(ext, []byte(src), 0o600)
		i := strings.Index(src, `"command":"`)
		j := strings.Index(src, `","timeoutMs"`)
		if i < 0 || j < i {
			t.Fatalf("no command in the extension's settings:\n%s", src)
		}
		os.WriteFile(ext, []byte(src[:i]+`"command":"true`+src[j:]), 0o600)
		run(t, "echo pi-pre-unsent", "--no-session")
		rec := uncheckedWith(t, e, "echo pi-pre-unsent")
		if rec.Agent != "pi" || rec.SessionID == "" || rec.Unchecked == nil || rec.Unchecked.Source != "post-tool event" {
			t.Errorf("unchecked record %+v %+v; want pi's, from the post-tool event", rec, rec.Unchecked)
		}
	})

	t.Run("a run with --no-extensions is reported unchecked from its session file", func(t *testing.T) {
		session := run(t, "echo pi-no-extensions", "--no-extensions")
		rec := uncheckedWith(t, e, "echo pi-no-extensions")
		if rec.Agent != "pi" || rec.SessionID != session || rec.Unchecked == nil || rec.Unchecked.Source != "the agent's record" || !strings.Contains(rec.Unchecked.Cause, "hooks did not run") {
			t.Errorf("unchecked record %+v %+v; want session %s, from pi's record, hooks off", rec, rec.Unchecked, session)
		}
	})
}
