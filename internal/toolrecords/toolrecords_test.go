package toolrecords

import (
	"github.com/agentjail/agentjail/agents"

	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The fixtures are lines of records the pinned CLIs wrote against a fake
// model API that asked for one tool call (`cat README.md`), trimmed to a
// few lines, paths rewritten to /home/dev/work.
func TestParseRealRecords(t *testing.T) {
	for _, tc := range []struct {
		name, agent, file string
		want              []Call
	}{
		{"claude code, main conversation", "claude-code", "claude-code.jsonl", []Call{{
			Session: "22269663-75de-4f82-b0ef-c0f23f459dce", ID: "toolu_fake1", Tool: "Bash",
			Input: json.RawMessage(`{"command":"cat README.md","description":"Read the readme"}`), Cwd: "/home/dev/work",
		}}},
		{"claude code, a call starting a subagent", "claude-code", "claude-code-agent.jsonl", []Call{{
			Session: "c8b81328-9b20-415b-97e7-1e5254c5b700", ID: "toolu_agent1", Tool: "Agent",
			Input: json.RawMessage(`{"description":"Read the readme","prompt":"Subagent task 7f3c: read the key.","run_in_background":false,"subagent_type":"general-purpose"}`),
			Cwd:   "/home/dev/work",
		}}},
		{"claude code, the subagent's own file", "claude-code", "claude-code-subagent.jsonl", []Call{{
			Session: "c8b81328-9b20-415b-97e7-1e5254c5b700", ID: "toolu_sub_bash", Tool: "Bash",
			Input: json.RawMessage(`{"command":"cat README.md","description":"Read the readme"}`), Cwd: "/home/dev/work", Subagent: true,
		}}},
		{"codex exec", "codex", "codex.jsonl", []Call{{
			Session: "01a21665-bda0-7731-8838-3c50c9057deb", ID: "call_1", Tool: "exec_command",
			Input: json.RawMessage(`{"cmd":"cat README.md"}`), Cwd: "/home/dev/work",
		}}},
		{"gemini cli, a message written twice", "gemini", "gemini/work/chats/session-2026-11-26T05-48-f0aaf155.jsonl", []Call{{
			Session: "f0aaf155-e18f-4f5b-98eb-6fecc6593027", ID: "run_shell_command__run_shell_command_1795672135692_0", Tool: "run_shell_command",
			Input: json.RawMessage(`{"command":"cat README.md"}`), Cwd: "/home/dev/work",
		}}},
		{"qwen code", "qwen", "qwen.jsonl", []Call{{
			Session: "4c9603e9-73ce-4251-9219-c814161bbd03", ID: "call_1", Tool: "run_shell_command",
			Input: json.RawMessage(`{"command":"cat README.md","description":"Run it"}`), Cwd: "/home/dev/work",
		}}},
		{"copilot cli", "copilot", "copilot/c77babb9-38da-4f3e-82be-6102ddca240e/events.jsonl", []Call{{
			Session: "c77babb9-38da-4f3e-82be-6102ddca240e", Tool: "bash",
			Input: json.RawMessage(`{"command":"cat README.md","description":"Run it"}`), Cwd: "/home/dev/work",
		}}},
		{"factory droid", "droid", "droid.jsonl", []Call{{
			Session: "0702757e-7f2f-4677-912f-7e64616fb7fa", Tool: "Execute",
			Input: json.RawMessage(`{"command":"cat README.md","riskLevel":"low","riskLevelReason":"as asked","summary":"Run it"}`), Cwd: "/home/dev/work",
		}}},
		{"pi", "pi", "pi.jsonl", []Call{{
			Session: "01a216d2-b25b-7522-8b76-a05cea6db86f", ID: "call_1", Tool: "bash",
			Input: json.RawMessage(`{"command":"cat README.md"}`), Cwd: "/home/dev/work",
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join("testdata", filepath.FromSlash(tc.file))
			f := NewFollower(Options{})
			f.Follow(tc.agent, formatOf(t, tc.agent), path)
			got, st := f.Poll()
			if st.Errors != 0 || st.Skipped != 0 || st.Files != 1 {
				t.Fatalf("stats %+v", st)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d calls, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				g := got[i]
				if g.Time.IsZero() {
					t.Errorf("call %d has no time", i)
				}
				w.Agent, w.File, w.Time = tc.agent, path, g.Time
				if fmt.Sprintf("%+v", g) != fmt.Sprintf("%+v", w) {
					t.Errorf("call %d:\n got %+v\nwant %+v", i, g, w)
				}
			}
		})
	}
}

// A call as read from an agent's record is named as the daemon names it
// from the pre-tool hook event of the same call (daemon/accounting.go:
// session, tool-use id, tool and input): the events are what the pinned
// CLIs sent the hook for the calls in the fixtures. Copilot CLI and Droid
// give the hook no id of the call, so their records' calls have none.
func TestRecordsNameCallsAsHookEventsDo(t *testing.T) {
	for _, tc := range []struct{ agent, record, event string }{
		{"copilot", "copilot/c77babb9-38da-4f3e-82be-6102ddca240e/events.jsonl", "copilot-hook.json"},
		{"droid", "droid.jsonl", "droid-hook.json"},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			f := NewFollower(Options{})
			f.Follow(tc.agent, formatOf(t, tc.agent), filepath.Join("testdata", filepath.FromSlash(tc.record)))
			calls, _ := f.Poll()
			if len(calls) != 1 {
				t.Fatalf("%d calls", len(calls))
			}
			c := calls[0]
			b, err := os.ReadFile(filepath.Join("testdata", tc.event))
			if err != nil {
				t.Fatal(err)
			}
			var ev map[string]any
			if err := json.Unmarshal(b, &ev); err != nil {
				t.Fatal(err)
			}
			first := func(keys ...string) any {
				for _, k := range keys {
					if v, ok := ev[k]; ok {
						return v
					}
				}
				return nil
			}
			id, _ := first("tool_use_id", "toolUseId", "tool_call_id", "call_id", "toolCallId").(string)
			session := first("session_id", "sessionId")
			tool := first("tool_name", "toolName")
			input, _ := json.Marshal(first("tool_input", "toolArgs"))
			var recorded any
			json.Unmarshal(c.Input, &recorded)
			again, _ := json.Marshal(recorded)
			if c.ID != id || c.Session != session || c.Tool != tool || string(again) != string(input) || c.Cwd != ev["cwd"] {
				t.Errorf("record: id %q session %q tool %q input %s cwd %q\nhook:   id %q session %v tool %v input %s cwd %v",
					c.ID, c.Session, c.Tool, again, c.Cwd, id, session, tool, input, ev["cwd"])
			}
		})
	}
}

