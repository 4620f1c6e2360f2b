package agents

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/internal/wire"
)

var update = flag.Bool("update", false, "rewrite golden files")

func event(t *testing.T, s string) map[string]any {
	t.Helper()
	m := agent.Decode([]byte(s))
	if m == nil {
		t.Fatalf("not an object: %s", s)
	}
	return m
}

func TestFor(t *testing.T) {
	tests := []struct {
		name, event, flag, want string
	}{
		{"claude by default", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "", "claude-code"},
		{"codex by flag", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "codex", "codex"},
		{"qwen by flag", `{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_call_id":"call_1"}`, "qwen", "qwen"},
		{"droid by flag", `{"hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"ls"}}`, "droid", "droid"},
		{"droid alias", `{"tool_name":"Execute"}`, "factory-droid", "droid"},
		{"alias", `{"tool_name":"Bash"}`, "Gemini-CLI", "gemini"},
		{"unknown flag falls back to claude", `{"tool_name":"Bash"}`, "vim", "claude-code"},
		{"gemini by shape", `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, "claude-code", "gemini"},
		{"copilot by shape", `{"timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`, "", "copilot"},
		{"copilot shape wins over a codex flag", `{"toolName":"bash","toolArgs":"{}"}`, "codex", "copilot"},
		{"cursor shell by shape", `{"hook_event_name":"beforeShellExecution","command":"ls","cwd":"/w"}`, "", "cursor"},
		{"pi by shape", `{"hook_event_name":"tool_call","toolName":"bash","toolCallId":"c","input":{"command":"ls"},"cwd":"/w"}`, "claude-code", "pi"},
		{"opencode by shape", `{"hook_event_name":"tool.execute.before","client":"opencode","tool":"bash","args":{"command":"ls"}}`, "", "opencode"},
		{"kilo by shape", `{"hook_event_name":"tool.execute.before","client":"kilo","tool":"bash","args":{"command":"ls"}}`, "opencode", "kilo"},
		{"plugin event without a client is opencode's", `{"hook_event_name":"tool.execute.before","tool":"bash","args":{}}`, "", "opencode"},
		{"cursor preToolUse by shape", `{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"ls"}}`, "", "cursor"},
		{"cline by shape", `{"clineVersion":"","timestamp":"2026-11-26T01:35:47.084Z","taskId":"conv_1","sessionContext":{"rootSessionId":"1_ui5sm"},"workspaceRoots":["/w"],"workspaceInfo":{"rootPath":"/w","hint":"w"},"userId":"u","agent_id":"agent_1","parent_agent_id":null,"hookName":"tool_call","iteration":1,"tool_call":{"id":"call_1","name":"run_commands","input":{"commands":["ls"]}},"preToolUse":{"toolName":"run_commands","parameters":{"commands":"[\"ls\"]"}}}`, "claude-code", "cline"},
		{"cline result event is not a tool call", `{"hookName":"tool_result","tool_result":{}}`, "codex", "codex"},
		{"cline extension shape", `{"clineVersion":"3.40.0","hookName":"PreToolUse","taskId":"t","workspaceRoots":["/w"],"preToolUse":{"toolName":"execute_command","parameters":{"command":"ls"}}}`, "", "cline"},
		// Look-alikes that must not be taken for another agent.
		{"claude event with a toolName inside tool_input", `{"tool_name":"Bash","tool_input":{"toolName":"x","toolArgs":"{}"}}`, "", "claude-code"},
		{"claude PreToolUse is not cursor's preToolUse", `{"hook_event_name":"PreToolUse","tool_name":"Read"}`, "", "claude-code"},
		{"both shapes: claude's keys win over copilot's", `{"tool_name":"Bash","toolName":"bash","toolArgs":"{}"}`, "", "claude-code"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := For(event(t, tt.event), tt.flag).Name(); got != tt.want {
				t.Errorf("For = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		name, agent, event string
		kind, like         string
		input              string // LikeInput as JSON, "" to skip
	}{
		{"claude bash", "claude-code", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`, agent.KindShell, "Bash", `{"command":"ls"}`},
		{"claude unknown tool", "claude-code", `{"tool_name":"Frobnicate","tool_input":{}}`, "", "Frobnicate", `{}`},
		{"codex bash", "codex", `{"tool_name":"Bash","tool_input":{"command":"cat ~/.ssh/id_rsa"}}`, agent.KindShell, "Bash", `{"command":"cat ~/.ssh/id_rsa"}`},
		{"codex apply_patch update", "codex", `{"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch\n"}}`, agent.KindEdit, "apply_patch", ""},
		{"codex apply_patch add only", "codex", `{"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a.go\n+x\n*** End Patch"}}`, agent.KindWrite, "apply_patch", ""},
		{"codex mcp", "codex", `{"tool_name":"mcp__fs__read_file","tool_input":{"path":"/x"}}`, "", "mcp__fs__read_file", `{"path":"/x"}`},
		{"gemini shell", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","description":"list"}}`, agent.KindShell, "Bash", `{"command":"ls","description":"list"}`},
		{"gemini shell in dir_path", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build","dir_path":"/"}}`, agent.KindShell, "Bash", `{"command":"rm -rf build","dir_path":"/"}`},
		{"gemini read absolute_path", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"absolute_path":"/h/.ssh/id_rsa"}}`, agent.KindRead, "Read", `{"absolute_path":"/h/.ssh/id_rsa","file_path":"/h/.ssh/id_rsa"}`},
		{"gemini read file_path", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"a.txt"}}`, agent.KindRead, "Read", `{"file_path":"a.txt"}`},
		{"gemini write", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"a","content":"x"}}`, agent.KindWrite, "Write", `{"file_path":"a","content":"x"}`},
		{"gemini replace many", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":3}}`, agent.KindEdit, "Edit", `{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":3,"replace_all":true}`},
		{"gemini grep", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"grep_search","tool_input":{"pattern":"k","dir_path":"~","include":"*.pem"}}`, agent.KindSearch, "Grep", `{"pattern":"k","dir_path":"~","path":"~","include":"*.pem","glob":"*.pem"}`},
		{"gemini list", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"list_directory","tool_input":{"dir_path":"/etc"}}`, agent.KindList, "LS", `{"dir_path":"/etc","path":"/etc"}`},
		{"gemini web_fetch url in prompt", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"summarise http://169.254.169.254/latest and https://example.com/"}}`, agent.KindFetch, "WebFetch", `{"prompt":"summarise http://169.254.169.254/latest and https://example.com/","url":"http://169.254.169.254/latest","urls":["http://169.254.169.254/latest","https://example.com/"]}`},
		{"gemini mcp single underscore", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"mcp_shell_run_command","tool_input":{"command":"ls"}}`, "", "mcp__shell_run_command", `{"command":"ls"}`},
		{"gemini memory tool", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"save_memory","tool_input":{"fact":"x"}}`, agent.KindMemory, "save_memory", `{"fact":"x"}`},
		{"gemini unknown tool", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"frobnicate","tool_input":{"a":1}}`, agent.KindOther, "frobnicate", `{"a":1}`},
		{"copilot bash args string", "copilot", `{"toolName":"bash","toolArgs":"{\"command\":\"rm -rf dist\",\"description\":\"clean\"}"}`, agent.KindShell, "Bash", `{"command":"rm -rf dist","description":"clean"}`},
		{"copilot bash args object", "copilot", `{"toolName":"bash","toolArgs":{"command":"ls"}}`, agent.KindShell, "Bash", `{"command":"ls"}`},
		{"copilot bash args not JSON", "copilot", `{"toolName":"bash","toolArgs":"rm -rf ~"}`, agent.KindShell, "Bash", `"rm -rf ~"`},
		{"copilot write_bash types a command", "copilot", `{"toolName":"write_bash","toolArgs":"{\"sessionId\":\"1\",\"input\":\"cat ~/.aws/credentials\\n\"}"}`, agent.KindShell, "Bash", `{"sessionId":"1","input":"cat ~/.aws/credentials\n","command":"cat ~/.aws/credentials\n"}`},
		{"copilot view", "copilot", `{"toolName":"view","toolArgs":"{\"path\":\"/h/.ssh/id_rsa\"}"}`, agent.KindRead, "Read", `{"path":"/h/.ssh/id_rsa","file_path":"/h/.ssh/id_rsa"}`},
		{"copilot create", "copilot", `{"toolName":"create","toolArgs":"{\"path\":\"a\",\"file_text\":\"x\"}"}`, agent.KindWrite, "Write", `{"path":"a","file_path":"a","file_text":"x","content":"x"}`},
		{"copilot edit", "copilot", `{"toolName":"edit","toolArgs":"{\"path\":\"a\",\"old_str\":\"x\",\"new_str\":\"y\"}"}`, agent.KindEdit, "Edit", `{"path":"a","file_path":"a","old_str":"x","old_string":"x","new_str":"y","new_string":"y"}`},
		{"cursor shell", "cursor", `{"hook_event_name":"beforeShellExecution","command":"cat .env","cwd":"/w"}`, agent.KindShell, "Bash", `{"command":"cat .env"}`},
		{"cursor read", "cursor", `{"hook_event_name":"beforeReadFile","file_path":"/w/.env","content":"K=V"}`, agent.KindRead, "Read", `{"file_path":"/w/.env"}`},
		{"cline run_commands", "cline", `{"hookName":"tool_call","workspaceRoots":["/w"],"tool_call":{"id":"c","name":"run_commands","input":{"commands":["cat ~/.ssh/id_rsa","ls"]}}}`, agent.KindShell, "Bash", `{"command":"cat ~/.ssh/id_rsa\nls"}`},
		{"cline run_commands argv", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"run_commands","input":{"commands":[{"command":"cat","args":["/h/my key"]}]}}}`, agent.KindShell, "Bash", `{"command":"cat '/h/my key'"}`},
		{"cline run_commands one string", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"run_commands","input":"rm -rf dist"}}`, agent.KindShell, "Bash", `{"command":"rm -rf dist"}`},
		{"cline run_commands command line", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"run_commands","input":{"command":"rm -rf dist"}}}`, agent.KindShell, "Bash", `{"command":"rm -rf dist"}`},
		{"cline run_commands unreadable", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"run_commands","input":{"commands":[7]}}}`, agent.KindShell, "Bash", `{"commands":[7]}`},
		{"cline read_files", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"read_files","input":{"files":[{"path":"/w/a"},{"path":"/h/.ssh/id_rsa","start_line":1,"end_line":null}]}}}`, agent.KindRead, "Read", `{"file_path":"/w/a","paths":["/w/a","/h/.ssh/id_rsa"]}`},
		{"cline read_files file_paths", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"read_files","input":{"file_paths":["a","b"]}}}`, agent.KindRead, "Read", `{"file_path":"a","paths":["a","b"]}`},
		{"cline read_files a string", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"read_files","input":"/h/.ssh/id_rsa"}}`, agent.KindRead, "Read", `{"file_path":"/h/.ssh/id_rsa","paths":["/h/.ssh/id_rsa"]}`},
		{"cline editor replace", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"editor","input":{"path":"/w/a","old_text":"x","new_text":"y"}}}`, agent.KindEdit, "Edit", `{"path":"/w/a","file_path":"/w/a","old_text":"x","old_string":"x","new_text":"y","new_string":"y"}`},
		{"cline editor create", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"editor","input":{"path":"/w/a","new_text":"y"}}}`, agent.KindWrite, "Write", `{"path":"/w/a","file_path":"/w/a","new_text":"y","new_string":"y","content":"y"}`},
		{"cline apply_patch", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"apply_patch","input":{"input":"*** Begin Patch\n*** Add File: a.go\n+x\n*** End Patch"}}}`, agent.KindWrite, "apply_patch", ""},
		{"cline search_codebase", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"search_codebase","input":{"queries":["BEGIN OPENSSH","x"]}}}`, agent.KindSearch, "Grep", `{"queries":["BEGIN OPENSSH","x"],"pattern":"BEGIN OPENSSH"}`},
		{"cline fetch_web_content", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"fetch_web_content","input":{"requests":[{"url":"http://169.254.169.254/","prompt":"read"}]}}}`, agent.KindFetch, "WebFetch", `{"requests":[{"url":"http://169.254.169.254/","prompt":"read"}],"url":"http://169.254.169.254/","urls":["http://169.254.169.254/"]}`},
		{"cline spawn_agent", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"spawn_agent","input":{"systemPrompt":"s","task":"t"}}}`, agent.KindAgent, "Task", `{"systemPrompt":"s","description":"s","task":"t","prompt":"t"}`},
		{"cline team tool", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"team_spawn_teammate","input":{}}}`, agent.KindAgent, "team_spawn_teammate", `{}`},
		{"cline mcp", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"fs__read_file","input":{"path":"/x"}}}`, "", "mcp__fs__read_file", `{"path":"/x"}`},
		{"cline unknown tool", "cline", `{"hookName":"tool_call","tool_call":{"id":"c","name":"frobnicate","input":{"a":1}}}`, agent.KindOther, "frobnicate", `{"a":1}`},
		{"cline extension execute_command", "cline", `{"clineVersion":"3.40.0","hookName":"PreToolUse","preToolUse":{"toolName":"execute_command","parameters":{"command":"cat ~/.ssh/id_rsa","requires_approval":"false"}}}`, agent.KindShell, "Bash", `{"command":"cat ~/.ssh/id_rsa","requires_approval":"false"}`},
		{"cline extension write_to_file", "cline", `{"clineVersion":"3.40.0","hookName":"PreToolUse","preToolUse":{"toolName":"write_to_file","parameters":{"path":"a","content":"x"}}}`, agent.KindWrite, "Write", `{"path":"a","file_path":"a","content":"x"}`},
		{"cline extension read_file", "cline", `{"clineVersion":"3.40.0","hookName":"PreToolUse","preToolUse":{"toolName":"read_file","parameters":{"path":"/h/.ssh/id_rsa"}}}`, agent.KindRead, "Read", `{"file_path":"/h/.ssh/id_rsa","paths":["/h/.ssh/id_rsa"]}`},
		{"cursor mcp string input", "cursor", `{"hook_event_name":"beforeMCPExecution","tool_name":"run_command","tool_input":"{\"command\":\"ls\"}"}`, "", "mcp__run_command", `{"command":"ls"}`},
		{"cursor preToolUse write", "cursor", `{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":{"path":"a","contents":"x"}}`, agent.KindWrite, "Write", `{"path":"a","file_path":"a","contents":"x","content":"x"}`},
		{"opencode bash", "opencode", `{"hook_event_name":"tool.execute.before","tool":"bash","args":{"command":"ls","description":"list"}}`, agent.KindShell, "Bash", `{"command":"ls","description":"list"}`},
		{"opencode read", "opencode", `{"hook_event_name":"tool.execute.before","tool":"read","args":{"filePath":"/h/.ssh/id_rsa"}}`, agent.KindRead, "Read", `{"filePath":"/h/.ssh/id_rsa","file_path":"/h/.ssh/id_rsa"}`},
		{"opencode write", "opencode", `{"hook_event_name":"tool.execute.before","tool":"write","args":{"filePath":"a","content":"x"}}`, agent.KindWrite, "Write", `{"filePath":"a","file_path":"a","content":"x"}`},
		{"opencode edit", "opencode", `{"hook_event_name":"tool.execute.before","tool":"edit","args":{"filePath":"a","oldString":"x","newString":"y","replaceAll":true}}`, agent.KindEdit, "Edit", `{"filePath":"a","file_path":"a","oldString":"x","old_string":"x","newString":"y","new_string":"y","replaceAll":true,"replace_all":true}`},
		{"opencode multiedit", "opencode", `{"hook_event_name":"tool.execute.before","tool":"multiedit","args":{"filePath":"a","edits":[{"filePath":"a","oldString":"x","newString":"y"}]}}`, agent.KindEdit, "MultiEdit", `{"filePath":"a","file_path":"a","edits":[{"filePath":"a","file_path":"a","oldString":"x","old_string":"x","newString":"y","new_string":"y"}]}`},
		{"opencode grep", "opencode", `{"hook_event_name":"tool.execute.before","tool":"grep","args":{"pattern":"k","path":"/h","include":"*.pem"}}`, agent.KindSearch, "Grep", `{"pattern":"k","path":"/h","include":"*.pem","glob":"*.pem"}`},
		{"opencode list", "opencode", `{"hook_event_name":"tool.execute.before","tool":"list","args":{"path":"/etc"}}`, agent.KindList, "LS", `{"path":"/etc"}`},
		{"opencode webfetch", "opencode", `{"hook_event_name":"tool.execute.before","tool":"webfetch","args":{"url":"http://169.254.169.254/","format":"text"}}`, agent.KindFetch, "WebFetch", `{"url":"http://169.254.169.254/","format":"text"}`},
		{"opencode task", "opencode", `{"hook_event_name":"tool.execute.before","tool":"task","args":{"prompt":"p","subagent_type":"general"}}`, agent.KindAgent, "Task", `{"prompt":"p","subagent_type":"general"}`},
		{"opencode apply_patch", "opencode", `{"hook_event_name":"tool.execute.before","tool":"apply_patch","args":{"patchText":"*** Begin Patch\n*** Add File: a.go\n+x\n*** End Patch"}}`, agent.KindWrite, "apply_patch", ""},
		{"opencode todowrite", "opencode", `{"hook_event_name":"tool.execute.before","tool":"todowrite","args":{"todos":[]}}`, agent.KindTodo, "TodoWrite", `{"todos":[]}`},
		{"opencode mcp tool", "opencode", `{"hook_event_name":"tool.execute.before","tool":"fs_write_file","args":{"path":"a"}}`, "", "mcp__fs_write_file", `{"path":"a"}`},
		{"kilo background_process start", "kilo", `{"hook_event_name":"tool.execute.before","client":"kilo","tool":"background_process","args":{"action":"start","command":"npm run dev"}}`, agent.KindShell, "Bash", `{"action":"start","command":"npm run dev"}`},
		{"kilo background_process list", "kilo", `{"hook_event_name":"tool.execute.before","client":"kilo","tool":"background_process","args":{"action":"list"}}`, agent.KindOther, "background_process", `{"action":"list"}`},
		{"pi bash", "pi", `{"hook_event_name":"tool_call","toolName":"bash","toolCallId":"c","input":{"command":"cat ~/.ssh/id_rsa","timeout":5}}`, agent.KindShell, "Bash", `{"command":"cat ~/.ssh/id_rsa","timeout":5}`},
		{"pi read", "pi", `{"hook_event_name":"tool_call","toolName":"read","input":{"path":"~/.ssh/id_rsa","offset":1}}`, agent.KindRead, "Read", `{"path":"~/.ssh/id_rsa","file_path":"~/.ssh/id_rsa","offset":1}`},
		{"pi read drops @ as pi does", "pi", `{"hook_event_name":"tool_call","toolName":"read","input":{"path":"@~/.ssh/id\u00a0rsa"}}`, agent.KindRead, "Read", `{"path":"~/.ssh/id rsa","file_path":"~/.ssh/id rsa"}`},
		{"pi write", "pi", `{"hook_event_name":"tool_call","toolName":"write","input":{"path":"a","content":"x"}}`, agent.KindWrite, "Write", `{"path":"a","file_path":"a","content":"x"}`},
		{"pi edit one", "pi", `{"hook_event_name":"tool_call","toolName":"edit","input":{"path":"a","edits":[{"oldText":"x","newText":"y"}]}}`, agent.KindEdit, "Edit", `{"path":"a","file_path":"a","old_string":"x","new_string":"y"}`},
		{"pi edit many", "pi", `{"hook_event_name":"tool_call","toolName":"edit","input":{"path":"a","edits":[{"oldText":"x","newText":"y"},{"oldText":"p","newText":"q"}]}}`, agent.KindEdit, "MultiEdit", `{"path":"a","file_path":"a","edits":[{"oldText":"x","old_string":"x","newText":"y","new_string":"y"},{"oldText":"p","old_string":"p","newText":"q","new_string":"q"}]}`},
		{"pi grep", "pi", `{"hook_event_name":"tool_call","toolName":"grep","input":{"pattern":"k","path":"~","glob":"*.pem"}}`, agent.KindSearch, "Grep", `{"pattern":"k","path":"~","glob":"*.pem"}`},
		{"pi find", "pi", `{"hook_event_name":"tool_call","toolName":"find","input":{"pattern":"*.pem","path":"~/.ssh"}}`, agent.KindSearch, "Glob", `{"pattern":"*.pem","path":"~/.ssh"}`},
		{"pi ls", "pi", `{"hook_event_name":"tool_call","toolName":"ls","input":{"path":"/etc"}}`, agent.KindList, "LS", `{"path":"/etc"}`},
		{"pi extension tool", "pi", `{"hook_event_name":"tool_call","toolName":"todo","input":{"action":"list"}}`, agent.KindOther, "todo", `{"action":"list"}`},
		{"qwen shell", "qwen", `{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"cat ~/.ssh/id_rsa","description":"x"}}`, agent.KindShell, "Bash", `{"command":"cat ~/.ssh/id_rsa","description":"x"}`},
		{"qwen read", "qwen", `{"hook_event_name":"PreToolUse","tool_name":"read_file","tool_input":{"file_path":"/h/.ssh/id_rsa"}}`, agent.KindRead, "Read", `{"file_path":"/h/.ssh/id_rsa"}`},
		{"qwen write", "qwen", `{"tool_name":"write_file","tool_input":{"file_path":"a","content":"x"}}`, agent.KindWrite, "Write", `{"file_path":"a","content":"x"}`},
		{"qwen edit", "qwen", `{"tool_name":"edit","tool_input":{"file_path":"a","old_string":"x","new_string":"y","replace_all":true}}`, agent.KindEdit, "Edit", `{"file_path":"a","old_string":"x","new_string":"y","replace_all":true}`},
		{"qwen legacy replace", "qwen", `{"tool_name":"replace","tool_input":{"file_path":"a","old_string":"x","new_string":"y"}}`, agent.KindEdit, "Edit", `{"file_path":"a","old_string":"x","new_string":"y"}`},
		{"qwen tool_call runs the tool it names", "qwen", `{"tool_name":"tool_call","tool_input":{"name":"Read_File","arguments":{"file_path":"/h/.ssh/id_rsa"}}}`, agent.KindRead, "Read", `{"file_path":"/h/.ssh/id_rsa"}`},
		{"qwen tool_call arguments as a string", "qwen", `{"tool_name":"tool_call","tool_input":{"name":"run_shell_command","arguments":"{\"command\":\"ls\"}"}}`, agent.KindShell, "Bash", `{"command":"ls"}`},
		{"qwen tool_call of an mcp tool", "qwen", `{"tool_name":"tool_call","tool_input":{"name":"mcp__fs__read","arguments":{"path":"/x"}}}`, "", "mcp__fs__read", `{"path":"/x"}`},
		{"qwen memory tool", "qwen", `{"tool_name":"save_memory","tool_input":{"fact":"x"}}`, agent.KindMemory, "save_memory", `{"fact":"x"}`},
		{"qwen unknown tool", "qwen", `{"tool_name":"frobnicate","tool_input":{"a":1}}`, agent.KindOther, "frobnicate", `{"a":1}`},
		{"droid execute keeps riskLevel", "droid", `{"hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"rm -rf ~","riskLevel":"low","riskLevelReason":"harmless"}}`, agent.KindShell, "Bash", `{"command":"rm -rf ~","riskLevel":"low","riskLevelReason":"harmless"}`},
		{"droid read", "droid", `{"tool_name":"Read","tool_input":{"file_path":"/h/.ssh/id_rsa"}}`, agent.KindRead, "Read", `{"file_path":"/h/.ssh/id_rsa"}`},
		{"droid create", "droid", `{"tool_name":"Create","tool_input":{"file_path":"a","content":"x"}}`, agent.KindWrite, "Write", `{"file_path":"a","content":"x"}`},
		{"droid edit", "droid", `{"tool_name":"Edit","tool_input":{"file_path":"a","old_str":"x","new_str":"y","change_all":true}}`, agent.KindEdit, "Edit", `{"file_path":"a","old_str":"x","old_string":"x","new_str":"y","new_string":"y","change_all":true,"replace_all":true}`},
		{"droid ls", "droid", `{"tool_name":"LS","tool_input":{"directory_path":"/etc"}}`, agent.KindList, "LS", `{"directory_path":"/etc","path":"/etc"}`},
		{"droid glob", "droid", `{"tool_name":"Glob","tool_input":{"patterns":["**/*.pem","*.key"],"folder":"~"}}`, agent.KindSearch, "Glob", `{"patterns":["**/*.pem","*.key"],"pattern":"**/*.pem","folder":"~","path":"~"}`},
		{"droid apply patch", "droid", `{"tool_name":"ApplyPatch","tool_input":{"input":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"}}`, agent.KindWrite, "apply_patch", ""},
		{"droid to-do list", "droid", `{"tool_name":"TodoWrite","tool_input":{}}`, agent.KindTodo, "TodoWrite", `{}`},
		{"droid unknown tool", "droid", `{"tool_name":"Frobnicate","tool_input":{}}`, agent.KindOther, "Frobnicate", `{}`},
		{"cursor preToolUse mcp", "cursor", `{"hook_event_name":"preToolUse","tool_name":"MCP:fs:write_file","tool_input":{"path":"a"}}`, "", "mcp__fs__write_file", `{"path":"a"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := Lookup(tt.agent)
			c := a.Canonical(event(t, tt.event))
			if c.Kind != tt.kind || c.Like != tt.like {
				t.Errorf("kind %q like %q, want %q %q", c.Kind, c.Like, tt.kind, tt.like)
			}
			if tt.input != "" {
				var want any
				d := json.NewDecoder(strings.NewReader(tt.input))
				d.UseNumber()
				d.Decode(&want)
				if !reflect.DeepEqual(c.LikeInput, want) {
					got, _ := json.Marshal(c.LikeInput)
					t.Errorf("input %s, want %s", got, tt.input)
				}
			}
		})
	}
}

func TestRenderGolden(t *testing.T) {
	decisions := []struct {
		name string
		dec  wire.Decision
	}{
		{"deny", wire.Decision{Verdict: wire.Deny, Reason: "Blocked: ~/.ssh/id_rsa is a private key & <secret>"}},
		{"deny_empty_reason", wire.Decision{Verdict: wire.Deny}},
		{"ask", wire.Decision{Verdict: wire.Ask, Reason: "Publishing a package cannot be undone"}},
		{"allow_explicit", wire.Decision{Verdict: wire.Allow, Explicit: true, Reason: "ls is harmless"}},
		{"allow_no_rule", wire.Decision{Verdict: wire.Allow}},
		{"unknown_verdict", wire.Decision{Verdict: "maybe"}},
	}
	events := map[string]string{
		"claude-code": `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"x"}}`,
		"codex":       `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"x"}}`,
		"gemini":      `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"x"}}`,
		"copilot":     `{"toolName":"bash","toolArgs":"{\"command\":\"x\"}"}`,
		"cursor":      `{"hook_event_name":"beforeShellExecution","command":"x"}`,
		"opencode":    `{"hook_event_name":"tool.execute.before","client":"opencode","tool":"bash","args":{"command":"x"}}`,
		"kilo":        `{"hook_event_name":"tool.execute.before","client":"kilo","tool":"bash","args":{"command":"x"}}`,
		"pi":          `{"hook_event_name":"tool_call","toolName":"bash","toolCallId":"call_1","input":{"command":"x"},"cwd":"/w"}`,
		"qwen":        `{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"x"}}`,
		"droid":       `{"hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"x"}}`,
		"cline":       `{"hookName":"tool_call","tool_call":{"id":"c","name":"run_commands","input":{"commands":["x"]}}}`,
	}
	for _, name := range Names() {
		a, _ := Lookup(name)
		var got strings.Builder
		for _, d := range decisions {
			ans := a.Render(event(t, events[name]), &d.dec)
			got.WriteString("== " + d.name + "\nstdout: " + string(ans.Stdout) + "\nstderr: " + ans.Stderr + "\nexit: " + string(rune('0'+ans.Exit)) + "\n")
			checkContract(t, name, d.dec, ans)
		}
		// A call the hook lets run unchecked is said to the user where
		// the agent shows a hook's message (the systemMessage of Claude
		// Code, Gemini CLI and Codex), and on stderr for every agent; it
		// decides nothing.
		ans := agent.Notice(a, event(t, events[name]), "agentjail: no agentjail daemon is running; this call was allowed unchecked")
		got.WriteString("== fail_open_notice\nstdout: " + string(ans.Stdout) + "\nstderr: " + ans.Stderr + "\nexit: " + string(rune('0'+ans.Exit)) + "\n")
		checkNotice(t, name, ans)
		golden := filepath.Join("testdata", name+".golden")
		if *update {
			os.WriteFile(golden, []byte(got.String()), 0o644)
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./agent -update to create it)", err)
		}
		if got.String() != string(want) {
			t.Errorf("%s: got\n%s\nwant\n%s", name, got.String(), want)
		}
	}
}

