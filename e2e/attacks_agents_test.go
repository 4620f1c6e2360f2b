package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
)

// agentSeat is one agent other than Claude Code as the attack table
// reaches it: the settings file `agentjail install --for NAME` writes the
// hook into, and the events that agent would send for a row's call.
type agentSeat struct {
	name     string
	settings string // relative to HOME
	// events are the hook events the agent sends for the call (Cursor
	// sends two for a shell call), or a reason it cannot make it.
	events func(c agentCall) ([]string, string)
}

// agentCall is one row's call, read from the Claude Code event it makes.
type agentCall struct {
	tool string
	in   map[string]any
	cwd  string
}

// mcpName splits Claude Code's mcp__server__tool.
func (c agentCall) mcpName() (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(c.tool, "mcp__")
	if !ok {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "__")
	return server, tool, ok
}

func (c agentCall) str(key string) string { s, _ := c.in[key].(string); return s }

func eventJSON(m map[string]any) string {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// patchLines is text as apply_patch lines, each behind prefix.
func patchLines(prefix, text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		b.WriteString(prefix + strings.TrimSuffix(l, "\n") + "\n")
	}
	return b.String()
}

var agentSeats = []agentSeat{
	{"codex", ".codex/hooks.json", func(c agentCall) ([]string, string) {
		// Measured with codex 0.169.0 (real_codex_test.go): Claude Code's
		// shape, its shell as Bash {command}; files change by apply_patch.
		ev := func(tool string, in map[string]any) []string {
			return []string{eventJSON(map[string]any{
				"session_id": "attacks", "transcript_path": "/tmp/t.jsonl", "cwd": c.cwd,
				"permission_mode": "default", "hook_event_name": "PreToolUse", "model": "gpt-5",
				"tool_name": tool, "tool_input": in, "tool_use_id": "call_attack",
			})}
		}
		switch {
		case strings.EqualFold(c.tool, "Bash"):
			return ev("Bash", map[string]any{"command": c.in["command"]}), ""
		case c.tool == "Write":
			p := "*** Begin Patch\n*** Add File: " + c.str("file_path") + "\n" + patchLines("+", c.str("content")) + "*** End Patch"
			return ev("apply_patch", map[string]any{"command": p}), ""
		case c.tool == "Edit":
			p := "*** Begin Patch\n*** Update File: " + c.str("file_path") + "\n@@\n" + patchLines("-", c.str("old_string")) + patchLines("+", c.str("new_string")) + "*** End Patch"
			return ev("apply_patch", map[string]any{"command": p}), ""
		case strings.HasPrefix(c.tool, "mcp__"):
			return ev(c.tool, c.in), ""
		}
		return nil, "Codex has no " + c.tool + " tool"
	}},
	{"gemini", ".gemini/settings.json", func(c agentCall) ([]string, string) {
		ev := func(tool string, in map[string]any) []string {
			return []string{eventJSON(map[string]any{
				"session_id": "attacks", "transcript_path": "/tmp/t.json", "cwd": c.cwd,
				"hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00Z",
				"tool_name": tool, "tool_input": in,
			})}
		}
		switch {
		case strings.EqualFold(c.tool, "Bash"):
			return ev("run_shell_command", map[string]any{"command": c.in["command"], "description": c.in["description"]}), ""
		case c.tool == "Write":
			return ev("write_file", map[string]any{"file_path": c.in["file_path"], "content": c.in["content"]}), ""
		case c.tool == "Edit":
			return ev("replace", map[string]any{"file_path": c.in["file_path"], "old_string": c.in["old_string"], "new_string": c.in["new_string"], "instruction": "edit"}), ""
		case c.tool == "Read":
			return ev("read_file", map[string]any{"file_path": c.in["file_path"]}), ""
		}
		if server, tool, ok := c.mcpName(); ok {
			// Gemini CLI names an MCP tool mcp_<server>_<tool>.
			return ev("mcp_"+server+"_"+tool, c.in), ""
		}
		return nil, "Gemini CLI has no " + c.tool + " tool"
	}},
	{"copilot", ".copilot/hooks/agentjail.json", func(c agentCall) ([]string, string) {
		// Measured with 1.0.102 (real_copilot_test.go): toolArgs an object.
		ev := func(tool string, args map[string]any) []string {
			return []string{eventJSON(map[string]any{
				"sessionId": "attacks", "timestamp": 1767225600000, "cwd": c.cwd,
				"toolName": tool, "toolArgs": args,
			})}
		}
		switch {
		case strings.EqualFold(c.tool, "Bash"):
			return ev("bash", map[string]any{"command": c.in["command"], "description": c.in["description"]}), ""
		case c.tool == "Write":
			return ev("create", map[string]any{"path": c.in["file_path"], "file_text": c.in["content"]}), ""
		case c.tool == "Edit":
			return ev("edit", map[string]any{"path": c.in["file_path"], "old_str": c.in["old_string"], "new_str": c.in["new_string"]}), ""
		case c.tool == "Read":
			return ev("view", map[string]any{"path": c.in["file_path"]}), ""
		case strings.HasPrefix(c.tool, "mcp__"):
			return ev(c.tool, c.in), ""
		}
		return nil, "Copilot CLI has no " + c.tool + " tool"
	}},
	{"cursor", ".cursor/hooks.json", func(c agentCall) ([]string, string) {
		common := func(m map[string]any) map[string]any {
			m["conversation_id"], m["generation_id"], m["model"] = "attacks", "g-1", "m"
			m["cursor_version"], m["workspace_roots"], m["user_email"], m["transcript_path"] = "2.1.0", []string{c.cwd}, nil, nil
			m["cwd"] = c.cwd
			return m
		}
		pre := func(tool string, in map[string]any) string {
			return eventJSON(common(map[string]any{"hook_event_name": "preToolUse", "tool_name": tool, "tool_input": in, "tool_use_id": "call-1"}))
		}
		// Cursor sends preToolUse before every tool and its before* hook
		// before a shell call, an MCP call or a read: both must hold.
		switch {
		case strings.EqualFold(c.tool, "Bash"):
			return []string{
				eventJSON(common(map[string]any{"hook_event_name": "beforeShellExecution", "command": c.in["command"]})),
				pre("Shell", map[string]any{"command": c.in["command"], "working_directory": c.cwd, "timeout": 30000}),
			}, ""
		case c.tool == "Write":
			return []string{pre("Write", map[string]any{"path": c.in["file_path"], "contents": c.in["content"]})}, ""
		case c.tool == "Edit":
			return []string{pre("StrReplace", map[string]any{"path": c.in["file_path"], "old_string": c.in["old_string"], "new_string": c.in["new_string"]})}, ""
		case c.tool == "Read":
			return []string{
				eventJSON(common(map[string]any{"hook_event_name": "beforeReadFile", "file_path": c.in["file_path"], "content": ""})),
				pre("Read", map[string]any{"path": c.in["file_path"]}),
			}, ""
		}
		if server, tool, ok := c.mcpName(); ok {
			in, _ := json.Marshal(c.in)
			return []string{
				eventJSON(common(map[string]any{"hook_event_name": "beforeMCPExecution", "tool_name": tool, "tool_input": string(in), "command": "npx " + server + "-server"})),
				pre("MCP:"+server+":"+tool, c.in),
			}, ""
		}
		return nil, "Cursor has no " + c.tool + " tool"
	}},
}

