package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Codex keys a hook's trust by its place in hooks.json and skips an
// untrusted hook without a word. With the real Codex CLI: a hook the
// user puts before ours leaves ours untrusted and Codex runs the call
// unchecked; `agentjail status` says so (by Codex's own app server, and
// by reading config.toml when no codex is on PATH) and is degraded;
// `agentjail install` repairs it, and Codex runs our hook again.
func TestRealCodexMovedHook(t *testing.T) {
	codex := agentCLI(t, "codex")
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)

	config, configPath, hooksPath := writeCodexHome(t, e, api, "")
	installFor(t, e, "codex")

	// status with Codex's own app server on PATH, or with no codex at all.
	withCodex := pathWith(filepath.Dir(codex))
	noCodex := pathWithout("codex")
	status := func(t *testing.T, path string) result {
		t.Helper()
		env := append(agentEnv(e), path)
		return runProcess(t, env, e.home, filepath.Join(bin, "agentjail"), []string{"status"}, 60*time.Second)
	}
	run := func(t *testing.T, command string) string {
		t.Helper()
		api.script(&modelCall{Name: "exec_command", Args: map[string]any{"cmd": command}})
		r := runProcess(t, agentEnv(e, "FAKE_MODEL_KEY=x"), work.dir, codex,
			[]string{"exec", "--skip-git-repo-check", "-s", "danger-full-access", "Do the task."}, 90*time.Second)
		if r.code != 0 {
			t.Fatalf("codex exec: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		return oneResult(t, api, r.stdout+r.stderr)
	}

	t.Run("after install status says Codex trusts the hook", func(t *testing.T) {
		r := status(t, withCodex)
		if r.code != 0 || !strings.Contains(r.stdout, "codex hook: trusted (checked with codex app-server, which status starts") {
			t.Errorf("status: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	})

	// The user puts their own hook first: ours moves to the second group.
	hooks, err := os.ReadFile(hooksPath)
	if err != nil {
		t.Fatal(err)
	}
	const at = `"PreToolUse": [`
	if !strings.Contains(string(hooks), at) {
		t.Fatalf("hooks.json is not as install writes it:\n%s", hooks)
	}
	moved := strings.Replace(string(hooks), at, at+"\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"true\", \"timeout\": 7}]},", 1)
	if err := os.WriteFile(hooksPath, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("Codex now skips our hook: the key read runs, and is reported unchecked", func(t *testing.T) {
		if got := run(t, keyRead); !strings.Contains(got, work.key) {
			t.Errorf("with our hook untrusted the key read should run unchecked; tool result:\n%s", got)
		}
		// Codex still ran our post-tool hook, which the moved entry did
		// not untrust: the call that escaped is accounted for at once.
		r := ajRun(t, e, "logs", "--unchecked", "--json", "-n", "0")
		if !strings.Contains(r.stdout, "id_rsa") || !strings.Contains(r.stdout, "post-tool hook but not its pre-tool hook") {
			t.Errorf("logs --unchecked:\n%s%s", r.stdout, r.stderr)
		}
	})

	t.Run("status reports the untrusted hook, by Codex and by config.toml", func(t *testing.T) {
		for _, tc := range []struct{ name, path, method string }{
			{"codex on PATH", withCodex, "checked with codex app-server, which status starts"},
			{"no codex on PATH", noCodex, "checked with config.toml, as no codex program on PATH)"},
		} {
			r := status(t, tc.path)
			out := r.stdout
			if r.code != 4 || !strings.Contains(out, "codex hook: not run by Codex ("+tc.method) ||
				!strings.Contains(out, "health: degraded") || !strings.Contains(out, ":pre_tool_use:1:0") ||
				!strings.Contains(out, "agentjail install --for codex") {
				t.Errorf("%s: status exit %d, want 4 naming the untrusted hook and its fix:\n%s%s", tc.name, r.code, out, r.stderr)
			}
		}
		if r := status(t, withCodex); !strings.Contains(r.stdout, "reports it untrusted") {
			t.Errorf("status does not give Codex's own word:\n%s", r.stdout)
		}
	})

	t.Run("install repairs the trust; status is clean", func(t *testing.T) {
		if r := ajRun(t, e, "install", "--for", "codex"); r.code != 0 {
			t.Fatalf("install: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if got, _ := os.ReadFile(hooksPath); string(got) != moved {
			t.Errorf("install changed the user's hooks.json:\n%s\nwant\n%s", got, moved)
		}
		cfg, _ := os.ReadFile(configPath)
		if !strings.HasPrefix(string(cfg), config) || strings.Contains(string(cfg), ":pre_tool_use:0:0") {
			t.Errorf("config.toml after repair: the user's part changed, or a trust for the user's hook's place is left:\n%s", cfg)
		}
		// Clean but for the call that ran unchecked, which status
		// reports for a day.
		for _, path := range []string{withCodex, noCodex} {
			r := status(t, path)
			if !strings.Contains(r.stdout, "codex hook: trusted") || strings.Count(r.stdout, "\n    fix: ") != 1 || !strings.Contains(r.stdout, "unchecked: 1 call ran unchecked") {
				t.Errorf("status after repair: exit %d, want the one unchecked call as its only problem\n%s%s", r.code, r.stdout, r.stderr)
			}
		}
		for _, h := range codexHooksList(t, e, codex, work.dir) {
			cmd, _ := h["command"].(string)
			ours := strings.Contains(cmd, "agentjail-hook")
			if want := map[bool]string{true: "trusted", false: "untrusted"}[ours]; h["trustStatus"] != want {
				t.Errorf("Codex says %q is %v, want %s (install must never trust the user's hook)", cmd, h["trustStatus"], want)
			}
		}
	})

	t.Run("Codex runs our hook again: the key read is blocked", func(t *testing.T) {
		got := run(t, keyRead)
		if !strings.HasPrefix(got, "Command blocked by PreToolUse hook: ") || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s", got)
		}
	})

	t.Run("uninstall keeps the user's hook and gives config.toml back", func(t *testing.T) {
		if r := ajRun(t, e, "uninstall", "--for", "codex"); r.code != 0 {
			t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if got, _ := os.ReadFile(configPath); string(got) != config {
			t.Errorf("config.toml after uninstall:\n%s\nwant\n%s", got, config)
		}
		if got, _ := os.ReadFile(hooksPath); !strings.Contains(string(got), `"command": "true"`) || strings.Contains(string(got), "agentjail-hook") {
			t.Errorf("hooks.json after uninstall:\n%s", got)
		}
	})
}

// pathWith is a PATH= entry with dir first.
func pathWith(dir string) string {
	return "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")
}

// pathWithout is a PATH= entry without the folders that hold program.
func pathWithout(program string) string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(d, program)); err == nil && !fi.IsDir() {
			continue
		}
		keep = append(keep, d)
	}
	return "PATH=" + strings.Join(keep, string(os.PathListSeparator))
}
