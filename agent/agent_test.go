package agent

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
)

var update = flag.Bool("update", false, "rewrite golden files")

func event(t *testing.T, s string) map[string]any {
	t.Helper()
	m := Decode([]byte(s))
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
		{"alias", `{"tool_name":"Bash"}`, "Gemini-CLI", "gemini"},
		{"unknown flag falls back to claude", `{"tool_name":"Bash"}`, "vim", "claude-code"},
		{"gemini by shape", `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, "claude-code", "gemini"},
		{"copilot by shape", `{"timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`, "", "copilot"},
		{"copilot shape wins over a codex flag", `{"toolName":"bash","toolArgs":"{}"}`, "codex", "copilot"},
		{"cursor shell by shape", `{"hook_event_name":"beforeShellExecution","command":"ls","cwd":"/w"}`, "", "cursor"},
		{"cursor preToolUse by shape", `{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"ls"}}`, "", "cursor"},
		{"opencode by shape", `{"hook_event_name":"tool.execute.before","client":"opencode","tool":"bash","args":{"command":"ls"}}`, "", "opencode"},
		{"kilo by shape", `{"hook_event_name":"tool.execute.before","client":"kilo","tool":"bash","args":{"command":"ls"}}`, "opencode", "kilo"},
		{"plugin event without a client is opencode's", `{"hook_event_name":"tool.execute.before","tool":"bash","args":{}}`, "", "opencode"},
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
		{"claude bash", "claude-code", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`, KindShell, "Bash", `{"command":"ls"}`},
		{"claude unknown tool", "claude-code", `{"tool_name":"Frobnicate","tool_input":{}}`, "", "Frobnicate", `{}`},
		{"codex bash", "codex", `{"tool_name":"Bash","tool_input":{"command":"cat ~/.ssh/id_rsa"}}`, KindShell, "Bash", `{"command":"cat ~/.ssh/id_rsa"}`},
		{"codex apply_patch update", "codex", `{"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch\n"}}`, KindEdit, "apply_patch", ""},
		{"codex apply_patch add only", "codex", `{"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a.go\n+x\n*** End Patch"}}`, KindWrite, "apply_patch", ""},
		{"codex mcp", "codex", `{"tool_name":"mcp__fs__read_file","tool_input":{"path":"/x"}}`, "", "mcp__fs__read_file", `{"path":"/x"}`},
		{"gemini shell", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","description":"list"}}`, KindShell, "Bash", `{"command":"ls","description":"list"}`},
		{"gemini shell in dir_path", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build","dir_path":"/"}}`, KindShell, "Bash", `{"command":"rm -rf build","dir_path":"/"}`},
		{"gemini read absolute_path", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"absolute_path":"/h/.ssh/id_rsa"}}`, KindRead, "Read", `{"absolute_path":"/h/.ssh/id_rsa","file_path":"/h/.ssh/id_rsa"}`},
		{"gemini read file_path", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"a.txt"}}`, KindRead, "Read", `{"file_path":"a.txt"}`},
		{"gemini write", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"a","content":"x"}}`, KindWrite, "Write", `{"file_path":"a","content":"x"}`},
		{"gemini replace many", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":3}}`, KindEdit, "Edit", `{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":3,"replace_all":true}`},
		{"gemini grep", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"grep_search","tool_input":{"pattern":"k","dir_path":"~","include":"*.pem"}}`, KindSearch, "Grep", `{"pattern":"k","dir_path":"~","path":"~","include":"*.pem","glob":"*.pem"}`},
		{"gemini list", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"list_directory","tool_input":{"dir_path":"/etc"}}`, KindList, "LS", `{"dir_path":"/etc","path":"/etc"}`},
		{"gemini web_fetch url in prompt", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"summarise http://169.254.169.254/latest and https://example.com/"}}`, KindFetch, "WebFetch", `{"prompt":"summarise http://169.254.169.254/latest and https://example.com/","url":"http://169.254.169.254/latest","urls":["http://169.254.169.254/latest","https://example.com/"]}`},
		{"gemini mcp single underscore", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"mcp_shell_run_command","tool_input":{"command":"ls"}}`, "", "mcp__shell_run_command", `{"command":"ls"}`},
		{"gemini unknown tool", "gemini", `{"hook_event_name":"BeforeTool","tool_name":"save_memory","tool_input":{"fact":"x"}}`, KindOther, "save_memory", `{"fact":"x"}`},
		{"copilot bash args string", "copilot", `{"toolName":"bash","toolArgs":"{\"command\":\"rm -rf dist\",\"description\":\"clean\"}"}`, KindShell, "Bash", `{"command":"rm -rf dist","description":"clean"}`},
		{"copilot bash args object", "copilot", `{"toolName":"bash","toolArgs":{"command":"ls"}}`, KindShell, "Bash", `{"command":"ls"}`},
		{"copilot bash args not JSON", "copilot", `{"toolName":"bash","toolArgs":"rm -rf ~"}`, KindShell, "Bash", `"rm -rf ~"`},
		{"copilot write_bash types a command", "copilot", `{"toolName":"write_bash","toolArgs":"{\"sessionId\":\"1\",\"input\":\"cat ~/.aws/credentials\\n\"}"}`, KindShell, "Bash", `{"sessionId":"1","input":"cat ~/.aws/credentials\n","command":"cat ~/.aws/credentials\n"}`},
		{"copilot view", "copilot", `{"toolName":"view","toolArgs":"{\"path\":\"/h/.ssh/id_rsa\"}"}`, KindRead, "Read", `{"path":"/h/.ssh/id_rsa","file_path":"/h/.ssh/id_rsa"}`},
		{"copilot create", "copilot", `{"toolName":"create","toolArgs":"{\"path\":\"a\",\"file_text\":\"x\"}"}`, KindWrite, "Write", `{"path":"a","file_path":"a","file_text":"x","content":"x"}`},
		{"copilot edit", "copilot", `{"toolName":"edit","toolArgs":"{\"path\":\"a\",\"old_str\":\"x\",\"new_str\":\"y\"}"}`, KindEdit, "Edit", `{"path":"a","file_path":"a","old_str":"x","old_string":"x","new_str":"y","new_string":"y"}`},
		{"cursor shell", "cursor", `{"hook_event_name":"beforeShellExecution","command":"cat .env","cwd":"/w"}`, KindShell, "Bash", `{"command":"cat .env"}`},
		{"cursor read", "cursor", `{"hook_event_name":"beforeReadFile","file_path":"/w/.env","content":"K=V"}`, KindRead, "Read", `{"file_path":"/w/.env"}`},
		{"cursor mcp string input", "cursor", `{"hook_event_name":"beforeMCPExecution","tool_name":"run_command","tool_input":"{\"command\":\"ls\"}"}`, "", "mcp__run_command", `{"command":"ls"}`},
		{"cursor preToolUse write", "cursor", `{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":{"path":"a","contents":"x"}}`, KindWrite, "Write", `{"path":"a","file_path":"a","contents":"x","content":"x"}`},
		{"opencode bash", "opencode", `{"hook_event_name":"tool.execute.before","tool":"bash","args":{"command":"ls","description":"list"}}`, KindShell, "Bash", `{"command":"ls","description":"list"}`},
		{"opencode read", "opencode", `{"hook_event_name":"tool.execute.before","tool":"read","args":{"filePath":"/h/.ssh/id_rsa"}}`, KindRead, "Read", `{"filePath":"/h/.ssh/id_rsa","file_path":"/h/.ssh/id_rsa"}`},
		{"opencode write", "opencode", `{"hook_event_name":"tool.execute.before","tool":"write","args":{"filePath":"a","content":"x"}}`, KindWrite, "Write", `{"filePath":"a","file_path":"a","content":"x"}`},
		{"opencode edit", "opencode", `{"hook_event_name":"tool.execute.before","tool":"edit","args":{"filePath":"a","oldString":"x","newString":"y","replaceAll":true}}`, KindEdit, "Edit", `{"filePath":"a","file_path":"a","oldString":"x","old_string":"x","newString":"y","new_string":"y","replaceAll":true,"replace_all":true}`},
		{"opencode multiedit", "opencode", `{"hook_event_name":"tool.execute.before","tool":"multiedit","args":{"filePath":"a","edits":[{"filePath":"a","oldString":"x","newString":"y"}]}}`, KindEdit, "MultiEdit", `{"filePath":"a","file_path":"a","edits":[{"filePath":"a","file_path":"a","oldString":"x","old_string":"x","newString":"y","new_string":"y"}]}`},
		{"opencode grep", "opencode", `{"hook_event_name":"tool.execute.before","tool":"grep","args":{"pattern":"k","path":"/h","include":"*.pem"}}`, KindSearch, "Grep", `{"pattern":"k","path":"/h","include":"*.pem","glob":"*.pem"}`},
		{"opencode list", "opencode", `{"hook_event_name":"tool.execute.before","tool":"list","args":{"path":"/etc"}}`, KindList, "LS", `{"path":"/etc"}`},
		{"opencode webfetch", "opencode", `{"hook_event_name":"tool.execute.before","tool":"webfetch","args":{"url":"http://169.254.169.254/","format":"text"}}`, KindFetch, "WebFetch", `{"url":"http://169.254.169.254/","format":"text"}`},
		{"opencode task", "opencode", `{"hook_event_name":"tool.execute.before","tool":"task","args":{"prompt":"p","subagent_type":"general"}}`, KindAgent, "Task", `{"prompt":"p","subagent_type":"general"}`},
		{"opencode apply_patch", "opencode", `{"hook_event_name":"tool.execute.before","tool":"apply_patch","args":{"patchText":"*** Begin Patch\n*** Add File: a.go\n+x\n*** End Patch"}}`, KindWrite, "apply_patch", ""},
		{"opencode todowrite", "opencode", `{"hook_event_name":"tool.execute.before","tool":"todowrite","args":{"todos":[]}}`, KindOther, "todowrite", `{"todos":[]}`},
		{"opencode mcp tool", "opencode", `{"hook_event_name":"tool.execute.before","tool":"fs_write_file","args":{"path":"a"}}`, "", "mcp__fs_write_file", `{"path":"a"}`},
		{"kilo background_process start", "kilo", `{"hook_event_name":"tool.execute.before","client":"kilo","tool":"background_process","args":{"action":"start","command":"npm run dev"}}`, KindShell, "Bash", `{"action":"start","command":"npm run dev"}`},
		{"kilo background_process list", "kilo", `{"hook_event_name":"tool.execute.before","client":"kilo","tool":"background_process","args":{"action":"list"}}`, KindOther, "background_process", `{"action":"list"}`},
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

