package agentconfig

import "testing"

func TestProgram(t *testing.T) {
	tests := []struct{ word, want string }{
		{"claude", "claude"},
		{"/opt/homebrew/bin/claude", "claude"},
		{"claude.exe", "claude"},
		{"@anthropic-ai/claude-code", "claude"},
		{"@anthropic-ai/claude-code@2.1.0", "claude"},
		{"/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js", "claude"},
		{"$(which claude)", "claude"},
		{"$(command -v claude)", "claude"},
		{"$(readlink -f $(which claude))", "claude"},
		{"`which codex`", "codex"},
		{"@openai/codex", "codex"},
		{"node_modules/@openai/codex/bin/codex.js", "codex"},
		{"@anthropic-ai/claude-code-router", ""},
		{"claude.md", ""},
		{"claude-report.js", ""},
		{"$(which prettier)", ""},
		{"claude:lint", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			if got := Program(tt.word); got != tt.want {
				t.Errorf("Program(%q) = %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}

func TestNestedCodex(t *testing.T) {
	tests := []struct {
		name    string
		cmd     Cmd
		verdict string // "" when the launch keeps the hook
	}{
		{"--disable hooks", Cmd{Name: "codex", Args: []string{"--disable", "hooks", "exec", "x"}}, "deny"},
		{"-c features.hooks=false", Cmd{Name: "codex", Args: []string{"-c", "features.hooks=false"}}, "deny"},
		{"-c attached", Cmd{Name: "codex", Args: []string{"-cfeatures.hooks=false"}}, "deny"},
		{"--config=", Cmd{Name: "codex", Args: []string{"--config=features.codex_hooks=false"}}, "deny"},
		{"features table", Cmd{Name: "codex", Args: []string{"-c", "features={hooks=false}"}}, "deny"},
		{"hook trust", Cmd{Name: "codex", Args: []string{"-c", `hooks.state."k".enabled=false`}}, "deny"},
		{"CODEX_HOME", Cmd{Name: "codex", Args: []string{"exec", "x"}, Assigns: map[string]string{"CODEX_HOME": "/tmp/c"}}, "deny"},
		{"AGENTJAIL_SOCKET", Cmd{Name: "codex", Assigns: map[string]string{"AGENTJAIL_SOCKET": "/tmp/s"}}, "deny"},
		{"plain", Cmd{Name: "codex", Args: []string{"exec", "fix the tests"}}, ""},
		{"other config", Cmd{Name: "codex", Args: []string{"-c", "model=o3", "--enable", "hooks"}}, ""},
		{"hooks on", Cmd{Name: "codex", Args: []string{"-c", "features.hooks=true"}}, ""},
		{"after --", Cmd{Name: "codex", Args: []string{"exec", "--", "--disable", "hooks"}}, ""},
		{"another program", Cmd{Name: "prettier", Args: []string{"--disable", "hooks"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Nested("", "/home/dev", []Cmd{tt.cmd}, nil, nil)
			switch {
			case tt.verdict == "" && len(got) != 0:
				t.Errorf("got %+v, want nothing", got)
			case tt.verdict != "" && (len(got) != 1 || got[0].Verdict != tt.verdict || got[0].Program != "codex"):
				t.Errorf("got %+v, want one codex %s", got, tt.verdict)
			}
		})
	}
}