// checkContract asserts the contract table for each agent, apart
// from the exact bytes the golden files pin.
func checkContract(t *testing.T, agent string, d wire.Decision, a agent.Answer) {
	t.Helper()
	blocked := d.Verdict == wire.Deny || d.Verdict != wire.Allow && d.Verdict != wire.Ask
	switch {
	case d.Verdict == wire.Allow && !(agent == "claude-code" && d.Explicit):
		// No objection is silence, never an explicit allow.
		if len(a.Stdout) != 0 || a.Exit != 0 {
			t.Errorf("%s %v: no objection must be silent, got %q exit %d", agent, d.Verdict, a.Stdout, a.Exit)
		}
	case (agent == "opencode" || agent == "kilo") && (blocked || d.Verdict == wire.Ask):
		// The plugin throws the reason of exit 2.
		var out struct{ Decision, Reason string }
		if json.Unmarshal(a.Stdout, &out) != nil || out.Decision != "deny" || out.Reason == "" || a.Exit != 2 || strings.TrimSpace(a.Stderr) != out.Reason {
			t.Errorf("%s %v: want exit 2 with a deny and its reason, got %+v", agent, d.Verdict, a)
		}
		if d.Verdict == wire.Ask && !strings.Contains(out.Reason, "human must approve") {
			t.Errorf("%s ask: the deny must say a human must approve: %q", agent, out.Reason)
		}
	case (agent == "codex" || agent == "pi") && (blocked || d.Verdict == wire.Ask):
		if a.Exit != 2 || strings.TrimSpace(a.Stderr) == "" || len(a.Stdout) != 0 {
			t.Errorf("%s %v: want exit 2 with a reason on stderr and nothing on stdout, got %+v", agent, d.Verdict, a)
		}
		if d.Verdict == wire.Ask && !strings.Contains(a.Stderr, "human must approve") {
			t.Errorf("%s ask: the deny must say a human must approve: %q", agent, a.Stderr)
		}
	case agent == "gemini" && (blocked || d.Verdict == wire.Ask):
		var out struct{ Decision, Reason string }
		if json.Unmarshal(a.Stdout, &out) != nil || out.Decision != "deny" || out.Reason == "" || a.Exit != 2 {
			t.Errorf("gemini %v: want a top-level deny with a reason, got %+v", d.Verdict, a)
		}
	case (agent == "qwen" || agent == "droid") && (blocked || d.Verdict == wire.Ask):
		var out claude.ClaudeOutput
		json.Unmarshal(a.Stdout, &out)
		want, exit := "deny", 2
		if agent == "qwen" && d.Verdict == wire.Ask {
			// Qwen Code asks the user where it can, and refuses headless.
			want, exit = "ask", 0
		}
		r := out.HookSpecificOutput.PermissionDecisionReason
		if out.HookSpecificOutput.PermissionDecision != want || r == "" || a.Exit != exit {
			t.Errorf("%s %v: want %q with a reason, exit %d; got %+v", agent, d.Verdict, want, exit, a)
		}
		if d.Verdict == wire.Ask && !strings.Contains(r, "must approve") {
			t.Errorf("%s ask: the reason must say a person must approve: %q", agent, r)
		}
		if exit == 2 && strings.TrimSpace(a.Stderr) != r {
			t.Errorf("%s %v: stderr %q, want the same reason as the JSON's", agent, d.Verdict, a.Stderr)
		}
	case agent == "copilot" && blocked:
		var out struct{ PermissionDecision, PermissionDecisionReason string }
		if json.Unmarshal(a.Stdout, &out) != nil || out.PermissionDecision != "deny" || out.PermissionDecisionReason == "" {
			t.Errorf("copilot deny: got %+v", a)
		}
	case agent == "cline" && (blocked || d.Verdict == wire.Ask):
		// Cline reads only its JSON; a cancel stops the run.
		var out struct {
			Cancel       bool
			ErrorMessage string
		}
		if json.Unmarshal(a.Stdout, &out) != nil || !out.Cancel || out.ErrorMessage == "" || a.Exit != 0 {
			t.Errorf("cline %v: want a cancel with a reason, got %+v", d.Verdict, a)
		}
		if d.Verdict == wire.Ask && !strings.Contains(out.ErrorMessage, "human must approve") {
			t.Errorf("cline ask: the cancel must say a human must approve: %q", out.ErrorMessage)
		}
	case agent == "cursor" && blocked:
		var out struct {
			Permission   string
			AgentMessage string `json:"agent_message"`
		}
		if json.Unmarshal(a.Stdout, &out) != nil || out.Permission != "deny" || out.AgentMessage == "" {
			t.Errorf("cursor deny: got %+v", a)
		}
	}
}

