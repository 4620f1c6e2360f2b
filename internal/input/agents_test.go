package input

import (
	"reflect"
	"slices"
	"testing"
)

// Every agent's call reaches the policies in the same canonical terms.
func TestAgentsCanonicalView(t *testing.T) {
	env := Env{Home: "/home/dev", AgentjailHome: "/home/dev/.agentjail", ClientCwd: "/work/p"}
	tests := []struct {
		name, agent, event string
		tool, command      string
		paths, writes      []string
		guard              bool // a hook configuration write judged as removing the guard
	}{
		{"claude read", "claude-code", `{"tool_name":"Read","tool_input":{"file_path":"~/.ssh/id_rsa"}}`, "read", "", []string{"/home/dev/.ssh/id_rsa"}, nil, false},
		{"codex bash", "codex", `{"hook_event_name":"PreToolUse","cwd":"/work/p","tool_name":"Bash","tool_input":{"command":"cat ~/.ssh/id_rsa"}}`, "shell", "cat ~/.ssh/id_rsa", []string{"/home/dev/.ssh/id_rsa"}, nil, false},
		{"codex patch on its own config", "codex", `{"cwd":"/work/p","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: /home/dev/.codex/config.toml\n@@\n-a\n+b\n*** End Patch\n"}}`, "edit", "", []string{"/home/dev/.codex/config.toml"}, []string{"/home/dev/.codex/config.toml"}, true},
		{"codex patch on agentjail's config", "codex", `{"cwd":"/work/p","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: ../../home/dev/.agentjail/config.yaml\n@@\n-fail_mode: closed\n+fail_mode: open\n*** End Patch\n"}}`, "edit", "", []string{"/home/dev/.agentjail/config.yaml"}, []string{"/home/dev/.agentjail/config.yaml"}, false},
		{"codex patch in the project", "codex", `{"cwd":"/work/p","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: src/new.go\n+package src\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n*** End Patch\n"}}`, "edit", "", []string{"/work/p/src/new.go", "/work/p/a.go", "/work/p/b.go"}, []string{"/work/p/src/new.go", "/work/p/a.go", "/work/p/b.go"}, false},
		{"codex patch through the shell", "codex", `{"cwd":"/work/p","tool_name":"Bash","tool_input":{"command":"apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: /home/dev/.codex/hooks.json\n*** End Patch\nEOF"}}`, "shell", "", nil, []string{"/home/dev/.codex/hooks.json"}, true},
		{"gemini read_file", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/work/p","tool_name":"read_file","tool_input":{"absolute_path":"/home/dev/.aws/credentials"}}`, "read", "", []string{"/home/dev/.aws/credentials"}, nil, false},
		{"gemini shell", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/work/p","tool_name":"run_shell_command","tool_input":{"command":"ls src"}}`, "shell", "ls src", nil, nil, false},
		{"gemini write to its settings", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/work/p","tool_name":"write_file","tool_input":{"file_path":"/home/dev/.gemini/settings.json","content":"{}"}}`, "write", "", []string{"/home/dev/.gemini/settings.json"}, []string{"/home/dev/.gemini/settings.json"}, false},
		{"copilot bash", "copilot", `{"cwd":"/work/p","toolName":"bash","toolArgs":"{\"command\":\"cat ~/.ssh/id_ed25519\"}"}`, "shell", "cat ~/.ssh/id_ed25519", []string{"/home/dev/.ssh/id_ed25519"}, nil, false},
		{"copilot view", "copilot", `{"cwd":"/work/p","toolName":"view","toolArgs":"{\"path\":\"README.md\"}"}`, "read", "", []string{"/work/p/README.md"}, nil, false},
		{"copilot create", "copilot", `{"cwd":"/work/p","toolName":"create","toolArgs":"{\"path\":\"a.txt\",\"file_text\":\"x\"}"}`, "write", "", []string{"/work/p/a.txt"}, []string{"/work/p/a.txt"}, false},
		{"cursor shell", "cursor", `{"hook_event_name":"beforeShellExecution","cwd":"/work/p","command":"cat .env"}`, "shell", "cat .env", []string{"/work/p/.env"}, nil, false},
		{"cursor read", "cursor", `{"hook_event_name":"beforeReadFile","file_path":"/home/dev/.npmrc","content":"x"}`, "read", "", []string{"/home/dev/.npmrc"}, nil, false},
		{"cursor delete", "cursor", `{"hook_event_name":"preToolUse","cwd":"/work/p","tool_name":"Delete","tool_input":{"path":"build/out"}}`, "write", "", []string{"/work/p/build/out"}, []string{"/work/p/build/out"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := env
			e.Agent = tt.agent
			in, d, err := Build([]byte(tt.event), e)
			if err != nil {
				t.Fatal(err)
			}
			m := in[Key].(map[string]any)
			if m["tool"] != tt.tool || m["tool_kind"] != tt.tool {
				t.Errorf("tool %v (tool_kind %v), want %s", m["tool"], m["tool_kind"], tt.tool)
			}
			if tt.command != "" && m["command"] != tt.command {
				t.Errorf("command %v, want %q", m["command"], tt.command)
			}
			for _, p := range tt.paths {
				if !slices.Contains(d.Paths, p) {
					t.Errorf("paths %v lack %s", d.Paths, p)
				}
			}
			for _, p := range tt.writes {
				if !slices.Contains(d.Writes, p) {
					t.Errorf("writes %v lack %s", d.Writes, p)
				}
			}
			removes := false
			for _, g := range d.GuardConfig {
				removes = removes || g.RemovesGuard
			}
			if removes != tt.guard {
				t.Errorf("guard_config %+v, want removes_guard %v", d.GuardConfig, tt.guard)
			}
		})
	}
}

// Gemini's run_shell_command runs in its dir_path: a relative operand is
// read from there, not from the event's cwd.
func TestGeminiDirPath(t *testing.T) {
	env := Env{Home: "/home/dev", AgentjailHome: "/home/dev/.agentjail", ClientCwd: "/work/p"}
	tests := []struct {
		name, event string
		cwd, path   string
	}{
		{"absolute dir_path", `{"hook_event_name":"BeforeTool","cwd":"/work/p","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build","dir_path":"/"}}`, "/", "/build"},
		{"relative dir_path", `{"hook_event_name":"BeforeTool","cwd":"/work/p","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build","dir_path":"sub"}}`, "/work/p/sub", "/work/p/sub/build"},
		{"home dir_path", `{"hook_event_name":"BeforeTool","cwd":"/work/p","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build","dir_path":"~"}}`, "/home/dev", "/home/dev/build"},
		{"no dir_path", `{"hook_event_name":"BeforeTool","cwd":"/work/p","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build"}}`, "/work/p", "/work/p/build"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, d, err := Build([]byte(tt.event), env)
			if err != nil {
				t.Fatal(err)
			}
			if d.Cwd != tt.cwd || in[Key].(map[string]any)["cwd"] != tt.cwd {
				t.Errorf("cwd %q, want %q", d.Cwd, tt.cwd)
			}
			if !slices.Contains(d.Writes, tt.path) {
				t.Errorf("writes %v, want %s", d.Writes, tt.path)
			}
		})
	}
}

// A search tool's pattern and glob reach the policies under the same
// names whatever the agent calls them; a search of file names is not a
// search of contents.
func TestSearchView(t *testing.T) {
	env := Env{Home: "/home/dev", AgentjailHome: "/home/dev/.agentjail", ClientCwd: "/work/p"}
	tests := []struct {
		name, agent, event string
		want               map[string]any // nil: no search field
	}{
		{"claude grep", "claude-code", `{"tool_name":"Grep","tool_input":{"pattern":"AKIA","path":"~","glob":"*.env"}}`, map[string]any{"pattern": "AKIA", "glob": "*.env", "content": true, "lines": false}},
		{"claude grep of lines", "claude-code", `{"tool_name":"Grep","tool_input":{"pattern":"TODO","path":"~","output_mode":"content"}}`, map[string]any{"pattern": "TODO", "glob": "", "content": true, "lines": true}},
		{"claude glob", "claude-code", `{"tool_name":"Glob","tool_input":{"pattern":"**/*.go"}}`, map[string]any{"pattern": "**/*.go", "glob": "", "content": false, "lines": false}},
		{"gemini grep_search include", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"grep_search","tool_input":{"pattern":"token","dir_path":"~","include":".netrc"}}`, map[string]any{"pattern": "token", "glob": ".netrc", "content": true, "lines": true}},
		{"gemini glob", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"glob","tool_input":{"pattern":".aws/*","dir_path":"~"}}`, map[string]any{"pattern": ".aws/*", "glob": "", "content": false, "lines": false}},
		{"copilot rg", "copilot", `{"toolName":"rg","toolArgs":{"pattern":"ghp_","path":"~"}}`, map[string]any{"pattern": "ghp_", "glob": "", "content": true, "lines": true}},
		{"cursor grep", "cursor", `{"hook_event_name":"preToolUse","tool_name":"Grep","tool_input":{"pattern":"key","path":"."}}`, map[string]any{"pattern": "key", "glob": "", "content": true, "lines": true}},
		{"a count shows no lines", "cursor", `{"hook_event_name":"preToolUse","tool_name":"Grep","tool_input":{"pattern":"key","path":".","output_mode":"count"}}`, map[string]any{"pattern": "key", "glob": "", "content": true, "lines": false}},
		{"a read is no search", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"absolute_path":"/x","pattern":"y"}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := env
			e.Agent = tt.agent
			in, _, err := Build([]byte(tt.event), e)
			if err != nil {
				t.Fatal(err)
			}
			got, has := in[Key].(map[string]any)["search"]
			if tt.want == nil {
				if has {
					t.Errorf("search %v on a call that is no search", got)
				}
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("search %v, want %v", got, tt.want)
			}
		})
	}
}
