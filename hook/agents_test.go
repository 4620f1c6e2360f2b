package hook

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// Each agent's events through the real hook and daemon: a key read is
// blocked in the agent's own dialect with our reason, a harmless call is
// silence. The Cursor events are the shapes of its documentation.
func TestAgentsAgainstRealDaemon(t *testing.T) {
	d := daemontest.Start(t, nil)
	client := &wire.Client{Socket: d.Socket}
	tests := []struct {
		name, flag, event string
		blocked           bool
		check             func(t *testing.T, stdout, stderr string, code int)
	}{
		{"codex key read", "codex", `{"hook_event_name":"PreToolUse","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"cat ~/.ssh/id_rsa"}}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				if code != 2 || stdout != "" || !strings.Contains(stderr, "ssh") {
					t.Errorf("want exit 2, empty stdout, reason on stderr; got %d %q %q", code, stdout, stderr)
				}
			}},
		{"codex harmless", "codex", `{"hook_event_name":"PreToolUse","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"ls ./src"}}`, false, nil},
		{"gemini key read", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/tmp","tool_name":"read_file","tool_input":{"absolute_path":"~/.ssh/id_rsa"}}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				var out struct{ Decision, Reason string }
				if json.Unmarshal([]byte(stdout), &out) != nil || out.Decision != "deny" || out.Reason == "" || code != 2 {
					t.Errorf("want a top-level deny; got %d %q", code, stdout)
				}
			}},
		{"gemini without the flag", "", `{"hook_event_name":"BeforeTool","cwd":"/tmp","tool_name":"run_shell_command","tool_input":{"command":"cat ~/.ssh/id_rsa"}}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				if !strings.Contains(stdout, `"decision":"deny"`) {
					t.Errorf("an unmistakable Gemini event must be answered in Gemini's terms: %q", stdout)
				}
			}},
		{"gemini harmless", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/tmp","tool_name":"list_directory","tool_input":{"dir_path":"/tmp"}}`, false, nil},
		{"copilot key read", "copilot", `{"timestamp":1,"cwd":"/tmp","toolName":"bash","toolArgs":"{\"command\":\"cat ~/.ssh/id_rsa\"}"}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				var out struct{ PermissionDecision, PermissionDecisionReason string }
				if json.Unmarshal([]byte(stdout), &out) != nil || out.PermissionDecision != "deny" || out.PermissionDecisionReason == "" || code != 0 {
					t.Errorf("want a JSON deny with a reason; got %d %q", code, stdout)
				}
			}},
		{"copilot harmless", "copilot", `{"timestamp":1,"cwd":"/tmp","toolName":"bash","toolArgs":"{\"command\":\"ls ./src\"}"}`, false, nil},
		{"cline key read", "cline", `{"clineVersion":"","timestamp":"2026-11-26T01:35:47.084Z","taskId":"conv_1","sessionContext":{"rootSessionId":"1_u"},"workspaceRoots":["/tmp"],"workspaceInfo":{"rootPath":"/tmp","hint":"tmp"},"userId":"u","agent_id":"agent_1","parent_agent_id":null,"hookName":"tool_call","iteration":1,"tool_call":{"id":"call_1","name":"run_commands","input":{"commands":["cat ~/.ssh/id_rsa"]}},"preToolUse":{"toolName":"run_commands","parameters":{}}}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				var out struct {
					Cancel       bool
					ErrorMessage string
				}
				if json.Unmarshal([]byte(stdout), &out) != nil || !out.Cancel || !strings.Contains(out.ErrorMessage, "ssh") || code != 0 {
					t.Errorf("want a cancel with the reason; got %d %q", code, stdout)
				}
			}},
		{"cline read_files key", "", `{"clineVersion":"","timestamp":"2026-11-26T01:35:47.084Z","taskId":"conv_1","sessionContext":{"rootSessionId":"1_u"},"workspaceRoots":["/tmp"],"workspaceInfo":{"rootPath":"/tmp","hint":"tmp"},"userId":"u","agent_id":"agent_1","parent_agent_id":null,"hookName":"tool_call","iteration":1,"tool_call":{"id":"call_1","name":"read_files","input":{"files":[{"path":"/tmp/a.txt"},{"path":"~/.ssh/id_rsa"}]}},"preToolUse":{"toolName":"read_files","parameters":{}}}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				if !strings.Contains(stdout, `"cancel":true`) {
					t.Errorf("an unmistakable Cline event must be answered in Cline's terms: %q", stdout)
				}
			}},
		{"cline harmless", "cline", `{"clineVersion":"","timestamp":"2026-11-26T01:35:47.084Z","taskId":"conv_1","sessionContext":{"rootSessionId":"1_u"},"workspaceRoots":["/tmp"],"workspaceInfo":{"rootPath":"/tmp","hint":"tmp"},"userId":"u","agent_id":"agent_1","parent_agent_id":null,"hookName":"tool_call","iteration":1,"tool_call":{"id":"call_1","name":"run_commands","input":{"commands":["ls ./src"]}},"preToolUse":{"toolName":"run_commands","parameters":{}}}`, false, nil},
		{"cursor shell key read", "cursor", `{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeShellExecution","command":"cat ~/.ssh/id_rsa","cwd":"/tmp","workspace_roots":["/tmp"]}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				var out struct {
					Permission   string
					AgentMessage string `json:"agent_message"`
				}
				if json.Unmarshal([]byte(stdout), &out) != nil || out.Permission != "deny" || out.AgentMessage == "" {
					t.Errorf("want permission deny with agent_message; got %d %q", code, stdout)
				}
			}},
		{"cursor read file", "cursor", `{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeReadFile","file_path":"~/.ssh/id_rsa","content":"-----BEGIN","attachments":[]}`, true, nil},
		{"cursor mcp", "cursor", `{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeMCPExecution","tool_name":"read_file","tool_input":"{\"path\":\"~/.ssh/id_rsa\"}","command":"npx fs-server"}`, true, nil},
		// Qwen Code's and Droid's events as they sent them (0.24.4, 0.225).
		{"qwen shell key read", "qwen", `{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","timestamp":"2026-01-01T00:00:00.000Z","permission_mode":"default","prompt_id":"p","tool_name":"run_shell_command","tool_input":{"command":"cat ~/.ssh/id_rsa","description":"x"},"tool_use_id":"toolu_1","tool_call_id":"call_1"}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				if code != 2 || !strings.Contains(stdout, `"permissionDecision":"deny"`) || !strings.Contains(stderr, "ssh") {
					t.Errorf("want Claude Code's deny with the reason on stderr, exit 2; got %d %q %q", code, stdout, stderr)
				}
			}},
		{"qwen read_file key read", "qwen", `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"read_file","tool_input":{"file_path":"~/.ssh/id_rsa"},"tool_use_id":"toolu_1","tool_call_id":"call_1"}`, true, nil},
		{"qwen harmless", "qwen", `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"run_shell_command","tool_input":{"command":"ls ./src"},"tool_use_id":"toolu_1","tool_call_id":"call_1"}`, false, nil},
		{"droid execute key read", "droid", `{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"auto-low","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"cat ~/.ssh/id_rsa","riskLevel":"low","riskLevelReason":"reads a file","summary":"x"}}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				if code != 2 || !strings.Contains(stdout, `"permissionDecision":"deny"`) || !strings.Contains(stderr, "ssh") {
					t.Errorf("want Claude Code's deny with the reason on stderr, exit 2; got %d %q %q", code, stdout, stderr)
				}
			}},
		{"droid read key read", "droid", `{"session_id":"s","cwd":"/tmp","permission_mode":"auto-low","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"~/.ssh/id_rsa"}}`, true, nil},
		{"droid harmless", "droid", `{"session_id":"s","cwd":"/tmp","permission_mode":"auto-low","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"ls ./src","riskLevel":"low","riskLevelReason":"lists","summary":"x"}}`, false, nil},
		{"pi key read", "pi", `{"hook_event_name":"tool_call","toolName":"read","toolCallId":"call_1","input":{"path":"@~/.ssh/id_rsa"},"cwd":"/tmp"}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				if code != 2 || stdout != "" || !strings.Contains(stderr, "ssh") {
					t.Errorf("want exit 2, empty stdout, reason on stderr; got %d %q %q", code, stdout, stderr)
				}
			}},
		{"pi without the flag", "", `{"hook_event_name":"tool_call","toolName":"bash","toolCallId":"call_1","input":{"command":"cat ~/.ssh/id_rsa"},"cwd":"/tmp"}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				if code != 2 || stdout != "" {
					t.Errorf("an unmistakable pi event must be answered in pi's terms: %d %q", code, stdout)
				}
			}},
		{"pi harmless", "pi", `{"hook_event_name":"tool_call","toolName":"bash","toolCallId":"call_1","input":{"command":"ls ./src"},"cwd":"/tmp"}`, false, nil},
		{"cursor harmless", "cursor", `{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeShellExecution","command":"ls ./src","cwd":"/tmp"}`, false, nil},
		{"opencode key read", "opencode", `{"hook_event_name":"tool.execute.before","client":"opencode","tool":"read","args":{"filePath":"~/.ssh/id_rsa"},"sessionID":"s","callID":"c","cwd":"/tmp"}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				var out struct{ Decision, Reason string }
				if json.Unmarshal([]byte(stdout), &out) != nil || out.Decision != "deny" || out.Reason == "" || code != 2 || strings.TrimSpace(stderr) != out.Reason {
					t.Errorf("want exit 2, a deny and its reason on stderr; got %d %q %q", code, stdout, stderr)
				}
			}},
		{"kilo shell key read without the flag", "", `{"hook_event_name":"tool.execute.before","client":"kilo","tool":"bash","args":{"command":"cat ~/.ssh/id_rsa"},"sessionID":"s","callID":"c","cwd":"/tmp"}`, true,
			func(t *testing.T, stdout, stderr string, code int) {
				if code != 2 || !strings.Contains(stdout, `"decision":"deny"`) {
					t.Errorf("want exit 2 and a deny; got %d %q", code, stdout)
				}
			}},
		{"opencode harmless", "opencode", `{"hook_event_name":"tool.execute.before","client":"opencode","tool":"bash","args":{"command":"ls ./src"},"cwd":"/tmp"}`, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code, recs := run(t, Options{Client: client, Agent: tt.flag}, strings.NewReader(tt.event))
			if len(recs) != 0 {
				t.Fatalf("failure records %v (stderr %q)", recs, stderr)
			}
			if !tt.blocked {
				if stdout != "" || code != 0 {
					t.Errorf("no objection must be silence: %d %q %q", code, stdout, stderr)
				}
				return
			}
			if stdout == "" && stderr == "" {
				t.Fatalf("blocked call answered nothing (exit %d)", code)
			}
			if tt.check != nil {
				tt.check(t, stdout, stderr, code)
			}
		})
	}
}

// Failing closed answers in the calling agent's dialect too.
func TestAgentsFailClosed(t *testing.T) {
	noDaemon := &wire.Client{Socket: filepath.Join(t.TempDir(), "none.sock")}
	tests := []struct{ name, flag, event, want string }{
		{"codex", "codex", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`, ""},
		{"gemini", "", `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, `"decision":"deny"`},
		{"copilot", "", `{"toolName":"bash","toolArgs":"{}"}`, `"permissionDecision":"deny"`},
		{"cursor", "cursor", `{"hook_event_name":"beforeShellExecution","command":"ls"}`, `"permission":"deny"`},
		{"cline", "", `{"hookName":"tool_call","tool_call":{"id":"c","name":"run_commands","input":{"commands":["ls"]}}}`, `"cancel":true`},
		{"opencode", "", `{"hook_event_name":"tool.execute.before","client":"opencode","tool":"bash","args":{"command":"ls"}}`, `"decision":"deny"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code, _ := run(t, Options{Client: noDaemon, FailClosed: true, Agent: tt.flag, State: "-", AutoStart: "-"}, strings.NewReader(tt.event))
			if tt.want == "" {
				if stdout != "" || code != 2 || !strings.Contains(stderr, "could not check") {
					t.Errorf("codex fail-closed: %d %q %q", code, stdout, stderr)
				}
				return
			}
			if !strings.Contains(stdout, tt.want) || !strings.Contains(stdout, "could not check") {
				t.Errorf("stdout %q, want %s with the reason", stdout, tt.want)
			}
		})
	}
}

