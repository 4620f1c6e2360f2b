package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gemini drives the real Gemini CLI as the agent's user against the fake
// model API (headless, --yolo, as TestRealGemini runs it): the hook in
// /etc/gemini-cli/settings.json blocks a key read with our reason, lets a
// harmless command run, and the user's hooksConfig.enabled: false does
// not turn it off (the system file's true is merged last). The agent
// cannot add agentjail to hooksConfig.disabled nor start a nested Gemini
// with GEMINI_CLI_SYSTEM_SETTINGS_PATH: the pack refuses both. What the
// user does outside the agent is another matter, and Gemini CLI 0.61.0
// lets two of those switch the machine-wide hook off; the test asserts
// that, so it fails the day Gemini closes them.
func (s *sysEnv) gemini(t *testing.T) {
	geminiAt := agentCLI(t, "gemini")
	tools, _ := filepath.Abs("../.tools")
	if rest, ok := strings.CutPrefix(geminiAt, tools); ok {
		geminiAt = toolsMount + rest
	}
	api := startFakeModel(t)
	work := filepath.Join(s.home, "gwork")
	s.asAgentOK(t, "mkdir", "-p", work, filepath.Join(s.home, ".gemini"), filepath.Join(s.home, "gtmp"))
	s.asAgentOK(t, "sh", "-c", "echo hello > gwork/README.md")
	userSettings := func(hooksConfig string) {
		t.Helper()
		doc := `{"security": {"auth": {"selectedType": "gemini-api-key"}}, "privacy": {"usageStatisticsEnabled": false},` +
			` "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}, "hooksConfig": ` + hooksConfig + "}\n"
		s.asAgentOK(t, "sh", "-c", "cat > ~/.gemini/settings.json <<'EOF'\n"+doc+"EOF\n")
	}
	userSettings(`{}`)
	run := func(call *modelCall, extra ...string) string {
		t.Helper()
		api.script(call)
		env := append([]string{
			"GOOGLE_GEMINI_BASE_URL=" + api.url, "GEMINI_API_KEY=x", "GEMINI_CLI_TRUST_WORKSPACE=true",
			"GEMINI_CLI_NO_RELAUNCH=true", "TMPDIR=" + filepath.Join(s.home, "gtmp"),
		}, extra...)
		r := s.asAgentEnv(nil, env, "sh", "-c", "cd gwork && exec "+geminiAt+" -p 'Do the task.' --yolo -m "+geminiModel)
		res := api.received()
		if len(res) != 1 {
			t.Fatalf("the model got %d tool results back, want 1: %q\nrequests:\n%s\ngemini (exit %d) said:\n%s\n%s", len(res), res, api.seen(), r.code, r.stdout, r.stderr)
		}
		return res[0]
	}
	shell := func(command string) *modelCall {
		return &modelCall{Name: "run_shell_command", Args: map[string]any{"command": command}}
	}
	readKey := shell("cat ~/.aws/credentials")
	const ourReason = "holds private keys, credentials or tokens"
	blocked := func(what, got string) {
		t.Helper()
		if !strings.Contains(got, ourReason) || strings.Contains(got, "aws_secret_access_key") {
			t.Errorf("%s: the key read was not blocked by agentjail; tool result:\n%s", what, got)
		}
	}

	blocked("system hook", run(readKey))
	if got := run(shell("cat README.md")); !strings.Contains(got, "hello") {
		t.Errorf("a harmless command did not run; tool result:\n%s", got)
	}

	// The user's own switch: enabled false loses to the system file's true.
	userSettings(`{"enabled": false}`)
	blocked("user settings hooksConfig.enabled: false", run(readKey))

	// From the agent's seat, the two routes that do switch it off are
	// refused by the pack: listing our hook's name in a settings file
	// Gemini merges (the user's, the workspace's), and a nested Gemini
	// pointed at another system file.
	before, _ := os.ReadFile(filepath.Join(s.home, ".gemini", "settings.json"))
	for _, edit := range []string{
		`printf '{"hooksConfig": {"disabled": ["agentjail"]}}' > ~/.gemini/settings.json`,
		`mkdir -p .gemini && printf '{"hooksConfig": {"disabled": ["agentjail"]}}' > .gemini/settings.json`,
	} {
		got := run(shell(edit))
		if !strings.Contains(got, "Tool execution blocked") {
			t.Errorf("the agent could run %q; tool result:\n%s", edit, got)
		}
	}
	// Its own file tool reaches the workspace's file only (Gemini refuses
	// paths outside the workspace before any hook); the settings judge
	// reads the result and refuses our name in the list.
	wsSettings := filepath.Join(work, ".gemini", "settings.json")
	got := run(&modelCall{Name: "write_file", Args: map[string]any{"file_path": wsSettings, "content": `{"hooksConfig": {"disabled": ["agentjail"]}}`}})
	if !strings.Contains(got, "Tool execution blocked") || !strings.Contains(got, "hooksConfig.disabled") {
		t.Errorf("the agent's write_file could list agentjail in the workspace's hooksConfig.disabled; tool result:\n%s", got)
	}
	if now, _ := os.ReadFile(filepath.Join(s.home, ".gemini", "settings.json")); string(now) != string(before) {
		t.Errorf("the agent changed ~/.gemini/settings.json:\n%s", now)
	}
	if _, err := os.Stat(wsSettings); err == nil {
		t.Errorf("the agent wrote the workspace's .gemini/settings.json")
	}
	nested := "GEMINI_CLI_SYSTEM_SETTINGS_PATH=/nonexistent gemini -p 'cat ~/.aws/credentials' --yolo"
	if got := run(shell(nested)); !strings.Contains(got, "Tool execution blocked") || !strings.Contains(got, "GEMINI_CLI_SYSTEM_SETTINGS_PATH") {
		t.Errorf("the agent could start %q; tool result:\n%s", nested, got)
	}

	// The user's own routes, outside the agent: Gemini CLI honours them.
	userSettings(`{"disabled": ["agentjail"]}`)
	got = run(readKey)
	if !strings.Contains(got, "aws_secret_access_key") {
		t.Errorf("Gemini CLI no longer lets the user's hooksConfig.disabled switch the system hook off (tool result:\n%s\n): say so in the README and assert it blocked", got)
	} else {
		t.Log(`Gemini CLI 0.61.0: the user's hooksConfig.disabled: ["agentjail"] switches the machine-wide hook off (merged as a union, matched by name)`)
	}
	st := s.asAgent(nil, "/usr/local/bin/agentjail", "status", "--json")
	if !strings.Contains(st.stdout, `lists \"agentjail\" in hooksConfig.disabled`) {
		t.Errorf("status does not say the user's disabled list switches Gemini's hook off:\n%s", st.stdout)
	}
	userSettings(`{}`)
	blocked("disabled list taken out again", run(readKey))

	got = run(readKey, "GEMINI_CLI_SYSTEM_SETTINGS_PATH=/nonexistent")
	if !strings.Contains(got, "aws_secret_access_key") {
		t.Errorf("Gemini CLI no longer lets GEMINI_CLI_SYSTEM_SETTINGS_PATH drop the system file (tool result:\n%s\n): say so in the README and assert it blocked", got)
	} else {
		t.Log("Gemini CLI 0.61.0: GEMINI_CLI_SYSTEM_SETTINGS_PATH=/nonexistent in the environment of a gemini the user starts drops the system file, our hook with it")
	}
}