// humanMustApprove is the deny an agent that cannot ask gives for an ask.
var humanMustApprove = regexp.MustCompile(`A human must approve this call, and .* cannot ask from a hook`)

// agentOutcome classifies one hook run in the answer format of agent:
// "deny", "ask" (a deny saying a human must approve, where the agent
// cannot ask), "allow" (silence, or the command rewritten to run in the
// jail), or "fail-open" / "broken".
func agentOutcome(agent string, r result) (string, string) {
	if r.stdout == "" && r.stderr == "" && r.code == 0 {
		return "allow", ""
	}
	if _, jailed := jailedOriginal(r.stdout); jailed && r.code == 0 && r.stderr == "" {
		return "allow", ""
	}
	var reason, verdict string
	switch agent {
	case "codex":
		// Reason on stderr, exit 2; a systemMessage on exit 0 is a notice.
		if r.code == 2 && r.stdout == "" && r.stderr != "" {
			verdict, reason = "deny", strings.TrimSpace(r.stderr)
		}
	case "gemini":
		var out struct{ Decision, Reason string }
		if r.code == 2 && json.Unmarshal([]byte(r.stdout), &out) == nil && out.Decision == "deny" {
			verdict, reason = "deny", out.Reason
		}
	case "copilot":
		var out struct{ PermissionDecision, PermissionDecisionReason string }
		if r.code == 0 && json.Unmarshal([]byte(r.stdout), &out) == nil && (out.PermissionDecision == "deny" || out.PermissionDecision == "ask") {
			verdict, reason = out.PermissionDecision, out.PermissionDecisionReason
		}
	case "cursor":
		var out struct {
			Permission   string `json:"permission"`
			UserMessage  string `json:"user_message"`
			AgentMessage string `json:"agent_message"`
		}
		if r.code == 0 && json.Unmarshal([]byte(r.stdout), &out) == nil && (out.Permission == "deny" || out.Permission == "ask") {
			verdict, reason = out.Permission, out.AgentMessage
		}
	}
	switch {
	case verdict == "deny" && humanMustApprove.MatchString(reason):
		return "ask", reason
	case verdict != "":
		return verdict, reason
	case r.code == 0:
		return "fail-open", strings.TrimSpace(r.stdout + " " + r.stderr)
	}
	return "broken", fmt.Sprintf("exit %d, stdout %.200q, stderr %.200q", r.code, r.stdout, r.stderr)
}

