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

// TestSettingsEditsThroughTheDaemon edits a real, installed
// ~/.claude/settings.json through a real daemon: the daemon reads the
// file, applies each edit and judges the file it would leave.
func TestSettingsEditsThroughTheDaemon(t *testing.T) {
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	hook := filepath.Join(home, ".agentjail", "bin", "agentjail-hook")
	installed := `{
  "model": "sonnet",
  "permissions": {
    "allow": []
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "` + hook + `",
            "timeout": 5
          }
        ]
      }
    ]
  }
}
`
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(installed), 0o600); err != nil {
		t.Fatal(err)
	}
	d := daemontest.StartFor(t, home, nil)
	client := &wire.Client{Socket: d.Socket}
	cmd := `"command": "` + hook + `"`
	tests := []struct {
		name  string
		tool  string
		input map[string]any
		want  wire.Verdict
	}{
		{"command replaced", "Edit", map[string]any{"old_string": cmd, "new_string": `"command": "true"`}, wire.Deny},
		{"hooks renamed", "Edit", map[string]any{"old_string": `"hooks": {`, "new_string": `"hooks_off": {`}, wire.Deny},
		{"PreToolUse renamed", "Edit", map[string]any{"old_string": `"PreToolUse"`, "new_string": `"preToolUse"`}, wire.Deny},
		{"matcher narrowed", "Edit", map[string]any{"old_string": `"matcher": "*"`, "new_string": `"matcher": "Bash"`}, wire.Deny},
		{"disableAllHooks escaped", "Edit", map[string]any{"old_string": `"model": "sonnet",`, "new_string": `"model": "sonnet", "disableAllHook\u0073": true,`}, wire.Deny},
		{"env CLAUDE_CODE_SIMPLE", "Edit", map[string]any{"old_string": `"model": "sonnet",`, "new_string": `"model": "sonnet", "env": {"CLAUDE_CODE_SIMPLE": "1"},`}, wire.Deny},
		{"timeout lowered", "Edit", map[string]any{"old_string": `"timeout": 5`, "new_string": `"timeout": 1`}, wire.Deny},
		{"multiedit drops the entry", "MultiEdit", map[string]any{"edits": []any{
			map[string]any{"old_string": `"model": "sonnet"`, "new_string": `"model": "opus"`},
			map[string]any{"old_string": cmd, "new_string": `"command": "echo agentjail-hook"`},
		}}, wire.Deny},
		{"rewritten without the hook", "Write", map[string]any{"content": `{"model": "opus"}`}, wire.Deny},
		{"stale edit", "Edit", map[string]any{"old_string": `"model": "haiku"`, "new_string": `"model": "opus"`}, wire.Deny},
		{"add a permission", "Edit", map[string]any{"old_string": `"allow": []`, "new_string": `"allow": ["Bash(npm test)"]`}, wire.Ask}, // the user approves what the agent grants itself
		{"change the model", "Edit", map[string]any{"old_string": `"model": "sonnet"`, "new_string": `"model": "opus"`}, wire.Allow},
		{"add a hook of its own", "Edit", map[string]any{"old_string": `"PreToolUse": [`, "new_string": `"PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}],` + "\n    " + `"PreToolUse": [`}, wire.Allow},
		{"rewritten keeping the hook", "Write", map[string]any{"content": strings.Replace(installed, "sonnet", "opus", 1)}, wire.Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.input["file_path"] = "~/.claude/settings.json"
			ev, _ := json.Marshal(map[string]any{"tool_name": tt.tool, "tool_input": tt.input, "cwd": filepath.Join(home, "project"), "hook_event_name": "PreToolUse"})
			dec, err := client.Decide(context.Background(), &wire.Request{Event: ev})
			if err != nil {
				t.Fatal(err)
			}
			if dec.Verdict != tt.want {
				t.Errorf("%s (%s), want %s", dec.Verdict, dec.Reason, tt.want)
			}
			if tt.want == wire.Deny && !strings.Contains(dec.Reason, "Leave the agentjail hook in place") {
				t.Errorf("the reason does not say to leave the hook in place: %s", dec.Reason)
			}
		})
	}
	// The daemon only read the file: it is as it was.
	if b, _ := os.ReadFile(settings); string(b) != installed {
		t.Errorf("the settings file changed:\n%s", b)
	}
}
