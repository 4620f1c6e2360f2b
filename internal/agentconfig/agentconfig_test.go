package agentconfig

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// installed is ~/.claude/settings.json as `agentjail install` leaves it.
const installed = `{
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
            "command": "/home/u/.agentjail/bin/agentjail-hook",
            "timeout": 5
          }
        ]
      }
    ]
  }
}
`

const ourCmd = `"command": "/home/u/.agentjail/bin/agentjail-hook"`

// postEntry is the PostToolUse entry install puts beside the PreToolUse
// one; installedWithPost the settings with both.
const postEntry = `"PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/home/u/.agentjail/bin/agentjail-hook --post", "timeout": 5}]}]`

var installedWithPost = strings.Replace(installed, `"hooks": {`, `"hooks": {`+"\n    "+postEntry+",", 1)

func edit(old, new string) map[string]any {
	return map[string]any{"file_path": "/home/u/.claude/settings.json", "old_string": old, "new_string": new}
}

func multi(pairs ...string) map[string]any {
	var edits []any
	for i := 0; i+1 < len(pairs); i += 2 {
		edits = append(edits, map[string]any{"old_string": pairs[i], "new_string": pairs[i+1]})
	}
	return map[string]any{"file_path": "/home/u/.claude/settings.json", "edits": edits}
}

func write(content string) map[string]any {
	return map[string]any{"file_path": "/home/u/.claude/settings.json", "content": content}
}

const absent = "\x00absent"