// claudeLine is one Claude Code tool call in the recorded shape.
func claudeLine(id, command string) string {
	in, _ := json.Marshal(map[string]string{"command": command})
	return `{"parentUuid":"p","isSidechain":false,"message":{"content":[{"id":"` + id + `","input":` + string(in) +
		`,"name":"Bash","type":"tool_use"}],"id":"msg_fake","role":"assistant","stop_reason":"tool_use","type":"message","usage":{"server_tool_use":{"web_search_requests":0}}},` +
		`"type":"assistant","uuid":"u","timestamp":"2026-11-26T05:48:20.915Z","cwd":"/home/dev/work","sessionId":"s1","version":"2.1.330"}` + "\n"
}

// fillerLine is a Claude Code entry with no tool call, padded to about n bytes.
func fillerLine(n int) string {
	head := `{"parentUuid":"p","isSidechain":false,"type":"user","message":{"role":"user","content":"`
	tail := `"},"uuid":"u","timestamp":"2026-11-26T05:48:20.855Z","cwd":"/home/dev/work","sessionId":"s1"}` + "\n"
	return head + strings.Repeat("x", max(0, n-len(head)-len(tail))) + tail
}

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func ids(calls []Call) string {
	var s []string
	for _, c := range calls {
		s = append(s, c.ID)
	}
	return strings.Join(s, ",")
}

