package agentconfig

import (
	"io/fs"
	"strings"
	"testing"
)

// TestSwitchesAndCode: switches and env that turn the hook off remove
// the guard; code a settings file runs beside it is reported to ask.
func TestSwitchesAndCode(t *testing.T) {
	const ours = `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/h/.agentjail/bin/agentjail-hook","timeout":10}]}]}}`
	tests := []struct {
		name, agent, path, cur, res string
		removes                     bool
		runs                        string // a word of the RunsCode reason, "" for none
	}{
		{"claude new PreToolUse hook", "claude-code", "/p/.claude/settings.json", "", `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/tmp/rewrite.sh"}]}]}}`, false, "rewrite"},
		{"claude prompt hook", "claude-code", "/p/.claude/settings.json", "", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"prompt","prompt":"x"}]}]}}`, false, "prompt"},
		{"claude our hook kept", "claude-code", "/h/.claude/settings.json", ours, ours, false, ""},
		{"claude env on our hook", "claude-code", "/h/.claude/settings.json", ours, strings.Replace(ours, `"timeout":10`, `"timeout":10,"env":{"AGENTJAIL_SOCKET":"/tmp/s"}`, 1), true, ""},
		{"claude statusLine script", "claude-code", "/p/.claude/settings.json", "", `{"statusLine":{"type":"command","command":"/tmp/s.sh"}}`, false, "statusLine"},
		{"claude statusLine git branch", "claude-code", "/p/.claude/settings.json", "", `{"statusLine":{"type":"command","command":"git branch --show-current"}}`, false, ""},
		{"claude statusLine git branch new", "claude-code", "/p/.claude/settings.json", "", `{"statusLine":{"type":"command","command":"git branch evil"}}`, false, "statusLine"},
		{"claude apiKeyHelper", "claude-code", "/p/.claude/settings.json", "", `{"apiKeyHelper":"/tmp/k.sh"}`, false, "apiKeyHelper"},
		{"claude env PATH", "claude-code", "/p/.claude/settings.json", "", `{"env":{"PATH":"/tmp/bin:/usr/bin"}}`, false, "PATH"},
		{"claude env NODE_ENV", "claude-code", "/p/.claude/settings.json", "", `{"env":{"NODE_ENV":"development"}}`, false, ""},
		{"claude env BASH_ENV", "claude-code", "/p/.claude/settings.json", "", `{"env":{"BASH_ENV":"/tmp/x"}}`, true, ""},
		{"claude env shell prefix", "claude-code", "/p/.claude/settings.json", "", `{"env":{"CLAUDE_CODE_SHELL_PREFIX":"/tmp/w"}}`, true, ""},
		{"copilot disableAllHooks", "copilot", "/h/.copilot/settings.json", `{}`, `{"disableAllHooks":true}`, true, ""},
		{"copilot repo disableAllHooks", "copilot", "/p/.github/copilot/settings.json", "", `{"disableAllHooks":true}`, true, ""},
		{"copilot disableAllHooks false", "copilot", "/h/.copilot/settings.json", "", `{"disableAllHooks":false}`, false, ""},
		{"copilot env on our hook", "copilot", "/h/.copilot/hooks/agentjail.json",
			`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"/h/.agentjail/bin/agentjail-hook --agent copilot","timeoutSec":10}]}}`,
			`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"/h/.agentjail/bin/agentjail-hook --agent copilot","timeoutSec":10,"env":{"AGENTJAIL_SOCKET":"/tmp/s"}}]}}`, true, ""},
		{"cursor prompt type", "cursor", "/h/.cursor/hooks.json",
			`{"version":1,"hooks":{"preToolUse":[{"command":"/h/.agentjail/bin/agentjail-hook --agent cursor"}]}}`,
			`{"version":1,"hooks":{"preToolUse":[{"command":"/h/.agentjail/bin/agentjail-hook --agent cursor","type":"prompt"}]}}`, true, ""},
		{"codex codex_hooks false", "codex", "/p/.codex/config.toml", "", "[features]\ncodex_hooks = false\n", true, ""},
		{"codex profile hooks false", "codex", "/p/.codex/config.toml", "", "[profiles.fast.features]\nhooks = false\n", true, ""},
		{"codex profile model", "codex", "/p/.codex/config.toml", "", "[profiles.fast]\nmodel = \"o3\"\n", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := func(string) ([]byte, error) {
				if tt.cur == "" {
					return nil, fs.ErrNotExist
				}
				return []byte(tt.cur), nil
			}
			j := Judge(tt.agent, "Write", map[string]any{"content": tt.res}, tt.path, true, read)
			if j.RemovesGuard != tt.removes {
				t.Errorf("RemovesGuard = %v (%s), want %v", j.RemovesGuard, j.Problem, tt.removes)
			}
			got := strings.Join(j.RunsCode, "; ")
			if tt.runs == "" && got != "" || tt.runs != "" && !strings.Contains(got, tt.runs) {
				t.Errorf("RunsCode = %q, want a reason with %q", got, tt.runs)
			}
		})
	}
}
