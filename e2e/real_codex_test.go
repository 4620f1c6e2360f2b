package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Codex CLI (npm @openai/codex 0.169.0) as measured here, headless
// (`codex exec`) against fakeModel's Responses API:
//
//   - It offers the model a shell tool named exec_command ({"cmd": ...});
//     the hook gets it as PreToolUse, tool_name "Bash",
//     tool_input {"command": ...} (tool_use_id is the model's call_id,
//     permission_mode "bypassPermissions" under -s danger-full-access).
//     With a model it has no metadata for it offers no apply_patch tool
//     (a call to it is "unsupported call: apply_patch"), but an
//     `apply_patch <<'EOF' ... EOF` sent to exec_command is applied by
//     Codex itself, no shell involved, and reaches the hook as Bash with
//     the whole heredoc as tool_input.command. The apply_patch tool's own
//     shape (the patch in tool_input.command) is not exercised here.
//   - The model reads "Command blocked by PreToolUse hook: <reason>.
//     Command: <the command>" after exit 2 with the reason on stderr, and
//     the same after a JSON deny with a reason; Codex appends the command.
//   - A JSON deny with an empty reason, a JSON allow, a JSON ask, a
//     top-level {"decision":"deny"}, exit 1 and a hook past its timeout
//     are all "hook failed" and the tool runs (Codex fails open).
//   - A hook that is not trusted is skipped without a word; the trust
//     [hooks.state."<hooks.json>:pre_tool_use:<group>:<handler>"]
//     trusted_hash = "sha256:..." that the installer writes is the one
//     `codex app-server` reports as currentHash through hooks/list, and
//     with it the hook runs without --dangerously-bypass-hook-trust.
func TestRealCodex(t *testing.T) {
	codex := agentCLI(t, "codex")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)

	// The user's own Codex configuration, comments and all: the provider
	// is the fake model. Uninstall must give it back byte for byte.
	_, configPath, hooksPath := writeCodexHome(t, e, api, "  # a local model server")
	before := takeSnapshot(configPath, hooksPath)

	writeConfig(t, e, "approval_timeout: 60s\n")
	installFor(t, e, "codex")
	rec := recordHook(t, e)

	run := func(t *testing.T, command string) string {
		t.Helper()
		rec.reset()
		api.script(&modelCall{Name: "exec_command", Args: map[string]any{"cmd": command}})
		// No --dangerously-bypass-hook-trust: the hook runs on the trust
		// the installer wrote, or not at all.
		r := runProcess(t, agentEnv(e, "FAKE_MODEL_KEY=x"), work.dir, codex,
			[]string{"exec", "--skip-git-repo-check", "-s", "danger-full-access", "Do the task."}, 90*time.Second)
		out := r.stdout + r.stderr
		if r.code != 0 {
			t.Fatalf("codex exec: exit %d\n%s", r.code, out)
		}
		return oneResult(t, api, out)
	}

	t.Run("the installer's trust is the hash Codex computes", func(t *testing.T) {
		hooks := codexHooksList(t, e, codex, work.dir)
		var ours []map[string]any
		for _, h := range hooks {
			if cmd, _ := h["command"].(string); strings.Contains(cmd, "agentjail-hook") {
				ours = append(ours, h)
			}
		}
		// The PreToolUse hook and its PostToolUse twin (--post), each
		// trusted at its own key.
		if len(ours) != 2 {
			t.Fatalf("hooks/list shows %d agentjail hooks, want 2: %v", len(ours), hooks)
		}
		post := 0
		for _, h := range ours {
			if cmd, _ := h["command"].(string); strings.HasSuffix(cmd, " --post") {
				post++
			}
			if h["trustStatus"] != "trusted" {
				cfg, _ := os.ReadFile(configPath)
				t.Fatalf("Codex says our hook %v is %v (key %v, current hash %v); config.toml:\n%s", h["command"], h["trustStatus"], h["key"], h["currentHash"], cfg)
			}
		}
		if post != 1 {
			t.Errorf("want one --post hook among ours: %v", ours)
		}
	})

	t.Run("a key read is blocked and the model gets our reason", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, keyRead)
		got := run(t, keyRead)
		if !strings.Contains(got, reason) || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s\nwant our reason verbatim:\n%s", got, reason)
		}
		if !strings.HasPrefix(got, "Command blocked by PreToolUse hook: ") {
			t.Errorf("Codex no longer words a blocked call as measured: %q", got)
		}
		c := rec.one(t)
		ev := c.event(t)
		if ev["hook_event_name"] != "PreToolUse" || ev["tool_name"] != "Bash" {
			t.Errorf("event %v/%v, want PreToolUse/Bash:\n%s", ev["hook_event_name"], ev["tool_name"], c.Stdin)
		}
		if in, _ := ev["tool_input"].(map[string]any); in["command"] != keyRead {
			t.Errorf("tool_input %v, want command %q", ev["tool_input"], keyRead)
		}
		loggedOnce(t, e, "codex", ".ssh/id_rsa", "deny")
		if !strings.Contains(c.Args, "--agent codex") {
			t.Errorf("the hook runs as %q, want --agent codex", c.Args)
		}
		if c.Code != 2 || !strings.Contains(c.Stderr, reason) {
			t.Errorf("hook answered exit %d, stdout %q, stderr %q", c.Code, c.Stdout, c.Stderr)
		}
	})

	t.Run("a harmless command runs, rewritten to run jailed", func(t *testing.T) {
		got := run(t, harmless)
		if !strings.Contains(got, harmlessW) {
			t.Errorf("tool result:\n%s", got)
		}
		// The one JSON allow Codex takes: one that carries the command
		// rewritten to run in the jail (Codex's own sandbox and
		// approvals still judge it).
		c := rec.one(t)
		if c.Code != 0 || !jailedRewrite(c.Stdout, harmless) {
			t.Errorf("hook answered exit %d, stdout %q, stderr %q; want exit 0 and the command rewritten to run jailed", c.Code, c.Stdout, c.Stderr)
		}
	})

	t.Run("an allowed command runs confined", func(t *testing.T) {
		ranJailed(t, work, run(t, jailedKeyRead))
	})

	// Codex applies `apply_patch <<'EOF' ... EOF` itself, without a shell,
	// when the model sends it to exec_command; the hook sees it as Bash.
	// The patch's files are what it writes, wherever they point.
	patch := func(file, line string) string {
		return "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: " + file + "\n+" + line + "\n*** End Patch\nEOF"
	}
	t.Run("a patch through the shell tool is judged on the files it writes", func(t *testing.T) {
		keys := filepath.Join(e.home, ".ssh", "authorized_keys")
		got := run(t, patch("../.ssh/authorized_keys", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeFakeFake attacker"))
		if !strings.Contains(got, "Command blocked by PreToolUse hook: ") || !strings.Contains(got, "authorized_keys") {
			t.Errorf("tool result:\n%s", got)
		}
		if _, err := os.Stat(keys); err == nil {
			t.Errorf("the patch wrote %s", keys)
		}
		if ev := rec.one(t).event(t); ev["tool_name"] != "Bash" {
			t.Errorf("tool_name %v: Codex no longer sends a shell apply_patch as Bash", ev["tool_name"])
		}
	})
	t.Run("a patch adding a file in the project runs", func(t *testing.T) {
		got := run(t, patch("notes.txt", "hello"))
		if b, err := os.ReadFile(filepath.Join(work.dir, "notes.txt")); err != nil || string(b) != "hello\n" {
			t.Errorf("notes.txt: %q, %v; tool result:\n%s", b, err, got)
		}
		// A patch is Codex's to apply: never rewritten.
		if c := rec.one(t); c.Code != 0 || c.Stdout != "" {
			t.Errorf("hook answered exit %d, stdout %q", c.Code, c.Stdout)
		}
	})

	// An ask-class command waits for a person: Codex cannot ask.
	t.Run("an ask-class command waits and runs once a person approves it in a terminal", func(t *testing.T) {
		head := work.head(t, e)
		answer := answerFromTerminal(t, e, "approve")
		got := run(t, askClass)
		a := answeredBy(t, answer)
		if a.call.agent != "codex" || !strings.Contains(a.call.listing, askClass) || !strings.Contains(a.call.listing, "git.discard_work") {
			t.Errorf("agentjail pending showed:\n%s", a.call.listing)
		}
		if now := work.head(t, e); now == head {
			t.Errorf("the approved reset did not run; tool result:\n%s", got)
		}
		if strings.Contains(got, a.call.code) {
			t.Errorf("the model saw the one-time code:\n%s", got)
		}
		if c := rec.one(t); c.Code != 0 || !jailedRewrite(c.Stdout, askClass) || !strings.Contains(c.Args, "--hold") {
			t.Errorf("hook %q answered exit %d, stdout %q; want the approved command rewritten to run jailed", c.Args, c.Code, c.Stdout)
		}
		loggedApproval(t, e, a.call.id, "allow", "person", "terminal")
	})

	t.Run("an ask-class command a person denies is not run and the model hears why", func(t *testing.T) {
		head := work.head(t, e)
		answer := answerFromTerminal(t, e, "deny")
		got := run(t, askClass)
		a := answeredBy(t, answer)
		if !strings.Contains(got, "A person denied this call") || strings.Contains(got, a.call.code) {
			t.Errorf("tool result:\n%s", got)
		}
		if now := work.head(t, e); now != head {
			t.Errorf("the denied reset ran: HEAD moved from %s to %s", head, now)
		}
		loggedApproval(t, e, a.call.id, "deny", "person", "terminal")
	})

	t.Run("an ask-class command nobody answers is denied with how to approve", func(t *testing.T) {
		writeConfig(t, e, "approval_timeout: 5s\n")
		defer writeConfig(t, e, "approval_timeout: 60s\n")
		head := work.head(t, e)
		reason := tryReason(t, e, work.dir, askClass)
		got := run(t, askClass)
		if !strings.Contains(got, reasonCore(reason)) || !strings.Contains(got, "nobody answered within 5s") || !strings.Contains(got, "agentjail approve") {
			t.Errorf("tool result:\n%s\nwant our reason (%s), that nobody answered and how to approve", got, reason)
		}
		if now := work.head(t, e); now != head {
			t.Errorf("the reset ran: HEAD moved from %s to %s", head, now)
		}
	})

	t.Run("the agent cannot approve its own call", func(t *testing.T) {
		got := run(t, "agentjail approve 0a1b2c3d --code 123456")
		if !strings.Contains(got, "Command blocked by PreToolUse hook") || !strings.Contains(got, "only a person") {
			t.Errorf("tool result:\n%s", got)
		}
	})

	t.Run("uninstall gives the configuration back byte for byte", func(t *testing.T) {
		if r := ajRun(t, e, "uninstall", "--for", "codex"); r.code != 0 {
			t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		before.same(t)
		got := run(t, keyRead)
		if !strings.Contains(got, work.key) {
			t.Errorf("after uninstall the key read should run unguarded; tool result:\n%s", got)
		}
		if n := len(rec.calls()); n != 0 {
			t.Errorf("the hook still ran %d times", n)
		}
	})
}

// codexHooksList asks Codex's own app server (JSON-RPC over stdio) which
// hooks apply in dir, with each hook's key, current hash and trust.
func codexHooksList(t *testing.T, e *env, codex, dir string) []map[string]any {
	t.Helper()
	msgs := []map[string]any{
		{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"clientInfo": map[string]any{"name": "agentjail-e2e", "title": nil, "version": "1"}, "capabilities": nil}},
		{"jsonrpc": "2.0", "method": "initialized"},
		{"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": map[string]any{"cwds": []string{dir}}},
	}
	resp := jsonRPC(t, agentEnv(e, "FAKE_MODEL_KEY=x"), dir, codex, []string{"app-server"}, msgs, 2)
	var out []map[string]any
	data, _ := resp["data"].([]any)
	for _, d := range data {
		entry, _ := d.(map[string]any)
		hooks, _ := entry["hooks"].([]any)
		for _, h := range hooks {
			if m, ok := h.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

// writeCodexHome writes a user's own Codex config.toml, a comment
// included, whose model provider is the fake model API; comment ends the
// provider line (uninstall must keep it byte for byte). It returns the
// text and the paths of config.toml and hooks.json.
func writeCodexHome(t *testing.T, e *env, api *fakeModel, comment string) (config, configPath, hooksPath string) {
	t.Helper()
	codexHome := filepath.Join(e.home, ".codex")
	os.MkdirAll(codexHome, 0o700)
	config = "# my Codex settings\nmodel = \"gpt-5.1-codex\"\nmodel_provider = \"fake\"" + comment + "\n\n" +
		"[model_providers.fake]\nname = \"fake model API\"\nbase_url = \"" + api.url + "/v1\"\nwire_api = \"responses\"\nenv_key = \"FAKE_MODEL_KEY\"\n"
	configPath, hooksPath = filepath.Join(codexHome, "config.toml"), filepath.Join(codexHome, "hooks.json")
	if err := os.WriteFile(configPath, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return config, configPath, hooksPath
}
