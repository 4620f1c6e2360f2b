package opencode

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The plugin's own decisions, run under Node as opencode runs it under
// Bun: exit 2 throws the hook's reason, exit 0 lets the call go on, and a
// hook that fails or never answers blocks the call unless the plugin was
// written with failClosed false; the wait is bounded either way.
func TestPlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts Node")
	}
	node, err := filepath.Abs(filepath.Join("..", "..", ".tools", "node", "node_modules", ".bin", "node"))
	if err == nil {
		_, err = os.Stat(node)
	}
	if err != nil {
		if node, err = exec.LookPath("node"); err != nil {
			t.Skip("no node to run the plugin with")
		}
	}
	dir := t.TempDir()
	hook := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\ncat > "+filepath.Join(dir, name+".in")+"\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, body string
		failClosed bool
		want       string // the thrown message, "" for none
	}{
		{"deny", `echo '{"decision":"deny","reason":"Blocked: a key"}'; echo 'Blocked: a key' >&2; exit 2`, true, "Blocked: a key"},
		{"deny reason on stderr alone", `echo 'Blocked: stderr' >&2; exit 2`, true, "Blocked: stderr"},
		{"allow", `exit 0`, true, ""},
		{"hook fails closed", `echo boom >&2; exit 1`, true, "ended with 1: boom"},
		{"hook fails open", `exit 1`, false, ""},
		{"hook never answers", `exec sleep 30`, true, "gave no answer within 700 ms"},
		{"hook never answers, open", `exec sleep 30`, false, ""},
		{"no hook", "", true, "cannot run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := hook(strings.ReplaceAll(tt.name, " ", "_"), tt.body)
			if tt.name == "no hook" {
				h = filepath.Join(dir, "missing")
			}
			settings, _ := json.Marshal(map[string]any{"agent": "opencode", "hook": []string{h, "--agent", "opencode"}, "timeoutMs": 700, "failClosed": tt.failClosed})
			blank := "const SETTINGS = null; " + SettingsMarker
			plugin := filepath.Join(dir, "agentjail.mjs")
			os.WriteFile(plugin, []byte(strings.Replace(Plugin, blank, "const SETTINGS = "+string(settings)+"; "+SettingsMarker, 1)), 0o644)
			driver := `import { AgentjailGuard } from ` + strings.ReplaceAll(string(mustJSON(plugin)), `\`, `\\`) + `;
const hooks = await AgentjailGuard({ directory: "/w", worktree: "/w" });
try {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: "call_1" }, { args: { command: "ls" } });
  console.log("ALLOWED");
} catch (e) { console.log("THROWN " + e.message); }
`
			d := filepath.Join(dir, "driver.mjs")
			os.WriteFile(d, []byte(driver), 0o644)
			out, err := exec.Command(node, d).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			got := strings.TrimSpace(string(out))
			switch {
			case tt.want == "" && got != "ALLOWED":
				t.Errorf("got %q, want the call allowed", got)
			case tt.want != "" && !(strings.HasPrefix(got, "THROWN ") && strings.Contains(got, tt.want)):
				t.Errorf("got %q, want a throw with %q", got, tt.want)
			}
			if tt.name == "deny" {
				in, _ := os.ReadFile(h + ".in")
				var ev map[string]any
				if json.Unmarshal(in, &ev) != nil || ev["hook_event_name"] != Event || ev["tool"] != "bash" || ev["cwd"] != "/w" || ev["client"] != "opencode" {
					t.Errorf("event %s", in)
				}
			}
		})
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }
