package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Copilot CLI (npm @github/copilot 1.0.102) as measured here, headless
// (`copilot -p`), offline, with a bring-your-own-key provider pointed at
// fakeModel's chat completions:
//
//   - The hook (from ~/.copilot/hooks/*.json, {"version":1,"hooks":
//     {"preToolUse":[{"type":"command","bash":...,"timeoutSec":...}]}})
//     gets {"sessionId","timestamp","cwd","toolName":"bash","toolArgs":
//     {"command":...,"description":...}}: toolArgs arrives as a JSON
//     object, not as a JSON string.
//   - The model reads "Denied by preToolUse hook: <reason>" after
//     {"permissionDecision":"deny","permissionDecisionReason":...} (an
//     empty reason still denies, with nothing after the colon); exit 2
//     alone gives "Denied by preToolUse hook: hook exited with code 2".
//     Claude Code's hookSpecificOutput is ignored and the tool runs.
//   - "ask" headless: "Denied by preToolUse hook (unable to ask user for
//     confirmation): <reason>".
//   - A JSON "allow" widens Copilot's own permissions: without
//     --allow-all-tools a `touch` that Copilot itself refuses headless
//     ("Permission denied because no interactive user response was
//     available...") runs when the hook answers allow.
//   - Exit 1 blocks ("hook errored"); a hook past timeoutSec lets the
//     tool run.
//   - Claude-format hooks: with this version, offline and headless,
//     neither ~/.claude/settings.json nor a repository's
//     .claude/settings.json (nor .github/hooks/*.json, even with the
//     folder in trustedFolders) ran a hook, so no call reached the hook
//     twice here.
//   - Each new HOME unpacks the CLI into $XDG_CACHE_HOME/copilot/pkg
//     (about 235 MB, seconds): the tests share one cache in .tools/.
func TestRealCopilot(t *testing.T) {
	copilot := agentCLI(t, "copilot")
	cache, err := filepath.Abs(filepath.Join("..", ".tools", "copilot", "cache"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)

	// A hooks file of the user's own beside the one the installer adds;
	// uninstall must leave the folder as it was.
	hooksDir := filepath.Join(e.home, ".copilot", "hooks")
	os.MkdirAll(hooksDir, 0o700)
	if err := os.WriteFile(filepath.Join(hooksDir, "mine.json"), []byte("{\"version\": 1, \"hooks\": {}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	filesBefore := dirFiles(hooksDir)
	before := takeSnapshot(filesBefore...)

	writeConfig(t, e, "approval_timeout: 30s\n")
	installFor(t, e, "copilot")
	rec := recordHook(t, e)

	run := func(t *testing.T, command string, args ...string) string {
		t.Helper()
		rec.reset()
		api.script(&modelCall{Name: "bash", Args: map[string]any{"command": command, "description": "Run it"}})
		r := runProcess(t, agentEnv(e,
			"COPILOT_OFFLINE=true",
			"COPILOT_PROVIDER_BASE_URL="+api.url+"/v1",
			"COPILOT_PROVIDER_API_KEY=x",
			"COPILOT_MODEL="+copilotModel,
			"COPILOT_AUTO_UPDATE=false",
			"XDG_CACHE_HOME="+cache,
		), work.dir, copilot, append([]string{"-p", "Do the task."}, args...), 120*time.Second)
		out := r.stdout + r.stderr
		if r.code != 0 {
			t.Fatalf("copilot: exit %d\n%s", r.code, out)
		}
		return oneResult(t, api, out)
	}

	t.Run("an allowed command runs confined, with no flag of Copilot's", func(t *testing.T) {
		// No --allow-all-tools: the hook's allow stands in for Copilot's
		// own prompt, which would judge the rewritten command.
		ranJailed(t, work, run(t, jailedKeyRead))
	})

	t.Run("a key read is blocked and the model gets our reason", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, keyRead)
		got := run(t, keyRead, "--allow-all-tools")
		if !strings.Contains(got, reason) || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s\nwant our reason verbatim:\n%s", got, reason)
		}
		c := rec.one(t)
		ev := c.event(t)
		if ev["toolName"] != "bash" {
			t.Errorf("toolName %v, want bash:\n%s", ev["toolName"], c.Stdin)
		}
		var args map[string]any
		switch a := ev["toolArgs"].(type) {
		case map[string]any:
			args = a
		case string:
			t.Logf("toolArgs came as a JSON string, as the issue's table says (it came as an object in 1.0.102)")
			json.Unmarshal([]byte(a), &args)
		}
		if args["command"] != keyRead {
			t.Errorf("toolArgs %v, want command %q", ev["toolArgs"], keyRead)
		}
		loggedOnce(t, e, "copilot", ".ssh/id_rsa", "deny")
		if !strings.Contains(c.Args, "--agent copilot") {
			t.Errorf("the hook runs as %q, want --agent copilot", c.Args)
		}
	})

	t.Run("a harmless command runs, rewritten to run jailed", func(t *testing.T) {
		got := run(t, harmless, "--allow-all-tools")
		if !strings.Contains(got, harmlessW) {
			t.Errorf("tool result:\n%s", got)
		}
		c := rec.one(t)
		if c.Code != 0 || !jailedRewrite(c.Stdout, harmless) {
			t.Errorf("hook answered exit %d, stdout %q, stderr %q; want exit 0 and the command rewritten to run jailed", c.Code, c.Stdout, c.Stderr)
		}
	})

	t.Run("a confined call stands in for Copilot's own prompt", func(t *testing.T) {
		// Without --allow-all-tools Copilot itself refuses a write when no
		// one is there to approve it (measured). Its check would judge the
		// rewritten command, which it always asks about, so a confined
		// call is answered allow: the touch runs, in the jail.
		made := filepath.Join(work.dir, "made-by-tool")
		got := run(t, "touch "+made)
		if _, err := os.Stat(made); err != nil {
			t.Errorf("the confined touch did not run; tool result:\n%s", got)
		}
		if c := rec.one(t); c.Code != 0 || !jailedRewrite(c.Stdout, "touch "+made) {
			t.Errorf("hook answered exit %d, stdout %q", c.Code, c.Stdout)
		}
	})

	// Headless (-p), Copilot CLI cannot ask: agentjail sees its switch on
	// the agent's process and holds the call for a person.
	t.Run("headless, an ask-class command runs once a person approves it", func(t *testing.T) {
		head := work.head(t, e)
		answer := answerFromTerminal(t, e, "approve")
		got := run(t, askClass, "--allow-all-tools")
		a := answeredBy(t, answer)
		if a.call.agent != "copilot" || work.head(t, e) == head || strings.Contains(got, a.call.code) {
			t.Errorf("agentjail pending showed:\n%s\ntool result:\n%s", a.call.listing, got)
		}
		loggedApproval(t, e, a.call.id, "allow", "person", "terminal")
		if c := rec.one(t); !jailedRewrite(c.Stdout, askClass) || c.Code != 0 {
			t.Errorf("hook answered exit %d, stdout %q; want the approved command rewritten to run jailed", c.Code, c.Stdout)
		}
	})

	t.Run("headless, an ask-class command nobody approves is not run and the model gets our reason", func(t *testing.T) {
		writeConfig(t, e, "approval_timeout: 5s\n")
		defer writeConfig(t, e, "approval_timeout: 30s\n")
		reason := tryReason(t, e, work.dir, askClass)
		head := work.head(t, e)
		got := run(t, askClass, "--allow-all-tools")
		if !strings.Contains(got, reasonCore(reason)) || !strings.HasPrefix(got, "Denied") || !strings.Contains(got, "nobody answered") {
			t.Errorf("tool result:\n%s\nwant a denial with our reason (%s) and that nobody answered", got, reason)
		}
		if now := work.head(t, e); now != head {
			t.Errorf("the reset ran: HEAD moved from %s to %s", head, now)
		}
	})

	t.Run("uninstall leaves the hooks folder as it was", func(t *testing.T) {
		if r := ajRun(t, e, "uninstall", "--for", "copilot"); r.code != 0 {
			t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		before.same(t)
		if now := dirFiles(hooksDir); !slices.Equal(now, filesBefore) {
			t.Errorf("hooks folder holds %v, want %v", now, filesBefore)
		}
		got := run(t, keyRead, "--allow-all-tools")
		if !strings.Contains(got, work.key) {
			t.Errorf("after uninstall the key read should run unguarded; tool result:\n%s", got)
		}
		if n := len(rec.calls()); n != 0 {
			t.Errorf("the hook still ran %d times", n)
		}
	})
}
