package hook

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/daemon/daemontest"
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
		{"cursor harmless", "cursor", `{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeShellExecution","command":"ls ./src","cwd":"/tmp"}`, false, nil},
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