func TestJudgeClaudeSettings(t *testing.T) {
	project := `{"permissions": {"allow": []}}`
	tests := []struct {
		name    string
		cur     string // absent for no file
		tool    string
		input   map[string]any
		removes bool
		problem string // a part of the problem, when removes
	}{
		// The post-tool entry tells the daemon of every call that ran:
		// taking it out blinds the accounting of unchecked calls, where
		// changing its options keeps it.
		{"post entry removed", installedWithPost, "Edit", edit(postEntry+",", ""), true, "post-tool hook"},
		{"post flag removed", installedWithPost, "Edit", edit(`agentjail-hook --post"`, `agentjail-hook"`), true, "post-tool hook"},
		{"post command changed", installedWithPost, "Edit", edit(`agentjail-hook --post"`, `agentjail-hook --post --timeout 9s"`), false, ""},
		{"pre entry renamed, post kept", installedWithPost, "Edit", edit(`"PreToolUse"`, `"Stop"`), true, "hooks.PreToolUse"},
		{"pre command replaced, post kept", installedWithPost, "Edit", edit(ourCmd, `"command": "true"`), true, "agentjail hook"},
		// The guard removed, renamed or weakened.
		{"rename hooks", installed, "Edit", edit(`"hooks": {`, `"hookz": {`), true, `out of "hooks"`},
		{"rename PreToolUse", installed, "Edit", edit(`"PreToolUse"`, `"PostToolUse"`), true, "out of hooks.PreToolUse"},
		{"narrow the matcher", installed, "Edit", edit(`"matcher": "*"`, `"matcher": "Bash"`), true, "no longer matches every tool"},
		{"narrow the matcher with replace_all", installed, "Edit", map[string]any{"file_path": "x", "old_string": `"*"`, "new_string": `"Read"`, "replace_all": true}, true, "matcher"},
		{"command replaced", installed, "Edit", edit(ourCmd, `"command": "true"`), true, "remove the agentjail hook"},
		{"command moved, word kept", installed, "Edit", edit(ourCmd, `"command": "/tmp/agentjail-hook"`), true, "command"},
		{"command gets an argument", installed, "Edit", edit(ourCmd, `"command": "/home/u/.agentjail/bin/agentjail-hook --timeout 0s"`), true, "command"},
		{"entry dropped, word kept in a note", installed, "Write", write(`{"note": "/home/u/.agentjail/bin/agentjail-hook", "hooks": {}}`), true, "hooks.PreToolUse"},
		{"earlier duplicate hooks key loses", installed, "Edit", edit(`"model": "sonnet",`, `"model": "sonnet", "hooks": {},`), false, ""},
		{"disableAllHooks via unicode escape", installed, "Edit", edit(`"model": "sonnet",`, `"model": "sonnet", "disableAllHook\u0073": true,`), true, "disableAllHooks"},
		{"disableAllHooks as a string", project, "Write", write(`{"disableAllHooks": "yes"}`), true, "disableAllHooks"},
		{"disableAllHooks in a project file", absent, "Write", write(`{"disableAllHooks": true}`), true, "disableAllHooks"},
		{"duplicate key: last wins", absent, "Write", write(`{"disableAllHooks": false, "disableAllHooks": true}`), true, "disableAllHooks"},
		{"allowManagedHooksOnly", project, "Write", write(`{"allowManagedHooksOnly": true}`), true, "allowManagedHooksOnly"},
		{"env CLAUDE_CODE_SIMPLE", installed, "Edit", edit(`"model": "sonnet",`, `"model": "sonnet", "env": {"CLAUDE_CODE_SIMPLE": "1"},`), true, "CLAUDE_CODE_SIMPLE"},
		{"env AGENTJAIL_SOCKET", project, "Write", write(`{"env": {"AGENTJAIL_SOCKET": "/tmp/x.sock"}}`), true, "AGENTJAIL_SOCKET"},
		{"env CLAUDE_CONFIG_DIR", absent, "Write", write(`{"env": {"CLAUDE_CONFIG_DIR": "/tmp/c"}}`), true, "CLAUDE_CONFIG_DIR"},
		{"timeout lowered", installed, "Edit", edit(`"timeout": 5`, `"timeout": 1`), true, "timeout"},
		{"timeout made a string", installed, "Edit", edit(`"timeout": 5`, `"timeout": "60"`), true, "timeout"},
		{"type changed", installed, "Edit", edit(`"type": "command"`, `"type": "prompt"`), true, `"type"`},
		{"made async", installed, "Edit", edit(`"timeout": 5`, `"timeout": 5, "async": true`), true, `"async"`},
		{"onFailure block removed", strings.Replace(installed, `"timeout": 5`, `"timeout": 5, "onFailure": "block"`, 1), "Edit", edit(`, "onFailure": "block"`, ``), true, `"onFailure"`},
		{"if condition added", installed, "Edit", edit(`"timeout": 5`, `"timeout": 5, "if": "Bash(git *)"`), true, `"if"`},
		{"no longer JSON", installed, "Edit", edit(`"model": "sonnet",`, `"model": "sonnet"`), true, "not a valid JSON object"},
		{"top level an array", installed, "Write", write(`[]`), true, "not a valid JSON object"},
		{"duplicate hooks key at the end", installed, "Edit", edit("  }\n}\n", "  },\n  \"hooks\": {}\n}\n"), true, "remove the agentjail hook"},
		{"rewritten whole", installed, "Write", write(`{}`), true, "remove the agentjail hook"},
		{"env value not a string rejects the file", installed, "Edit", edit(`"model": "sonnet",`, `"model": "sonnet", "env": {"DEBUG": 1},`), true, "reject the whole file"},
		{"weak copy in a project file", absent, "Write", write(`{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/home/u/.agentjail/bin/agentjail-hook", "timeout": 1}]}]}}`), true, "timeout"},
		{"multiedit: second edit renames", installed, "MultiEdit", multi(`"model": "sonnet"`, `"model": "opus"`, `"PreToolUse"`, `"Stop"`), true, "hooks.PreToolUse"},
		{"multiedit: an edit that does not apply", installed, "MultiEdit", multi(`"model": "sonnet"`, `"model": "opus"`, `"no such text"`, `x`), true, "not in the file"},
		{"edit that does not apply", installed, "Edit", edit(`“hooks”`, `"x"`), true, "not in the file"},
		{"content not a string", installed, "Write", map[string]any{"file_path": "x", "content": 5}, true, "cannot see"},
		{"notebook edit", installed, "NotebookEdit", map[string]any{"notebook_path": "x", "new_source": "{}"}, true, "cannot compute"},
		{"mcp tool without content", installed, "mcp__fs__edit_file", map[string]any{"path": "x", "edits": []any{}}, true, "cannot compute"},
		{"result too large", installed, "Edit", map[string]any{"file_path": "x", "old_string": " ", "new_string": strings.Repeat(" ", 50000), "replace_all": true}, true, "over"},
		// Harmless edits of the same files.
		{"add a permission", installed, "Edit", edit(`"allow": []`, `"allow": ["Bash(npm test)"]`), false, ""},
		{"change the model", installed, "Edit", edit(`"model": "sonnet"`, `"model": "opus"`), false, ""},
		{"add another PreToolUse hook", installed, "Edit", edit("      }\n    ]\n  }\n}", "      },\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/audit.sh\"}]}\n    ]\n  }\n}"), false, ""},
		{"raise the timeout", installed, "Edit", edit(`"timeout": 5`, `"timeout": 30`), false, ""},
		{"matcher * to empty, still every tool", installed, "Edit", edit(`"matcher": "*"`, `"matcher": ""`), false, ""},
		{"harmless env", installed, "Edit", edit(`"model": "sonnet",`, `"model": "sonnet", "env": {"NODE_ENV": "test"},`), false, ""},
		{"rewrite keeping the hook", installed, "Write", write(strings.Replace(installed, `"sonnet"`, `"opus"`, 1)), false, ""},
		{"project file without our hook", project, "Edit", edit(`"allow": []`, `"allow": ["Read"]`), false, ""},
		{"project file: hooks of its own", project, "Write", write(`{"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}]}}`), false, ""},
		{"project file: the words alone", absent, "Write", write(`{"note": "agentjail-hook, disableAllHooks, CLAUDE_CODE_SIMPLE"}`), false, ""},
		{"missing file: the edit fails", absent, "Edit", edit(`"x"`, `"y"`), false, ""},
		{"missing file: an edit adding a redirecting env", absent, "Edit", edit("{", "{\n  \"env\": {\"AGENTJAIL_HOME\": \"/tmp/x\"},"), true, "not there"},
		{"missing file: an edit renaming PreToolUse", absent, "MultiEdit", multi(`"PreToolUse"`, `"Stop"`), true, "not there"},
		{"missing file: an edit switching hooks off", absent, "Edit", edit(`"model": "x"`, `"disableAllHooks": true`), true, "not there"},
		{"missing file: an edit of the hook matcher", absent, "Edit", edit(`"matcher": "*"`, `"matcher": "Read"`), true, "not there"},
		{"missing file: an edit of the model", absent, "Edit", edit(`"model": "x"`, `"model": "y"`), false, ""},
		{"missing file: an edit of permissions", absent, "MultiEdit", multi(`"allow": []`, `"allow": ["Bash(ls)"]`), false, ""},
		{"missing file: created by an edit", absent, "Edit", edit("", `{"model": "opus"}`), false, ""},
		{"ambiguous edit fails", `{"a": "x", "b": "x"}`, "Edit", edit(`"x"`, `"y"`), false, ""},
		{"already broken file stays broken", `{"a": `, "Edit", edit(`"a"`, `"b"`), false, ""},
		{"disableAllHooks the user set, model changed", `{"disableAllHooks": true, "model": "a"}`, "Edit", edit(`"a"`, `"b"`), false, ""},
		{"disableAllHooks false", project, "Write", write(`{"disableAllHooks": false}`), false, ""},
		{"mcp write with content", project, "mcp__fs__write_file", map[string]any{"path": "x", "content": `{"model": "opus"}`}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := func(string) ([]byte, error) {
				if tt.cur == absent {
					return nil, fs.ErrNotExist
				}
				return []byte(tt.cur), nil
			}
			j := Judge("claude-code", tt.tool, tt.input, "/home/u/.claude/settings.json", true, read)
			if j.RemovesGuard != tt.removes {
				t.Fatalf("removes_guard = %v (%s), want %v", j.RemovesGuard, j.Problem, tt.removes)
			}
			if tt.removes && !strings.Contains(j.Problem, tt.problem) {
				t.Errorf("problem %q does not say %q", j.Problem, tt.problem)
			}
		})
	}
}