// installedHook is the pre-tool hook command line `agentjail install`
// wrote into an agent's settings file.
func installedHook(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, v := range x {
				// The post-tool entry (--post) only reports calls that ran.
				if s, ok := v.(string); ok && (k == "command" || k == "bash") && strings.Contains(s, "agentjail-hook") && !strings.HasSuffix(s, " --post") {
					found = append(found, s)
				}
				walk(v)
			}
		case []any:
			for _, v := range x {
				walk(v)
			}
		}
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	walk(v)
	if len(found) == 0 {
		t.Fatalf("%s names no agentjail-hook:\n%s", path, b)
	}
	for _, f := range found[1:] {
		if f != found[0] {
			t.Fatalf("%s has two hook command lines: %q and %q", path, found[0], f)
		}
	}
	// The installer quotes a path only when it needs it; the test's has no
	// space.
	return strings.Fields(found[0])
}

// TestAttacksEveryAgent sends every row of the issue 22 classes in
// testdata/attacks.jsonl through the hook as each agent besides Claude
// Code (which TestAttacks covers) would send it: the hook command line
// that `agentjail install --for NAME` wrote for that agent, that agent's
// event shape, tool names and input fields, and its answer read in its
// own format. Rows an agent cannot express are counted as skipped, never
// as held. One daemon serves every agent and must still be the one
// answering afterwards.
func TestAttacksEveryAgent(t *testing.T) {
	var rows []attack
	for _, a := range loadAttacks(t) {
		if strings.HasPrefix(a.Class, "22.") {
			rows = append(rows, a)
		}
	}
	e := attackEnv(t)

	// Installed for real, then the daemon install started is stopped: the
	// test runs its own, whose log and exit it watches.
	hooks := map[string][]string{}
	for _, s := range agentSeats {
		if r := e.cli("install", "--for", s.name); r.code != 0 {
			t.Fatalf("install --for %s: %+v", s.name, r)
		}
		hooks[s.name] = installedHook(t, filepath.Join(e.home, s.settings))
	}
	var st struct {
		Daemon wire.Status `json:"daemon"`
	}
	if err := json.Unmarshal([]byte(e.cli("status", "--json").stdout), &st); err != nil || st.Daemon.PID == 0 {
		t.Fatalf("status --json after install: %v %+v", err, st)
	}
	installed, _ := os.FindProcess(st.Daemon.PID)
	t.Cleanup(func() { installed.Kill() })
	installed.Signal(syscall.SIGTERM)
	waitFor(t, "the installed daemon to stop", func() bool {
		c, err := net.Dial("unix", e.socket)
		if err == nil {
			c.Close()
		}
		return err != nil
	})
	e.start()
	pid := e.daemon.Process.Pid
	vars := attackVars(e)
	show := os.Getenv("AGENTJAIL_ATTACKS_SHOW") != ""

	var failed, lines []string
	for _, s := range agentSeats {
		var attacksN, stopped, harmlessN, allowed, skipped int
		for _, a := range rows {
			var claude map[string]any
			if err := json.Unmarshal([]byte(a.event(t, vars)), &claude); err != nil {
				t.Fatalf("%s: %v", a.Name, err)
			}
			in, _ := claude["tool_input"].(map[string]any)
			cwd, _ := claude["cwd"].(string)
			events, why := s.events(agentCall{tool: a.ToolName, in: in, cwd: cwd})
			if events == nil {
				skipped++
				if show {
					t.Logf("%s [%s] %s: skipped, %s", s.name, a.Class, a.Name, why)
				}
				continue
			}
			a.place(t, vars)
			held := true
			var got, detail string
			for _, ev := range events {
				hook := hooks[s.name]
				got, detail = agentOutcome(s.name, e.runIn(e.home, ev, hook[0], hook[1:]...))
				if a.Expect == "stopped" {
					held = got == "deny" || got == "ask"
				} else {
					held = got == "allow"
				}
				if !held {
					detail = fmt.Sprintf("%s (event %.300s)", detail, ev)
					break
				}
			}
			if show {
				t.Logf("%s [%s] %s: %s %.200s", s.name, a.Class, a.Name, got, detail)
			}
			if a.Expect == "stopped" {
				attacksN++
				if held {
					stopped++
				}
			} else {
				harmlessN++
				if held {
					allowed++
				}
			}
			if !held {
				if len(detail) > 400 {
					detail = detail[:400] + "…"
				}
				failed = append(failed, fmt.Sprintf("  %s [%s] %s: want %s, got %s %s", s.name, a.Class, a.Name, a.Expect, got, detail))
			}
		}
		lines = append(lines, fmt.Sprintf("attacks[%s]: %d stopped of %d, harmless: %d allowed of %d, skipped %d", s.name, stopped, attacksN, allowed, harmlessN, skipped))
		if attacksN == 0 || harmlessN == 0 {
			t.Errorf("%s: no row reached it (%d attacks, %d look-alikes)", s.name, attacksN, harmlessN)
		}
	}

	// The same daemon, still alive, still answering, for every agent.
	select {
	case <-e.stopped:
		t.Fatalf("the daemon died during the attacks:\n%s", e.logs)
	default:
	}
	if e.daemon.Process.Pid != pid {
		t.Errorf("the daemon was replaced")
	}
	for _, s := range agentSeats {
		hook := hooks[s.name]
		for cmd, want := range map[string]string{"ls ./src": "allow", "rm -rf ~": "deny"} {
			for _, ev := range must(s.events(agentCall{tool: "Bash", in: map[string]any{"command": cmd, "description": "x"}, cwd: e.home})) {
				if got, detail := agentOutcome(s.name, e.runIn(e.home, ev, hook[0], hook[1:]...)); got != want {
					t.Errorf("%s after the attacks: %s got %s %s", s.name, cmd, got, detail)
				}
			}
		}
	}

	if testing.Verbose() {
		fmt.Println(strings.Join(lines, "\n"))
	} else {
		t.Log("\n" + strings.Join(lines, "\n"))
	}
	if path := os.Getenv("AGENTJAIL_ATTACK_FIGURES"); path != "" {
		if err := appendFile(path, strings.Join(lines, "\n")+"\n"); err != nil {
			t.Errorf("writing the figures for make test: %v", err)
		}
	}
	if len(failed) > 0 {
		t.Errorf("%d rows did not hold:\n%s", len(failed), strings.Join(failed, "\n"))
	}
}

func must(events []string, why string) []string {
	if events == nil {
		panic(why)
	}
	return events
}