// One tool call reaching the hook twice, in two shapes (Cursor's
// preToolUse and beforeShellExecution for one shell call, golden events
// of its documentation; Copilot's own hook and a Claude-format one), is
// decided and answered both times in each event's dialect, but logged
// and listed among recent blocks once. Calls that only look alike are
// logged each time.
func TestOneCallTwoHooksLoggedOnce(t *testing.T) {
	const (
		cursorPre   = `{"conversation_id":"c-1","generation_id":"g-1","model":"m","hook_event_name":"preToolUse","cursor_version":"2.1.0","workspace_roots":["/work/p"],"user_email":null,"transcript_path":null,"tool_name":"Shell","tool_input":{"command":"cat ~/.ssh/id_rsa","working_directory":"/work/p","timeout":30000},"tool_use_id":"call-1","cwd":"/work/p"}`
		cursorShell = `{"conversation_id":"c-1","generation_id":"g-1","model":"m","hook_event_name":"beforeShellExecution","cursor_version":"2.1.0","workspace_roots":["/work/p"],"user_email":null,"transcript_path":null,"command":"cat ~/.ssh/id_rsa","cwd":"/work/p","sandbox":false}`
	)
	type call struct{ flag, event, want string }
	tests := []struct {
		name    string
		calls   []call
		records int
	}{
		{"cursor preToolUse then beforeShellExecution", []call{{"cursor", cursorPre, `"permission":"deny"`}, {"cursor", cursorShell, `"permission":"deny"`}}, 1},
		{"cursor, the same call run again", []call{{"cursor", cursorPre, `"permission":"deny"`}, {"cursor", cursorShell, `"permission":"deny"`}, {"cursor", cursorPre, `"permission":"deny"`}, {"cursor", cursorShell, `"permission":"deny"`}}, 2},
		{"cursor, another conversation", []call{{"cursor", cursorPre, `"permission":"deny"`}, {"cursor", strings.Replace(cursorShell, `"c-1"`, `"c-2"`, 1), `"permission":"deny"`}}, 2},
		{"cursor, another command", []call{{"cursor", cursorPre, `"permission":"deny"`}, {"cursor", strings.Replace(cursorShell, "id_rsa", "id_ed25519", 1), `"permission":"deny"`}}, 2},
		{"copilot and its claude-format hook", []call{
			{"copilot", `{"timestamp":1,"cwd":"/work/p","toolName":"bash","toolArgs":{"command":"cat ~/.ssh/id_rsa","description":"x"}}`, `"permissionDecision":"deny"`},
			{"", `{"session_id":"s","cwd":"/work/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat ~/.ssh/id_rsa"}}`, `"permissionDecision":"deny"`},
		}, 1},
		{"claude-code twice is two calls", []call{
			{"", `{"session_id":"s","cwd":"/work/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat ~/.ssh/id_rsa"}}`, `"permissionDecision":"deny"`},
			{"", `{"session_id":"s","cwd":"/work/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat ~/.ssh/id_rsa"}}`, `"permissionDecision":"deny"`},
		}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := daemontest.Start(t, nil)
			client := &wire.Client{Socket: d.Socket}
			for i, c := range tt.calls {
				stdout, stderr, _, recs := run(t, Options{Client: client, Agent: c.flag}, strings.NewReader(c.event))
				if len(recs) != 0 || !strings.Contains(stdout, c.want) || !strings.Contains(stdout, "ssh") {
					t.Errorf("call %d: not blocked in its dialect: %q %q %v", i, stdout, stderr, recs)
				}
			}
			d.Stop(t) // every decision is logged before it returns
			recs, err := decisionlog.Read(filepath.Join(d.Home, "decisions.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != tt.records {
				t.Errorf("%d log records, want %d: %+v", len(recs), tt.records, recs)
			}
			if got := d.RecentDenies(10); len(got) != tt.records {
				t.Errorf("%d recent blocks, want %d", len(got), tt.records)
			}
		})
	}
}