func TestJudgeOtherPaths(t *testing.T) {
	read := func(string) ([]byte, error) { return []byte(installed), nil }
	// A path the call names besides its target (a move's destination).
	if j := Judge("claude-code", "mcp__fs__move_file", map[string]any{}, "/home/u/.claude/settings.json", false, read); !j.RemovesGuard {
		t.Error("a move onto the settings file was allowed")
	}
	tests := []struct {
		name    string
		err     error
		removes bool
	}{
		{"unreadable", fs.ErrPermission, true},
		{"too large", ErrTooLarge, true},
		{"not regular", ErrNotRegular, true},
		{"absent", fs.ErrNotExist, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := Judge("claude-code", "Write", write(`{}`), "/p/.claude/settings.json", true, func(string) ([]byte, error) { return nil, tt.err })
			if j.RemovesGuard != tt.removes {
				t.Errorf("removes_guard = %v (%s), want %v", j.RemovesGuard, j.Problem, tt.removes)
			}
		})
	}
}

func TestAgent(t *testing.T) {
	tests := []struct{ name, path, want string }{
		{"user settings", "/home/u/.claude/settings.json", "claude-code"},
		{"project local", "/home/u/src/app/.claude/settings.local.json", "claude-code"},
		{"managed", "/etc/claude-code/managed-settings.json", "claude-code"},
		{"managed drop-in", "/Library/Application Support/ClaudeCode/managed-settings.d/10-team.json", "claude-code"},
		{"codex", "/home/u/.codex/config.toml", "codex"},
		{"codex hooks", "/home/u/.codex/hooks.json", "codex"},
		{"gemini", "/home/u/.gemini/settings.json", "gemini"},
		{"cursor", "/home/u/.cursor/hooks.json", "cursor"},
		{"copilot", "/home/u/.copilot/config.json", "copilot"},
		{"a command file", "/home/u/.claude/commands/review.md", ""},
		{"settings elsewhere", "/home/u/src/app/settings.json", ""},
		{"a project's gemini file", "/home/u/src/app/.gemini/settings.json", "gemini"},
		{"a project's codex hooks", "/home/u/src/app/.codex/hooks.json", "codex"},
		{"a project's cursor hooks", "/home/u/src/app/.cursor/hooks.json", "cursor"},
		{"copilot user hooks", "/home/u/.copilot/hooks/agentjail.json", "copilot"},
		{"copilot repository hooks", "/home/u/src/app/.github/hooks/checks.json", "copilot"},
		{"a hooks.json elsewhere", "/home/u/src/app/hooks.json", ""},
		{"github workflows are not hooks", "/home/u/src/app/.github/workflows/ci.json", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Agent(tt.path, "/home/u"); got != tt.want {
				t.Errorf("Agent(%s) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

func TestOtherAgentsKeepTheHookName(t *testing.T) {
	cur := []byte("[hooks]\npre_tool_use = \"/home/u/.agentjail/bin/agentjail-hook\"\n")
	read := func(string) ([]byte, error) { return cur, nil }
	for _, agent := range []string{"codex", "gemini", "cursor", "copilot"} {
		t.Run(agent, func(t *testing.T) {
			if j := Judge(agent, "Write", write("model = \"o3\"\n"), "/p", true, read); !j.RemovesGuard {
				t.Error("dropping agentjail-hook was allowed")
			}
			if j := Judge(agent, "Edit", edit("[hooks]", "[hooks]\n# note"), "/p", true, read); j.RemovesGuard {
				t.Errorf("a harmless edit was refused: %s", j.Problem)
			}
		})
	}
}

func TestNested(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		cmd     Cmd
		verdict string // "" for none
	}{
		{"simple mode", "", Cmd{Name: "claude", Assigns: map[string]string{"CLAUDE_CODE_SIMPLE": "1"}}, "deny"},
		{"simple mode, another program first", "", Cmd{Name: "npx", Assigns: map[string]string{"CLAUDE_CODE_SIMPLE": "1"}}, "deny"},
		{"exported", "export CLAUDE_CODE_SIMPLE=1; claude", Cmd{Name: "claude"}, "deny"},
		{"exported among others", "export A=1 AGENTJAIL_SOCKET=/tmp/s && claude -p x", Cmd{Name: "claude"}, "deny"},
		{"bare", "", Cmd{Name: "claude", Args: []string{"--bare", "-p", "x"}}, "deny"},
		{"safe mode", "", Cmd{Name: "claude", Args: []string{"--safe-mode"}}, "deny"},
		{"inline settings", "", Cmd{Name: "claude", Args: []string{"--settings", `{"disableAllHooks": true}`}}, "deny"},
		{"inline settings with =", "", Cmd{Name: "claude", Args: []string{`--settings={"env": {"AGENTJAIL_HOME": "/x"}}`}}, "deny"},
		{"setting sources without user", "", Cmd{Name: "claude", Args: []string{"--setting-sources", "project,local"}}, "deny"},
		{"settings file", "", Cmd{Name: "claude", Args: []string{"--settings", "/tmp/s.json"}}, "ask"},
		{"config dir", "", Cmd{Name: "claude", Assigns: map[string]string{"CLAUDE_CONFIG_DIR": "/tmp/c"}}, "deny"},
		{"plain", "", Cmd{Name: "claude", Args: []string{"-p", "--bare is a flag"}}, ""},
		{"skip permissions keeps hooks", "", Cmd{Name: "claude", Args: []string{"--dangerously-skip-permissions"}}, ""},
		{"harmless inline settings", "", Cmd{Name: "claude", Args: []string{"--settings", `{"model": "opus"}`}}, ""},
		{"user kept", "", Cmd{Name: "claude", Args: []string{"--setting-sources=user,project"}}, ""},
		{"harmless env", "export EDITOR=vim; claude", Cmd{Name: "claude", Assigns: map[string]string{"NODE_ENV": "test"}}, ""},
		{"other program with HOME", "", Cmd{Name: "make", Assigns: map[string]string{"HOME": "/tmp/h"}}, ""},
		{"a prompt after --", "", Cmd{Name: "claude", Args: []string{"-p", "--", "--bare"}}, ""},
		{"copilot headless", "", Cmd{Name: "copilot", Args: []string{"--headless", "--no-auto-update"}}, "deny"},
		{"copilot server", "", Cmd{Name: "copilot", Args: []string{"--server", "--port=0"}}, "deny"},
		{"copilot another version", "", Cmd{Name: "copilot", Args: []string{"--prefer-version=1.0.90", "-p", "x"}}, "ask"},
		{"copilot another copy", "", Cmd{Name: "copilot", Assigns: map[string]string{"COPILOT_CLI_DIST_DIR": "/tmp/c"}}, "ask"},
		{"copilot acp runs the policy hooks", "", Cmd{Name: "copilot", Args: []string{"--acp", "--stdio"}}, ""},
		{"copilot prompt", "", Cmd{Name: "copilot", Args: []string{"-p", "--", "--headless"}}, ""},
		{"headless of another program", "", Cmd{Name: "chromium", Args: []string{"--headless"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Nested(tt.text, "/home/dev", []Cmd{tt.cmd}, nil, nil)
			verdict := ""
			if len(got) > 0 {
				verdict = got[0].Verdict
			}
			if verdict != tt.verdict {
				t.Errorf("verdict %q (%v), want %q", verdict, got, tt.verdict)
			}
		})
	}
}

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "settings.json")
	os.WriteFile(file, []byte(installed), 0o600)
	link := filepath.Join(dir, "link.json")
	os.Symlink(file, link)
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, make([]byte, MaxFileSize+1), 0o600)
	tests := []struct {
		name string
		path string
		err  error
	}{
		{"regular", file, nil},
		{"symlink to a regular file", link, nil},
		{"fifo, without blocking", fifo, ErrNotRegular},
		{"folder", dir, ErrNotRegular},
		{"over the cap", big, ErrTooLarge},
		{"missing", filepath.Join(dir, "nope"), fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ReadRegular(tt.path)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if tt.err == nil && string(b) != installed {
				t.Errorf("read %q", b)
			}
		})
	}
}

// The table's base file really is what the installer writes: its hook is
// found, and it judges itself as guarded.
func TestInstalledFixtureIsGuarded(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal([]byte(installed), &doc); err != nil {
		t.Fatal(err)
	}
	if n := len(ourHooks(doc)); n != 1 {
		t.Fatalf("%d hooks of ours in the fixture", n)
	}
}