// noticeAgents are the agents with a channel for a hook's message to the
// user on a call that goes on: a systemMessage alone, no decision.
var noticeAgents = map[string]bool{"claude-code": true, "gemini": true, "codex": true}

// checkNotice asserts a fail-open's notice: exit 0, the message on stderr,
// and on stdout either nothing or a systemMessage carrying no decision.
func checkNotice(t *testing.T, agent string, a agent.Answer) {
	t.Helper()
	msg := "agentjail: no agentjail daemon is running; this call was allowed unchecked"
	if a.Exit != 0 || a.Stderr != msg+"\n" {
		t.Errorf("%s notice: exit %d stderr %q, want 0 and the message", agent, a.Exit, a.Stderr)
	}
	if !noticeAgents[agent] {
		if len(a.Stdout) != 0 {
			t.Errorf("%s notice: stdout %q, want nothing", agent, a.Stdout)
		}
		return
	}
	var out map[string]any
	if json.Unmarshal(a.Stdout, &out) != nil || len(out) != 1 || out["systemMessage"] != msg {
		t.Errorf("%s notice: stdout %q, want {\"systemMessage\": the message} alone", agent, a.Stdout)
	}
}

func TestCursorReadFileCannotAsk(t *testing.T) {
	a, _ := Lookup("cursor")
	ans := a.Render(event(t, `{"hook_event_name":"beforeReadFile","file_path":"/w/.env"}`), &wire.Decision{Verdict: wire.Ask, Reason: "Reading .env needs approval"})
	var out struct{ Permission string }
	json.Unmarshal(ans.Stdout, &out)
	if out.Permission != "deny" || !strings.Contains(string(ans.Stdout), "human must approve") {
		t.Errorf("beforeReadFile ask: got %s", ans.Stdout)
	}
	ans = a.Render(event(t, `{"hook_event_name":"beforeShellExecution","command":"npm publish"}`), &wire.Decision{Verdict: wire.Ask, Reason: "Publishing"})
	json.Unmarshal(ans.Stdout, &out)
	if out.Permission != "ask" {
		t.Errorf("beforeShellExecution ask: got %s", ans.Stdout)
	}
}

