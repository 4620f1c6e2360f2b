package installer

import (
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A system install writes every agent's machine-wide file with the
// system hook and the agent's fail-closed knob, and with managed-only
// its "managed hooks only" switch, without touching the user's files.
func TestSystemEdits(t *testing.T) {
	sys := setSystemPaths(t)
	for _, managedOnly := range []bool{false, true} {
		o := Options{System: true, FailClosed: true, UserHome: t.TempDir(), ManagedHooksOnly: managedOnly}
		edits, err := planEdits(o)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, e := range edits {
			if !strings.HasPrefix(e.path, sys) {
				t.Errorf("a system install edits %s, outside the machine-wide places", e.path)
			}
			got[filepath.Base(filepath.Dir(e.path))+"/"+filepath.Base(e.path)] = string(e.updated)
		}
		claude := got["managed-settings.d/50-agentjail.json"]
		var doc map[string]any
		if err := json.Unmarshal([]byte(claude), &doc); err != nil {
			t.Fatalf("Claude Code's drop-in: %v\n%s", err, claude)
		}
		if !strings.Contains(claude, `"onFailure": "block"`) || (doc["allowManagedHooksOnly"] == true) != managedOnly {
			t.Errorf("managed-only %v: Claude Code's drop-in:\n%s", managedOnly, claude)
		}
		if codex := got["codex/requirements.toml"]; strings.Contains(codex, "allow_managed_hooks_only = true") != managedOnly || !strings.Contains(codex, "hooks = true") {
			t.Errorf("managed-only %v: Codex's requirements:\n%s", managedOnly, codex)
		}
		if g := got["gemini-cli/settings.json"]; !strings.Contains(g, `"enabled":true`) && !strings.Contains(g, `"enabled": true`) {
			t.Errorf("Gemini's system settings do not enable hooks:\n%s", g)
		}
		if c := got["cursor/hooks.json"]; !strings.Contains(c, `"failClosed": true`) {
			t.Errorf("Cursor's hooks.json does not fail closed:\n%s", c)
		}
		if c, ok := got["github-copilot/managed-settings.json"]; ok != managedOnly || ok && !strings.Contains(c, `"allowManagedHooksOnly": true`) {
			t.Errorf("managed-only %v: Copilot's managed settings (written %v):\n%s", managedOnly, ok, c)
		}
		delete(got, "github-copilot/managed-settings.json") // a setting, no hook
		for name, text := range got {
			if !strings.Contains(text, "agentjail-hook --system") {
				t.Errorf("%s does not run the system hook:\n%s", name, text)
			}
		}
		// Each machine-wide file of an agent with a post-tool event
		// carries its --post entry too.
		for _, name := range []string{"managed-settings.d/50-agentjail.json", "codex/requirements.toml", "gemini-cli/settings.json", "policy.d/agentjail.json", "cursor/hooks.json", "qwen-code/settings.json", "factory/settings.json"} {
			text, ok := got[name]
			if !ok {
				t.Errorf("no system edit of %s among %v", name, slices.Collect(maps.Keys(got)))
				continue
			}
			if !strings.Contains(text, " --post") {
				t.Errorf("%s has no post-tool entry:\n%s", name, text)
			}
		}
	}
}

// Copilot's managed settings get allowManagedHooksOnly beside an
// admin's own keys, the agent still counts as wired, and uninstall puts
// the admin's file back byte for byte.
func TestSystemCopilotManagedSettings(t *testing.T) {
	sys := t.TempDir()
	setVar(t, &copilotPolicyDir, filepath.Join(sys, "policy.d"))
	setVar(t, &copilotManagedSettings, filepath.Join(sys, "managed-settings.json"))
	admin := "{\n  \"model\": \"gpt-5\"\n}\n"
	if err := os.WriteFile(copilotManagedSettings, []byte(admin), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{System: true, ManagedHooksOnly: true, Home: t.TempDir(), UserHome: t.TempDir(), Agents: []string{"copilot"}}
	edits, err := planEdits(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := applyEdits(o, edits, io.Discard); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	b, _ := os.ReadFile(copilotManagedSettings)
	if err := json.Unmarshal(b, &doc); err != nil || doc["allowManagedHooksOnly"] != true || doc["model"] != "gpt-5" {
		t.Fatalf("managed settings after install (%v):\n%s", err, b)
	}
	for _, s := range Agents(o) {
		if s.Name == "copilot" && !s.Wired {
			t.Error("Copilot does not count as wired after a system install")
		}
	}
	for _, path := range []string{copilotManagedSettings, filepath.Join(copilotPolicyDir, "agentjail.json")} {
		if _, err := removeFrom(path, loadState(o.Home).Settings[path], false, false, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(copilotManagedSettings); string(b) != admin {
		t.Errorf("uninstall left the managed settings as:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(copilotPolicyDir, "agentjail.json")); err == nil {
		t.Error("uninstall left the policy hook")
	}
}