func TestIncremental(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s1.jsonl")
	f := NewFollower(Options{MaxLine: 4096})
	f.Follow("claude-code", formatOf(t, "claude-code"), path)
	poll := func(want string) Stats {
		t.Helper()
		got, st := f.Poll()
		if ids(got) != want || st.Errors != 0 {
			t.Fatalf("got %q (%+v), want %q", ids(got), st, want)
		}
		return st
	}

	poll("") // not there yet
	appendFile(t, path, fillerLine(200)+claudeLine("a", "ls"))
	poll("a")
	if st := poll(""); st.Bytes != 0 {
		t.Fatalf("an unchanged file was read again: %+v", st)
	}

	t.Run("only what was appended is read", func(t *testing.T) {
		line := claudeLine("b", "pwd")
		appendFile(t, path, line)
		if st := poll("b"); st.Bytes != int64(len(line)) {
			t.Fatalf("read %d bytes, appended %d", st.Bytes, len(line))
		}
	})

	t.Run("a partial last line waits", func(t *testing.T) {
		line := claudeLine("c", "date")
		appendFile(t, path, line[:len(line)/2])
		poll("")
		appendFile(t, path, line[len(line)/2:])
		poll("c")
	})

	t.Run("a line over MaxLine is skipped and counted", func(t *testing.T) {
		long := claudeLine("big", strings.Repeat("y", 5000))
		appendFile(t, path, long+claudeLine("d", "id"))
		if st := poll("d"); st.Skipped != 1 {
			t.Fatalf("stats %+v", st)
		}
		// One still being written is dropped as it comes, not read again.
		long = claudeLine("big2", strings.Repeat("z", 9000))
		appendFile(t, path, long[:6000])
		if st := poll(""); st.Skipped != 1 {
			t.Fatalf("stats %+v", st)
		}
		appendFile(t, path, long[6000:]+claudeLine("e", "uname"))
		if st := poll("e"); st.Skipped != 0 || st.Bytes != int64(len(long)-6000+len(claudeLine("e", "uname"))) {
			t.Fatalf("stats %+v", st)
		}
	})

	t.Run("a replaced file is read from the start", func(t *testing.T) {
		next := filepath.Join(dir, "next")
		os.WriteFile(next, []byte(claudeLine("f", "ls")+claudeLine("g", "ls")+strings.Repeat(fillerLine(3000), 10)), 0o600) // longer than what was read
		if err := os.Rename(next, path); err != nil {
			t.Fatal(err)
		}
		poll("f,g")
	})

	t.Run("a file that shrank is read from the start", func(t *testing.T) {
		os.WriteFile(path, []byte(claudeLine("h", "ls")), 0o600)
		poll("h")
	})
}

// TestRoots finds each agent's records where its facts say they are,
// keeps to the newest MaxFiles and leaves out files older than Since.
func TestRoots(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"CODEX_HOME": filepath.Join(home, "codex-home")}
	var roots []Root
	for _, a := range agents.All {
		roots = append(roots, Roots(home, func(k string) string { return env[k] }, a.Name, a.Records)...)
	}
	copyTo := func(fixture, dst string, mod time.Time) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(fixture)))
		if err != nil {
			t.Fatal(err)
		}
		dst = filepath.Join(home, filepath.FromSlash(dst))
		os.MkdirAll(filepath.Dir(dst), 0o700)
		if err := os.WriteFile(dst, b, 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(dst, mod, mod)
	}
	// The files were last written a minute apart from 05:41 on the day
	// of the fixtures, whose records are from 05:48.
	base := time.Date(2026, 11, 26, 5, 40, 0, 0, time.UTC)
	at := func(min int) time.Time { return base.Add(time.Duration(min) * time.Minute) }
	copyTo("claude-code-agent.jsonl", ".claude/projects/-home-dev-work/c8b8.jsonl", at(1))
	copyTo("claude-code-subagent.jsonl", ".claude/projects/-home-dev-work/c8b8/subagents/agent-aa63.jsonl", at(2))
	copyTo("codex.jsonl", "codex-home/sessions/2026/11/26/rollout-2026-11-26T05-48-16-01a2.jsonl", at(3))
	copyTo("gemini/work/chats/session-2026-11-26T05-48-f0aaf155.jsonl", ".gemini/tmp/work/chats/session-2026-11-26T05-48-f0aaf155.jsonl", at(4))
	copyTo("gemini/work/.project_root", ".gemini/tmp/work/.project_root", at(0))
	copyTo("qwen.jsonl", ".qwen/projects/-home-dev-work/chats/4c96.jsonl", at(5))
	copyTo("copilot/c77babb9-38da-4f3e-82be-6102ddca240e/events.jsonl", ".copilot/session-state/c77babb9-38da-4f3e-82be-6102ddca240e/events.jsonl", at(7))
	copyTo("droid.jsonl", ".factory/sessions/-home-dev-work/0702757e-7f2f-4677-912f-7e64616fb7fa.jsonl", at(8))
	copyTo("pi.jsonl", ".pi/agent/sessions/--home-dev-work--/2026-11-26T07-47-16-701Z_01a216d2.jsonl", at(0))
	copyTo("codex.jsonl", ".codex/sessions/2026/11/26/rollout-elsewhere.jsonl", at(6)) // CODEX_HOME moved it
	copyTo("qwen.jsonl", ".claude/projects/notes.md", at(6))                           // not a record

	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"all", Options{}, "droid/Execute,copilot/bash,qwen/call_1,gemini/run_shell_command__run_shell_command_1795672135692_0,codex/call_1,claude-code/toolu_sub_bash,claude-code/toolu_agent1,pi/call_1"},
		{"the newest two", Options{MaxFiles: 2}, "droid/Execute,copilot/bash"},
		{"files written since", Options{Since: at(4)}, "droid/Execute,copilot/bash,qwen/call_1,gemini/run_shell_command__run_shell_command_1795672135692_0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Roots = roots
			calls, st := NewFollower(tc.opts).Poll()
			var got []string
			for _, c := range calls {
				name := c.ID
				if name == "" { // Copilot CLI and Droid name no call
					name = c.Tool
				}
				got = append(got, c.Agent+"/"+name)
				if c.Cwd != "/home/dev/work" {
					t.Errorf("%s: cwd %q", c.File, c.Cwd)
				}
			}
			if strings.Join(got, ",") != tc.want || st.Errors != 0 {
				t.Fatalf("got %v (%+v)\nwant %s", got, st, tc.want)
			}
		})
	}
}

func TestSinceSkipsOlderRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	b, _ := os.ReadFile(filepath.Join("testdata", "codex.jsonl"))
	os.WriteFile(path, b, 0o600)
	call := time.Date(2026, 11, 26, 5, 48, 16, 271e6, time.UTC) // when Codex recorded its call
	for _, tc := range []struct {
		name  string
		since time.Time
		want  int
	}{
		{"since just before", call.Add(-time.Millisecond), 1},
		{"since just after", call.Add(time.Millisecond), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFollower(Options{Since: tc.since})
			f.Follow("codex", formatOf(t, "codex"), path)
			if got, st := f.Poll(); len(got) != tc.want || st.Files != 1 {
				t.Fatalf("got %+v (%+v), want %d calls", got, st, tc.want)
			}
		})
	}
}

// TestLargeTranscript follows a 100 MB transcript: every call is found,
// every byte is read once, and memory does not grow with the file.
func TestLargeTranscript(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB")
	}
	const size, every = 100 << 20, 1000
	path := filepath.Join(t.TempDir(), "big.jsonl")
	fd, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(fd, 1<<20)
	filler := fillerLine(1024)
	var written, want int
	for i := 0; written < size; i++ {
		line := filler
		if i%every == 0 {
			line = claudeLine(fmt.Sprintf("t%d", want), "echo "+strings.Repeat("a", 100))
			want++
		}
		w.WriteString(line)
		written += len(line)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	fd.Close()

	f := NewFollower(Options{})
	f.Follow("claude-code", formatOf(t, "claude-code"), path)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	calls, st := f.Poll()
	runtime.ReadMemStats(&after)
	if len(calls) != want || st.Bytes != int64(written) || st.Errors != 0 || st.Skipped != 0 {
		t.Fatalf("%d calls of %d, %d bytes read of %d, %+v", len(calls), want, st.Bytes, written, st)
	}
	const bound = 32 << 20
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > bound {
		t.Errorf("reading %d MB allocated %d MB", written>>20, alloc>>20)
	}
	if after.HeapInuse > bound {
		t.Errorf("heap in use %d MB", after.HeapInuse>>20)
	}

	more := claudeLine("last", "ls") + filler
	appendFile(t, path, more)
	calls, st = f.Poll()
	if ids(calls) != "last" || st.Bytes != int64(len(more)) {
		t.Fatalf("after appending %d bytes: %q, %+v", len(more), ids(calls), st)
	}
}