// The folder a tool names for itself is where its command runs; no other
// tool or agent moves the call.
func TestCallDir(t *testing.T) {
	tests := []struct{ name, agent, event, dir string }{
		{"gemini dir_path", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build","dir_path":"/"}}`, "/"},
		{"opencode workdir", "opencode", `{"hook_event_name":"tool.execute.before","cwd":"/p","tool":"bash","args":{"command":"rm -rf build","workdir":"/"}}`, "/"},
		{"gemini relative dir_path", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"sub"}}`, "sub"},
		{"gemini without dir_path", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, ""},
		{"gemini list_directory dir_path is its operand", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"list_directory","tool_input":{"dir_path":"/etc"}}`, ""},
		{"claude has no dir", "claude-code", `{"tool_name":"Bash","tool_input":{"command":"ls","dir_path":"/"}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := Lookup(tt.agent)
			if got := a.Canonical(event(t, tt.event)).Dir; got != tt.dir {
				t.Errorf("Dir %q, want %q", got, tt.dir)
			}
		})
	}
}

func TestPatchCallEveryAgent(t *testing.T) {
	const patch = "*** Begin Patch\n*** Delete File: /h/.agentjail/config.yaml\n*** End Patch"
	tests := []struct {
		name  string
		agent string
		event map[string]any
	}{
		{"codex tool", "codex", map[string]any{"tool_name": "apply_patch", "tool_input": map[string]any{"command": patch}}},
		{"copilot string args", "copilot", map[string]any{"toolName": "apply_patch", "toolArgs": patch}},
		{"copilot object args", "copilot", map[string]any{"toolName": "apply_patch", "toolArgs": map[string]any{"input": patch}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := Lookup(tt.agent)
			c := a.Canonical(tt.event)
			if c.Patch == nil || len(c.Patch.Files) != 1 || c.Patch.Files[0].Path != "/h/.agentjail/config.yaml" {
				t.Fatalf("patch = %+v, want the deleted config", c.Patch)
			}
		})
	}
	if agent.ShellPatch("apply_patch <<'EOF'\n"+patch+"\nEOF") == nil {
		t.Error("a here-doc patch is not read")
	}
	if agent.ShellPatch(`apply_patch "$(cat p)"`) != nil {
		t.Error("no patch text, yet a patch")
	}
}

// Every agent that confines answers an allowed shell call with its
// command rewritten, as wrap gives it and nothing else changed in it,
// and rewrites nothing else: a denied or held call, a call that is not
// a shell command.
func TestConfineEveryAgent(t *testing.T) {
	const command = `cat "it's" | wc -l`
	wrap := func(c string) string { return "LAUNCH[" + c + "]" }
	allow, deny := &wire.Decision{Verdict: wire.Allow}, &wire.Decision{Verdict: wire.Deny, Reason: "no"}
	for _, a := range All {
		c, ok := a.Adapter.(agent.Confiner)
		if !ok {
			continue
		}
		example := func(tool string, in map[string]any) map[string]any {
			if ex, ok := a.Adapter.(agent.Exampler); ok {
				return ex.Example(tool, in, "/w")
			}
			return map[string]any{"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": in, "cwd": "/w"}
		}
		t.Run(a.Name, func(t *testing.T) {
			shell := example("Bash", map[string]any{"command": command})
			// Through JSON, as the hook reads an event (its members
			// kept as JSON).
			b, _ := json.Marshal(shell)
			shell = agent.DecodeTop(b)
			ans, ok := c.Confine(shell, allow, wrap)
			if !ok || ans.Exit != agent.ExitOK {
				t.Fatalf("an allowed shell call was not rewritten: %v %+v", ok, ans)
			}
			rewritten, _ := json.Marshal(wrap(command))
			if out := string(ans.Stdout); !strings.Contains(out, string(rewritten)) || strings.Count(out, "LAUNCH[") != 1 {
				t.Errorf("answer %s, want the command %s once", ans.Stdout, rewritten)
			}
			if _, ok := c.Confine(shell, deny, wrap); ok {
				t.Errorf("a denied call was rewritten")
			}
			read := example("Read", map[string]any{"file_path": "/w/a"})
			if ans, ok := c.Confine(read, allow, wrap); ok {
				t.Errorf("a read was rewritten: %s", ans.Stdout)
			}
		})
	}
}
