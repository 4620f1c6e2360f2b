package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// codex drives the real Codex CLI (0.169.0) as the agent's user against
// the fake model API (`codex exec`, as TestRealCodex runs it): the hook
// in /etc/codex/requirements.toml, which Codex reads as managed (no
// trust review), blocks a key read with our reason and lets a harmless
// command run. The user's switches for every hook, [features] hooks =
// false in ~/.codex/config.toml, `-c features.hooks=false`, `--disable
// hooks`, `--ignore-user-config` and a fresh CODEX_HOME, all lose to the
// feature pin install writes beside the hook. The model provider comes
// on the command line, so the fresh CODEX_HOME holds nothing at all.
// Without the pin the same switches do turn the managed hook off; the
// test shows that too, so it fails the day Codex changes either way.
// Codex fails open (a hook that fails or times out lets the tool run),
// so with the daemon stopped the hook's own deny is what blocks.
func (s *sysEnv) codex(t *testing.T) {
	codexAt := agentCLI(t, "codex")
	tools, _ := filepath.Abs("../.tools")
	if rest, ok := strings.CutPrefix(codexAt, tools); ok {
		codexAt = toolsMount + rest
	}
	api := startFakeModel(t)
	work := filepath.Join(s.home, "xwork")
	fresh := filepath.Join(s.home, "xfresh")
	s.asAgentOK(t, "mkdir", "-p", work, filepath.Join(s.home, ".codex"), fresh, filepath.Join(s.home, "xtmp"))
	s.asAgentOK(t, "sh", "-c", "echo hello > xwork/README.md")
	provider := `model_providers.fake={name="fake model API", base_url="` + api.url + `/v1", wire_api="responses", env_key="FAKE_MODEL_KEY"}`
	run := func(command string, flags []string, extra ...string) string {
		t.Helper()
		api.script(&modelCall{Name: "exec_command", Args: map[string]any{"cmd": command}})
		env := append([]string{"FAKE_MODEL_KEY=x", "TMPDIR=" + filepath.Join(s.home, "xtmp"), "CODEX_HOME=" + filepath.Join(s.home, ".codex")}, extra...)
		args := append([]string{"exec", "--skip-git-repo-check", "-s", "danger-full-access",
			"-c", `model="gpt-5.1-codex"`, "-c", `model_provider="fake"`, "-c", provider}, flags...)
		quoted := []string{codexAt}
		for _, a := range append(args, "Do the task.") {
			quoted = append(quoted, "'"+a+"'")
		}
		// stdin closed: Codex reads a prompt from a piped stdin.
		r := s.asAgentEnv(nil, env, "sh", "-c", "cd xwork && exec "+strings.Join(quoted, " ")+" </dev/null")
		res := api.received()
		if len(res) != 1 {
			t.Fatalf("the model got %d tool results back, want 1: %q\nrequests:\n%s\ncodex (exit %d) said:\n%s\n%s", len(res), res, api.seen(), r.code, r.stdout, r.stderr)
		}
		return res[0]
	}
	const readKey = "cat ~/.aws/credentials"
	const ourReason = "holds private keys, credentials or tokens"
	blocked := func(what, got string) {
		t.Helper()
		if !strings.HasPrefix(got, "Command blocked by PreToolUse hook: ") || !strings.Contains(got, ourReason) || strings.Contains(got, "aws_secret_access_key") {
			t.Errorf("%s: the key read was not blocked by agentjail; tool result:\n%s", what, got)
		}
	}

	blocked("managed hook", run(readKey, nil))
	if got := run("cat README.md", nil); !strings.Contains(got, "hello") {
		t.Errorf("a harmless command did not run; tool result:\n%s", got)
	}

	// The user's own switches: the feature pin holds against them all.
	s.asAgentOK(t, "sh", "-c", "printf '[features]\\nhooks = false\\n' > ~/.codex/config.toml")
	blocked("[features] hooks = false in ~/.codex/config.toml", run(readKey, nil))
	blocked("-c features.hooks=false", run(readKey, []string{"-c", "features.hooks=false"}))
	blocked("--disable hooks", run(readKey, []string{"--disable", "hooks"}))
	blocked("--ignore-user-config", run(readKey, []string{"--ignore-user-config"}))
	blocked("CODEX_HOME moved to a fresh folder", run(readKey, nil, "CODEX_HOME="+fresh))

	// Codex runs the tool when a hook fails or times out, so the hook
	// denies by itself when the daemon cannot answer.
	pid := s.daemonPID()
	got := func() string {
		mustDo(t, syscall.Kill(pid, syscall.SIGSTOP))
		defer syscall.Kill(pid, syscall.SIGCONT)
		return run("cat README.md", nil)
	}()
	if !strings.HasPrefix(got, "Command blocked by PreToolUse hook: ") || strings.Contains(got, "hello") {
		t.Errorf("with the daemon stopped a command ran; tool result:\n%s", got)
	}

	// The control: without the pin the user's switches turn the managed
	// hook off, so the pin is what holds, and the switches above are real.
	const req = "/etc/codex/requirements.toml"
	pinned, err := os.ReadFile(req)
	mustDo(t, err)
	unpinned := bytes.Replace(pinned, []byte("[features]\nhooks = true\n"), nil, 1)
	if bytes.Equal(unpinned, pinned) {
		t.Fatalf("install wrote no [features] hooks = true pin in %s:\n%s", req, pinned)
	}
	mustDo(t, os.WriteFile(req, unpinned, 0o644))
	defer os.WriteFile(req, pinned, 0o644)
	for _, c := range []struct {
		name  string
		flags []string
	}{
		{"[features] hooks = false in ~/.codex/config.toml", nil},
		{"--disable hooks", []string{"--disable", "hooks", "--ignore-user-config"}},
		{"-c features.hooks=false", []string{"-c", "features.hooks=false", "--ignore-user-config"}},
	} {
		if got := run(readKey, c.flags); !strings.Contains(got, "aws_secret_access_key") {
			t.Errorf("without the pin, %s no longer turns Codex's managed hook off (tool result:\n%s\n); the pin may no longer be needed", c.name, got)
		}
	}
	blocked("no pin, no user switch", run(readKey, []string{"--ignore-user-config"}))
	t.Log("Codex CLI 0.169.0: [features] hooks = false (user config, -c, --disable hooks) turns managed hooks off unless requirements.toml pins [features] hooks = true")
}
