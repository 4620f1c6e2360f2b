package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// subagentTask marks the prompt the main conversation hands its subagent:
// a request whose first user message carries it is the subagent's own
// conversation, which Claude Code sends as a separate /v1/messages call
// with its own system prompt.
const subagentTask = "Subagent task 7f3c: read the key."

// subagentAPI scripts two conversations on one fake Messages API. The
// main one starts a subagent with Claude Code's Agent tool and ends when
// the subagent's report comes back; the subagent's makes its tool calls
// one per turn, records each tool_result, and then ends.
type subagentAPI struct {
	url   string
	mu    sync.Mutex
	agent map[string]any        // the main conversation's Agent input
	calls []subagentCall        // the subagent's calls, in order
	got   map[string]toolResult // the subagent's results by tool_use id
	main  []toolResult          // what the main conversation got back
	sys   map[string]string     // each conversation's system prompt
}

type subagentCall struct {
	id, tool string
	input    map[string]any
}

func startSubagentAPI(t *testing.T, agent map[string]any, calls []subagentCall) *subagentAPI {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &subagentAPI{url: "http://" + ln.Addr().String(), agent: agent, calls: calls,
		got: map[string]toolResult{}, sys: map[string]string{}}
	srv := &http.Server{Handler: http.HandlerFunc(f.serve)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return f
}

func (f *subagentAPI) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/messages" {
		http.NotFound(w, r)
		return
	}
	var req struct {
		System []struct {
			Text string `json:"text"`
		} `json:"system"`
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	body, _ := io.ReadAll(r.Body)
	json.Unmarshal(body, &req)
	w.Header().Set("Content-Type", "text/event-stream")
	if len(req.Tools) == 0 || len(req.Messages) == 0 {
		writeText(w, "done") // a side request (a title, a summary)
		return
	}
	conv := "main"
	if strings.Contains(string(req.Messages[0].Content), subagentTask) {
		conv = "subagent"
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var sys []string
	for _, s := range req.System {
		sys = append(sys, s.Text)
	}
	f.sys[conv] = strings.Join(sys, "\n")
	// Claude Code 2.1.330 may put a "system" message after the user's
	// tool_result, so every user message is read, not just the last.
	var results []idResult
	for _, m := range req.Messages {
		if m.Role == "user" {
			results = append(results, toolResultBlocks(m.Content)...)
		}
	}
	if conv == "main" {
		if len(results) == 0 {
			writeToolUseID(w, "toolu_agent1", "Agent", f.agent)
			return
		}
		f.main = nil
		for _, r := range results {
			f.main = append(f.main, r.toolResult)
		}
		writeText(w, "done")
		return
	}
	for _, r := range results {
		f.got[r.id] = r.toolResult
	}
	for _, c := range f.calls {
		if _, done := f.got[c.id]; !done {
			writeToolUseID(w, c.id, c.tool, c.input)
			return
		}
	}
	writeText(w, "The subagent is done.")
}

func (f *subagentAPI) result(id string) (toolResult, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.got[id]
	return r, ok
}

type idResult struct {
	id string
	toolResult
}

// toolResultBlocks is toolResults with each block's tool_use_id.
func toolResultBlocks(content json.RawMessage) []idResult {
	var blocks []struct {
		Type string `json:"type"`
		ID   string `json:"tool_use_id"`
	}
	json.Unmarshal(content, &blocks)
	results := toolResults(content)
	var out []idResult
	for _, b := range blocks {
		if b.Type == "tool_result" && len(out) < len(results) {
			out = append(out, idResult{b.ID, results[len(out)]})
		}
	}
	return out
}

// TestRealClaudeSubagent: a subagent started with Claude Code's Agent
// tool is guarded like the main conversation. Users report PreToolUse
// hooks not firing for subagents' calls in some versions; in the pinned
// one, the subagent's Bash `cat` of a private key and its Read of the
// same file each reach agentjail's hook, which denies them, and the
// subagent's model gets our reason instead of the key.
func TestRealClaudeSubagent(t *testing.T) {
	bin := claudeBinary(t) // skip early when it is not installed
	e := newEnv(t)
	os.WriteFile(filepath.Join(e.home, ".claude.json"), []byte("{}"), 0o600)
	os.MkdirAll(filepath.Join(e.home, ".claude"), 0o700) // install wires Claude Code
	work := filepath.Join(e.home, "work")
	os.MkdirAll(filepath.Join(work, ".ssh"), 0o700)
	key := filepath.Join(work, ".ssh", "id_rsa")
	os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nfake-key-material\n-----END OPENSSH PRIVATE KEY-----\n"), 0o600)

	if r := e.cli("install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	t.Cleanup(func() { e.cli("uninstall") })
	rec := recordHook(t, e)

	// The exact reasons the hook gives, as `agentjail try` shows them.
	reason := func(args ...string) string {
		t.Helper()
		try := e.runIn(work, "", "agentjail", append([]string{"try", "--cwd", work}, args...)...)
		for _, line := range strings.Split(try.stdout, "\n") {
			if r, ok := strings.CutPrefix(line, "reason:   "); ok && strings.Contains(r, "holds private keys") {
				return r
			}
		}
		t.Fatalf("try %v: %+v", args, try)
		return ""
	}
	catReason := reason("cat .ssh/id_rsa")
	readReason := reason("--tool", "Read", key)

	api := startSubagentAPI(t,
		map[string]any{"description": "Read the key", "prompt": subagentTask, "subagent_type": "general-purpose", "run_in_background": false},
		[]subagentCall{
			{"toolu_sub_bash", "Bash", map[string]any{"command": "cat .ssh/id_rsa", "description": "Read the key"}},
			{"toolu_sub_read", "Read", map[string]any{"file_path": key}},
		})
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-p", "Do the task.", "--output-format", "json", "--permission-mode", "default")
	cmd.Dir = work
	cmd.Env = append(e.environ(),
		"ANTHROPIC_BASE_URL="+api.url,
		"ANTHROPIC_API_KEY=sk-ant-fake",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("claude: %v\n%s", err, out)
	}

	// Two conversations, told apart by their first user message; the
	// subagent's also has a system prompt of its own.
	api.mu.Lock()
	mainSys, subSys, mainRes := api.sys["main"], api.sys["subagent"], api.main
	api.mu.Unlock()
	if subSys == "" {
		t.Fatalf("Claude Code started no subagent conversation; claude said:\n%s", out)
	}
	if subSys == mainSys {
		t.Errorf("the subagent's request has the main conversation's system prompt")
	}
	if len(mainRes) == 0 {
		t.Errorf("the main conversation got no Agent result back; claude said:\n%s", out)
	}

	for _, c := range []struct {
		name, id, reason string
	}{
		{"the subagent's Bash cat of a key", "toolu_sub_bash", catReason},
		{"the subagent's Read of a key", "toolu_sub_read", readReason},
	} {
		res, ok := api.result(c.id)
		if !ok {
			t.Errorf("%s: no tool_result came back; claude said:\n%s", c.name, out)
			continue
		}
		if !strings.Contains(res.Content, c.reason) || strings.Contains(res.Content, "fake-key-material") {
			t.Errorf("%s: tool result:\n%s\nwant our reason verbatim:\n%s", c.name, res.Content, c.reason)
		}
	}

	// And the hook saw them as the subagent's: the main conversation's
	// Agent call (let through), then both key reads, each carrying the
	// subagent's agent_id and each denied.
	seen := map[string]bool{}
	for _, call := range rec.calls() {
		var ev struct {
			Tool    string          `json:"tool_name"`
			Input   json.RawMessage `json:"tool_input"`
			AgentID string          `json:"agent_id"`
		}
		json.Unmarshal([]byte(call.Stdin), &ev)
		t.Logf("hook: %s agent_id=%q exit=%d %s", ev.Tool, ev.AgentID, call.Code, ev.Input)
		switch {
		case ev.Tool == "Agent":
			seen["Agent"] = ev.AgentID == "" && call.Code == 0
		case strings.Contains(string(ev.Input), "id_rsa"):
			seen[ev.Tool] = ev.AgentID != "" && call.Code == 2
		}
	}
	for _, tool := range []string{"Agent", "Bash", "Read"} {
		if !seen[tool] {
			t.Errorf("the hook did not see the %s call as expected; saw %v", tool, seen)
		}
	}

	// The pinned version sends its subagents' calls to the hook: the
	// accounting reads the subagent's own transcript (both key reads are
	// only there) and finds every one of them judged, past the grace a
	// call gets.
	waitForLong(t, "the subagent's calls read from its transcript", 30*time.Second, func() bool {
		return accountingOf(t, e).SubagentCalls >= 2
	})
	time.Sleep(18 * time.Second)
	for _, r := range uncheckedCalls(t, e) {
		t.Errorf("a subagent call was reported unchecked though the hook judged it: %+v %+v", r, r.Unchecked)
	}
	if a := accountingOf(t, e); a.Judged < a.RecordCalls+a.PostEvents {
		t.Errorf("not every call read was found judged: %+v", a)
	}
}