// A line that cannot hold a call is not decoded at all.
func TestFillerLinesDoNotAllocate(t *testing.T) {
	line := []byte(fillerLine(1024))
	allocs := testing.AllocsPerRun(100, func() {
		if formats["claude-transcript"].holds(line) {
			t.Fatal("a filler line looks like a call")
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a line", allocs)
	}
}

// formatOf is the format of agent's records, by its facts.
func formatOf(t testing.TB, agent string) string {
	t.Helper()
	a, ok := agents.Named(agent)
	if !ok || len(a.Records) == 0 {
		t.Fatalf("%s has no records in its facts", agent)
	}
	return a.Records[0].Format
}

// Of a real record, only the lines that name the session or hold a call
// are decoded: Copilot CLI's other events (the prompt, the model's
// message, the hooks it ran, the result) and Droid's other messages are
// passed over by the byte check.
func TestOnlySessionAndCallLinesAreDecoded(t *testing.T) {
	for _, tc := range []struct {
		agent, file string
		want        []string // the lines decoded, by a string each holds
	}{
		{"copilot", "copilot/c77babb9-38da-4f3e-82be-6102ddca240e/events.jsonl", []string{`"type":"session.start"`, `"type":"tool.execution_start"`}},
		{"droid", "droid.jsonl", []string{`"type":"session_start"`, `"type":"tool_use"`}},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			format := formats[formatOf(t, tc.agent)]
			var held []string
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			for _, line := range lines {
				if format.holds([]byte(line)) {
					held = append(held, line)
				}
			}
			if len(held) != len(tc.want) {
				t.Fatalf("%d of %d lines decoded, want %d:\n%s", len(held), len(lines), len(tc.want), strings.Join(held, "\n"))
			}
			for i, w := range tc.want {
				if !strings.Contains(held[i], w) {
					t.Errorf("line %d decoded: %s\nwant the one holding %s", i, held[i], w)
				}
			}
		})
	}
}

// A subagent's calls are marked: Copilot CLI stamps the events of a
// subagent with its agentId (data.parentToolCallId before), Droid starts
// a subagent's session file with the callingSessionId of its parent.
// These are the shapes the CLIs' own schemas give; the fake model's runs
// started no subagent.
func TestSubagentCallsAreMarked(t *testing.T) {
	for _, tc := range []struct {
		name, agent string
		lines       []string
		want        []bool
	}{
		{"copilot", "copilot", []string{
			`{"type":"session.start","data":{"sessionId":"s1","context":{"cwd":"/home/dev/work"}},"timestamp":"2026-11-26T07:45:10.812Z"}`,
			`{"type":"tool.execution_start","data":{"toolCallId":"call_1","toolName":"bash","arguments":{"command":"ls"}},"timestamp":"2026-11-26T07:45:11.372Z"}`,
			`{"type":"tool.execution_start","agentId":"a1","data":{"toolCallId":"call_2","toolName":"bash","arguments":{"command":"ls"}},"timestamp":"2026-11-26T07:45:11.372Z"}`,
			`{"type":"tool.execution_start","data":{"toolCallId":"call_3","toolName":"bash","arguments":{"command":"ls"},"parentToolCallId":"call_0"},"timestamp":"2026-11-26T07:45:11.372Z"}`,
		}, []bool{false, true, true}},
		{"droid", "droid", []string{
			`{"type":"session_start","id":"s2","version":2,"cwd":"/home/dev/work","callingSessionId":"s1","callingToolUseId":"call_9"}`,
			`{"type":"message","timestamp":"2026-11-26T07:46:06.787Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"Execute","input":{"command":"ls"}}]}}`,
		}, []bool{true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			appendFile(t, path, strings.Join(tc.lines, "\n")+"\n")
			f := NewFollower(Options{})
			f.Follow(tc.agent, formatOf(t, tc.agent), path)
			calls, st := f.Poll()
			if len(calls) != len(tc.want) || st.Errors != 0 {
				t.Fatalf("%+v (%+v)", calls, st)
			}
			for i, w := range tc.want {
				if calls[i].Subagent != w || calls[i].Cwd != "/home/dev/work" {
					t.Errorf("call %d: %+v, want subagent %v", i, calls[i], w)
				}
			}
		})
	}
}
