package policies_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/wire"
)

// TestPermissionEditsThroughTheDaemon edits real agent settings that
// hold permissions through a real daemon: each write is judged on the
// file it would leave, wide grants denied, narrow ones asked.
func TestPermissionEditsThroughTheDaemon(t *testing.T) {
	home := t.TempDir()
	files := map[string]string{
		".claude/settings.json": `{
  "model": "sonnet",
  "permissions": {
    "allow": ["Bash(npm test)"],
    "deny": ["Bash(rm -rf:*)"],
    "defaultMode": "default"
  }
}
`,
		".codex/config.toml":    "model = \"o3\"\napproval_policy = \"on-request\"\n",
		".gemini/settings.json": "{\n  \"ui\": {\"theme\": \"dark\"},\n  \"tools\": {\"exclude\": [\"web_fetch\"]}\n}\n",
	}
	for rel, content := range files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	d := daemontest.StartFor(t, home, nil)
	client := &wire.Client{Socket: d.Socket}
	edit := func(file, old, new string) map[string]any {
		return map[string]any{"file_path": "~/" + file, "old_string": old, "new_string": new}
	}
	tests := []struct {
		name  string
		tool  string
		input map[string]any
		want  wire.Verdict
	}{
		{"claude: every command", "Edit", edit(".claude/settings.json", `["Bash(npm test)"]`, `["Bash(npm test)", "Bash(*)"]`), wire.Deny},
		{"claude: a whole tool", "MultiEdit", map[string]any{"file_path": "~/.claude/settings.json", "edits": []any{map[string]any{"old_string": `"allow": [`, "new_string": `"allow": ["Write", `}}}, wire.Deny},
		{"claude: bypass mode", "Edit", edit(".claude/settings.json", `"default"`, `"bypassPermissions"`), wire.Deny},
		{"claude: deny rule removed", "Edit", edit(".claude/settings.json", `["Bash(rm -rf:*)"]`, `[]`), wire.Deny},
		{"claude: one more command", "Edit", edit(".claude/settings.json", `["Bash(npm test)"]`, `["Bash(npm test)", "Bash(go test:*)"]`), wire.Ask},
		{"claude: accept edits", "Edit", edit(".claude/settings.json", `"default"`, `"acceptEdits"`), wire.Ask},
		{"claude: model", "Edit", edit(".claude/settings.json", `"sonnet"`, `"opus"`), wire.Allow},
		{"claude: a deny rule added", "Edit", edit(".claude/settings.json", `["Bash(rm -rf:*)"]`, `["Bash(rm -rf:*)", "Read(.env)"]`), wire.Allow},
		{"claude: an allow rule dropped", "Edit", edit(".claude/settings.json", `["Bash(npm test)"]`, `[]`), wire.Allow},
		{"codex: never asks", "Edit", edit(".codex/config.toml", `"on-request"`, `"never"`), wire.Deny},
		{"codex: model", "Edit", edit(".codex/config.toml", `"o3"`, `"o4"`), wire.Allow},
		{"gemini: exclude removed", "Edit", edit(".gemini/settings.json", `["web_fetch"]`, `[]`), wire.Deny},
		{"gemini: theme", "Edit", edit(".gemini/settings.json", `"dark"`, `"light"`), wire.Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, _ := json.Marshal(map[string]any{"tool_name": tt.tool, "tool_input": tt.input, "cwd": filepath.Join(home, "project"), "hook_event_name": "PreToolUse"})
			dec, err := client.Decide(context.Background(), &wire.Request{Event: ev})
			if err != nil {
				t.Fatal(err)
			}
			if dec.Verdict != tt.want {
				t.Errorf("%s (%s), want %s", dec.Verdict, dec.Reason, tt.want)
			}
			if tt.want == wire.Deny && !strings.Contains(dec.Reason, "without the user's approval") {
				t.Errorf("the reason does not say what the change grants: %s", dec.Reason)
			}
		})
	}
}
