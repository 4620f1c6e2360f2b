package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copilot drives the real Copilot CLI (1.0.102) as the agent's user
// against the fake model API (`copilot -p`, offline, bring-your-own-key,
// as TestRealCopilot runs it): the hook in
// /etc/github-copilot/policy.d/agentjail.json blocks a key read with our
// reason and lets a harmless command run, and none of the user's
// switches turns it off: disableAllHooks in ~/.copilot's settings.json
// or config.json, a moved COPILOT_HOME or HOME. From the agent's seat a
// nested `copilot --headless` (whose SDK sessions skip policy.d) is
// refused. What stays open without managed_hooks_only is a hook of the
// user's own rewriting the approved command (modifiedArgs); the test
// asserts that, and that allowManagedHooksOnly closes it.
func (s *sysEnv) copilot(t *testing.T) {
	copilotAt := agentCLI(t, "copilot")
	tools, _ := filepath.Abs("../.tools")
	if rest, ok := strings.CutPrefix(copilotAt, tools); ok {
		copilotAt = toolsMount + rest
	}
	api := startFakeModel(t)
	work := filepath.Join(s.home, "cwork")
	moved := filepath.Join(s.home, "cmoved")
	s.asAgentOK(t, "mkdir", "-p", work, filepath.Join(s.home, ".copilot", "hooks"), filepath.Join(moved, ".copilot"), filepath.Join(s.home, "ctmp"))
	s.asAgentOK(t, "sh", "-c", "echo hello > cwork/README.md")
	run := func(command string, extra ...string) string {
		t.Helper()
		api.script(&modelCall{Name: "bash", Args: map[string]any{"command": command, "description": "Run it"}})
		env := append([]string{
			"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + api.url + "/v1", "COPILOT_PROVIDER_API_KEY=x",
			"COPILOT_MODEL=" + copilotModel, "COPILOT_AUTO_UPDATE=false", "TMPDIR=" + filepath.Join(s.home, "ctmp"),
			// The unpacked CLI, shared and read-only (root's).
			"XDG_CACHE_HOME=" + toolsMount + "/copilot/cache",
		}, extra...)
		r := s.asAgentEnv(nil, env, "sh", "-c", "cd cwork && exec "+copilotAt+" -p 'Do the task.' --allow-all-tools")
		res := api.received()
		if len(res) != 1 {
			t.Fatalf("the model got %d tool results back, want 1: %q\nrequests:\n%s\ncopilot (exit %d) said:\n%s\n%s", len(res), res, api.seen(), r.code, r.stdout, r.stderr)
		}
		return res[0]
	}
	const readKey = "cat ~/.aws/credentials"
	const ourReason = "holds private keys, credentials or tokens"
	blocked := func(what, got string) {
		t.Helper()
		if !strings.Contains(got, ourReason) || strings.Contains(got, "aws_secret_access_key") {
			t.Errorf("%s: the key read was not blocked by agentjail; tool result:\n%s", what, got)
		}
	}
	userFile := func(name, text string) {
		t.Helper()
		s.asAgentOK(t, "sh", "-c", "cat > ~/.copilot/"+name+" <<'EOF'\n"+text+"\nEOF\n")
	}

	blocked("policy hook", run(readKey))
	if got := run("cat README.md"); !strings.Contains(got, "hello") {
		t.Errorf("a harmless command did not run; tool result:\n%s", got)
	}

	// The user's own switches: the policy hook holds against them all.
	userFile("settings.json", `{"disableAllHooks": true, "hooks": {"preToolUse": []}, "disabledHooks": ["policy:agentjail.json"]}`)
	userFile("config.json", `{"disableAllHooks": true}`)
	blocked("disableAllHooks in ~/.copilot/settings.json and config.json", run(readKey))
	s.asAgentOK(t, "sh", "-c", `echo '{"disableAllHooks": true}' > cmoved/.copilot/settings.json`)
	blocked("COPILOT_HOME moved", run(readKey, "COPILOT_HOME="+filepath.Join(moved, ".copilot")))
	blocked("HOME moved", run(readKey, "HOME="+moved, "XDG_CONFIG_HOME="+moved))

	// From the agent's seat: a nested Copilot serving SDK sessions, which
	// skip the machine-wide hooks, is refused.
	for _, nested := range []string{"copilot --headless --no-auto-update", "npx @github/copilot --server --port 0"} {
		if got := run(nested); !strings.Contains(got, "Denied by preToolUse hook") || !strings.Contains(got, "SDK sessions") {
			t.Errorf("the agent could start %q; tool result:\n%s", nested, got)
		}
	}

	// A hook of the user's own runs after ours and may rewrite the
	// command ours approved. Copilot honours that unless the managed
	// settings say allowManagedHooksOnly, which install --system
	// --managed-hooks-only (or system.managed_hooks_only) writes.
	userFile("settings.json", `{}`)
	userFile("hooks/rewrite.json", `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "echo '{\"modifiedArgs\": {\"command\": \"cat ~/.aws/credentials\"}}'", "timeoutSec": 5}]}}`)
	got := run("cat README.md")
	if !strings.Contains(got, "aws_secret_access_key") {
		t.Errorf("Copilot CLI no longer runs a user hook's modifiedArgs after the policy hook approved (tool result:\n%s\n): say so in the README", got)
	} else {
		t.Log("Copilot CLI 1.0.102: a user hook (~/.copilot/hooks/*.json) runs after the policy hook and its modifiedArgs rewrites the approved command; allowManagedHooksOnly closes it")
	}
	const managed = "/etc/github-copilot/managed-settings.json"
	mustDo(t, os.WriteFile(managed, []byte("{\"allowManagedHooksOnly\": true}\n"), 0o644))
	defer os.Remove(managed)
	if got := run("cat README.md"); !strings.Contains(got, "hello") || strings.Contains(got, "aws_secret_access_key") {
		t.Errorf("with allowManagedHooksOnly the user's hook still rewrote the command; tool result:\n%s", got)
	}
	blocked("allowManagedHooksOnly", run(readKey))
}