func TestParsePatch(t *testing.T) {
	tests := []struct {
		name, text string
		want       []PatchFile
	}{
		{"add update delete move", "*** Begin Patch\n*** Add File: new.txt\n+hello\n+world\n*** Update File: src/a.go\n*** Move to: src/b.go\n@@ func a\n-x\n+y\n*** Delete File: old.txt\n*** End Patch\n",
			[]PatchFile{{Op: OpAdd, Path: "new.txt", Content: "hello\nworld\n"}, {Op: OpUpdate, Path: "src/a.go", MoveTo: "src/b.go", Hunks: []Hunk{{Old: "x\n", New: "y\n"}}}, {Op: OpDelete, Path: "old.txt"}}},
		{"config files", "*** Begin Patch\n*** Update File: /home/dev/.codex/config.toml\n@@\n-a\n+b\n*** Update File: ~/.agentjail/config.yaml\n@@\n-fail_mode: closed\n+fail_mode: open\n*** End Patch",
			[]PatchFile{{Op: OpUpdate, Path: "/home/dev/.codex/config.toml", Hunks: []Hunk{{Old: "a\n", New: "b\n"}}}, {Op: OpUpdate, Path: "~/.agentjail/config.yaml", Hunks: []Hunk{{Old: "fail_mode: closed\n", New: "fail_mode: open\n"}}}}},
		{"heredoc around it, CRLF, indented markers", "apply_patch <<'EOF'\r\n  *** Begin Patch\r\n  *** Delete File: x\r\n  *** End Patch\r\nEOF",
			[]PatchFile{{Op: OpDelete, Path: "x"}}},
		{"two patches in one text", "*** Begin Patch\n*** Delete File: a\n*** End Patch\n*** Begin Patch\n*** Delete File: b\n*** End Patch",
			[]PatchFile{{Op: OpDelete, Path: "a"}, {Op: OpDelete, Path: "b"}}},
		{"no end marker still counts", "*** Begin Patch\n*** Add File: a\n+x",
			[]PatchFile{{Op: OpAdd, Path: "a", Content: "x\n"}}},
		// Look-alikes: markers outside a patch, or text that mentions them.
		{"markers without Begin Patch are text", "*** Delete File: a\n", nil},
		{"a diff line mentioning a marker", "*** Begin Patch\n*** Update File: notes.md\n@@\n+*** Delete File: secrets\n*** End Patch",
			[]PatchFile{{Op: OpUpdate, Path: "notes.md", Hunks: []Hunk{{New: "*** Delete File: secrets\n"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParsePatch(tt.text)
			if !reflect.DeepEqual(got.Files, tt.want) {
				t.Errorf("files %+v\nwant %+v", got.Files, tt.want)
			}
		})
	}
}

func TestParsePatchBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for i := 0; i <= MaxPatchFiles; i++ {
		b.WriteString("*** Delete File: f\n")
	}
	p := ParsePatch(b.String())
	if len(p.Files) != MaxPatchFiles || !p.Truncated {
		t.Errorf("%d files, truncated %v; want %d and true", len(p.Files), p.Truncated, MaxPatchFiles)
	}
}

// TestRenderGolden pins every agent's answer to every verdict.
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
		ans := Notice(a, event(t, events[name]), "agentjail: no agentjail daemon is running; this call was allowed unchecked")
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
func checkContract(t *testing.T, agent string, d wire.Decision, a Answer) {
	t.Helper()
	blocked := d.Verdict == wire.Deny || d.Verdict != wire.Allow && d.Verdict != wire.Ask
	switch {
	case d.Verdict == wire.Allow && !(agent == "claude-code" && d.Explicit):
		// No objection is silence, never an explicit allow.
		if len(a.Stdout) != 0 || a.Exit != 0 {
			t.Errorf("%s %v: no objection must be silent, got %q exit %d", agent, d.Verdict, a.Stdout, a.Exit)
		}
	case agent == "codex" && (blocked || d.Verdict == wire.Ask):
		if a.Exit != 2 || strings.TrimSpace(a.Stderr) == "" || len(a.Stdout) != 0 {
			t.Errorf("codex %v: want exit 2 with a reason on stderr and nothing on stdout, got %+v", d.Verdict, a)
		}
		if d.Verdict == wire.Ask && !strings.Contains(a.Stderr, "human must approve") {
			t.Errorf("codex ask: the deny must say a human must approve: %q", a.Stderr)
		}
	case agent == "gemini" && (blocked || d.Verdict == wire.Ask):
		var out struct{ Decision, Reason string }
		if json.Unmarshal(a.Stdout, &out) != nil || out.Decision != "deny" || out.Reason == "" || a.Exit != 2 {
			t.Errorf("gemini %v: want a top-level deny with a reason, got %+v", d.Verdict, a)
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
	case agent == "copilot" && blocked:
		var out struct{ PermissionDecision, PermissionDecisionReason string }
		if json.Unmarshal(a.Stdout, &out) != nil || out.PermissionDecision != "deny" || out.PermissionDecisionReason == "" {
			t.Errorf("copilot deny: got %+v", a)
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
func checkNotice(t *testing.T, agent string, a Answer) {
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
		{"gemini relative dir_path", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"sub"}}`, "sub"},
		{"gemini without dir_path", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, ""},
		{"gemini list_directory dir_path is its operand", "gemini", `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"list_directory","tool_input":{"dir_path":"/etc"}}`, ""},
		{"opencode workdir", "opencode", `{"hook_event_name":"tool.execute.before","cwd":"/p","tool":"bash","args":{"command":"rm -rf build","workdir":"/"}}`, "/"},
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
