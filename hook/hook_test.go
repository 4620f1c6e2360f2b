package hook

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/jsonscan"
	"github.com/agentjail/agentjail/internal/wire"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestRenderGolden(t *testing.T) {
	tests := []struct {
		name string
		dec  wire.Decision
		exit int
	}{
		{"deny", wire.Decision{Verdict: wire.Deny, Reason: "Blocked: command targets sensitive path ~/.ssh/"}, 2},
		{"ask", wire.Decision{Verdict: wire.Ask, Reason: "Publishing a package cannot be undone"}, 0},
		{"allow_explicit", wire.Decision{Verdict: wire.Allow, Explicit: true, Reason: "ls is harmless & <fine>"}, 0},
		{"allow_no_rule", wire.Decision{Verdict: wire.Allow}, 0},
		{"unknown_verdict", wire.Decision{Verdict: "maybe"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := Render(&tt.dec)
			if code != tt.exit {
				t.Errorf("exit %d, want %d", code, tt.exit)
			}
			got := "stdout: " + string(stdout) + "\nstderr: " + stderr + "\n"
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./hook -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// run runs the hook in-process with stdin and options, failure log in a
// temp dir, and returns what it printed and the records it logged.
func run(t *testing.T, opts Options, stdin io.Reader) (stdout, stderr string, code int, records []FailRecord) {
	t.Helper()
	if opts.FailLog == "" {
		opts.FailLog = filepath.Join(t.TempDir(), "hook-failures.jsonl")
	}
	var out, errb bytes.Buffer
	code = Run(context.Background(), opts, stdin, &out, &errb)
	if f, err := os.Open(opts.FailLog); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var r FailRecord
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("bad failure record %q", sc.Text())
			}
			records = append(records, r)
		}
		f.Close()
	}
	return out.String(), errb.String(), code, records
}

func TestAgainstRealDaemon(t *testing.T) {
	d := daemontest.Start(t, nil)
	client := &wire.Client{Socket: d.Socket}
	tests := []struct {
		name, event, verdict string
		code                 int
	}{
		{"deny", `{"tool_name":"Bash","tool_input":{"command":"cat ~/.ssh/id_rsa"}}`, "deny", 2},
		{"allow no rule", `{"tool_name":"Bash","tool_input":{"command":"ls ./src"}}`, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code, recs := run(t, Options{Client: client}, strings.NewReader(tt.event))
			if code != tt.code || len(recs) != 0 {
				t.Fatalf("exit %d records %v stderr %q", code, recs, stderr)
			}
			if tt.verdict == "" {
				if stdout != "" || stderr != "" {
					t.Errorf("want no output, got %q %q", stdout, stderr)
				}
				return
			}
			var out claude.ClaudeOutput
			if err := json.Unmarshal([]byte(stdout), &out); err != nil {
				t.Fatal(err)
			}
			if out.HookSpecificOutput.PermissionDecision != tt.verdict || stderr != out.HookSpecificOutput.PermissionDecisionReason+"\n" {
				t.Errorf("stdout %s stderr %q", stdout, stderr)
			}
		})
	}
}

// A call that cannot be checked fails open (or closed), and says so where
// the person looks: Claude Code shows a hook's systemMessage, not its
// stderr on exit 0. The record names the cause, so a bad event is not
// blamed on the daemon.
func TestCannotCheck(t *testing.T) {
	noDaemon := &wire.Client{Socket: filepath.Join(t.TempDir(), "none.sock")}
	tests := []struct {
		name      string
		stdin     string
		client    *wire.Client
		wantError string
		cause     string
	}{
		{"no daemon", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`, noDaemon, "no agentjail daemon is running (nothing listens on " + noDaemon.Socket + ")", wire.CauseNoDaemon},
		{"empty stdin", ``, noDaemon, "not a JSON object", wire.CauseBadEvent},
		{"garbage stdin", `rm -rf ~`, noDaemon, "not a JSON object", wire.CauseBadEvent},
		{"JSON array", `[{"tool_name":"Bash"}]`, noDaemon, "not a JSON object", wire.CauseBadEvent},
		{"JSON null", `null`, noDaemon, "not a JSON object", wire.CauseBadEvent},
		{"an object and more", `{"tool_name":"Bash"} {"tool_name":"Read"}`, noDaemon, "not a JSON object", wire.CauseBadEvent},
		{"an unfinished object", `{"tool_name":"Bash","tool_input":{"command":"ls"}`, noDaemon, "not a JSON object", wire.CauseBadEvent},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/open", func(t *testing.T) {
			stdout, stderr, code, recs := run(t, Options{Client: tt.client}, strings.NewReader(tt.stdin))
			var out map[string]any
			if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 0 || len(out) != 1 {
				t.Fatalf("exit %d stdout %q, want 0 and a systemMessage alone (no decision)", code, stdout)
			}
			if msg, _ := out["systemMessage"].(string); msg+"\n" != stderr {
				t.Errorf("systemMessage %q, want the warning on stderr %q", msg, stderr)
			}
			if !strings.Contains(stderr, tt.wantError) || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "allowed unchecked") {
				t.Errorf("stderr %q, want one line saying %q", stderr, tt.wantError)
			}
			if len(recs) != 1 || recs[0].Mode != "open" || recs[0].Cause != tt.cause {
				t.Errorf("records %v, want one fail-open caused by %s", recs, tt.cause)
			}
		})
		t.Run(tt.name+"/closed", func(t *testing.T) {
			stdout, stderr, code, recs := run(t, Options{Client: tt.client, FailClosed: true}, strings.NewReader(tt.stdin))
			var out claude.ClaudeOutput
			if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 2 {
				t.Fatalf("exit %d stdout %q", code, stdout)
			}
			r := out.HookSpecificOutput.PermissionDecisionReason
			if out.HookSpecificOutput.PermissionDecision != "deny" || !strings.Contains(r, tt.wantError) || stderr != r+"\n" {
				t.Errorf("stdout %s stderr %q", stdout, stderr)
			}
			if len(recs) != 1 || recs[0].Mode != "closed" || recs[0].Cause != tt.cause {
				t.Errorf("records %v, want one fail-closed caused by %s", recs, tt.cause)
			}
		})
	}
}

// A daemon that accepts but never answers, and an agent that never closes
// stdin, must both end in the fail mode within the timeout.
func TestNeverHangs(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "mute.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	openStdin, w := io.Pipe()
	defer w.Close()
	tests := []struct {
		name      string
		stdin     io.Reader
		wantError string
	}{
		{"mute daemon", strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`), "no answer from the agentjail daemon within"},
		{"stdin never closed", openStdin, "stdin was not closed in time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			var code int
			var stderr string
			go func() {
				_, stderr, code, _ = run(t, Options{Client: &wire.Client{Socket: sock}, Timeout: 200 * time.Millisecond}, tt.stdin)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the hook hung")
			}
			if code != 0 || !strings.Contains(stderr, tt.wantError) {
				t.Errorf("exit %d stderr %q", code, stderr)
			}
		})
	}
}

func TestOversizedEventIsAskedNotAllowed(t *testing.T) {
	d := daemontest.Start(t, nil)
	big := `{"tool_name":"Bash","tool_input":{"command":"rm -rf ~ #` + strings.Repeat("a", 2<<20) + `"}}`
	for _, closed := range []bool{false, true} {
		stdout, _, code, recs := run(t, Options{Client: &wire.Client{Socket: d.Socket}, FailClosed: closed}, strings.NewReader(big))
		want, wantCode := "ask", 0
		if closed {
			want, wantCode = "deny", 2
		}
		var out claude.ClaudeOutput
		json.Unmarshal([]byte(stdout), &out)
		if code != wantCode || out.HookSpecificOutput.PermissionDecision != want || !strings.Contains(out.HookSpecificOutput.PermissionDecisionReason, "over the 1.0 MiB limit") {
			t.Errorf("fail-closed=%v: exit %d stdout %.200s", closed, code, stdout)
		}
		if len(recs) != 1 {
			t.Errorf("records %v", recs)
		}
	}
}

// The agent chooses how deeply tool_input nests. An event nested past
// what can be checked is asked about (denied when failing closed), like
// one too large, never failed open as "not a JSON object"; one nested
// within the bound still reaches the daemon and is judged.
func TestDeepEventIsAskedNotAllowed(t *testing.T) {
	d := daemontest.Start(t, nil)
	nest := func(open, leaf, close string, n int) string {
		return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
	}
	tests := []struct {
		name, event string
		judged      bool // reaches the daemon, which allows it
	}{
		{"objects past Go's decoder limit", `{"tool_name":"Bash","tool_input":{"command":` + nest(`{"a":`, `"rm -rf ~"`, "}", 20000) + `}}`, false},
		{"objects past the bound, within Go's limit", `{"tool_name":"Bash","tool_input":{"command":` + nest(`{"a":`, `"rm -rf ~"`, "}", jsonscan.MaxDepth+10) + `}}`, false},
		{"arrays past Go's decoder limit", `{"tool_name":"Bash","tool_input":{"command":"ls","x":` + nest("[", "1", "]", 20000) + `}}`, false},
		{"deep and never closed", `{"tool_name":"Bash","tool_input":{"command":` + strings.Repeat(`{"a":`, 20000), false},
		{"nested within the bound", `{"tool_name":"Bash","tool_input":{"command":"ls","description":` + nest(`{"a":`, `"rm -rf ~"`, "}", 200) + `}}`, true},
	}
	for _, tt := range tests {
		for _, closed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/closed=%v", tt.name, closed), func(t *testing.T) {
				stdout, stderr, code, recs := run(t, Options{Client: &wire.Client{Socket: d.Socket}, FailClosed: closed}, strings.NewReader(tt.event))
				if tt.judged {
					if code != 0 || stdout != "" || stderr != "" || len(recs) != 0 {
						t.Fatalf("exit %d stdout %q stderr %q records %v, want the daemon's silent allow", code, stdout, stderr, recs)
					}
					return
				}
				want, wantCode, mode := "ask", 0, "ask"
				if closed {
					want, wantCode, mode = "deny", 2, "closed"
				}
				var out claude.ClaudeOutput
				if err := json.Unmarshal([]byte(stdout), &out); err != nil {
					t.Fatalf("exit %d stdout %.200q stderr %.200q: %v", code, stdout, stderr, err)
				}
				if code != wantCode || out.HookSpecificOutput.PermissionDecision != want || !strings.Contains(out.HookSpecificOutput.PermissionDecisionReason, "levels deep") {
					t.Errorf("exit %d stdout %.300s", code, stdout)
				}
				if len(recs) != 1 || recs[0].Mode != mode {
					t.Errorf("records %v, want one %q", recs, mode)
				}
			})
		}
	}
}

func TestBadFlagsKeepGuarding(t *testing.T) {
	tests := []struct {
		args       []string
		failClosed bool
	}{
		{[]string{"--no-such-flag"}, false},
		{[]string{"--fail-closed", "--no-such-flag"}, true},
		{[]string{"--timeout", "-1s"}, false},
	}
	for _, tt := range tests {
		opts, err := parseFlags(tt.args)
		if err == nil || opts.FailClosed != tt.failClosed || opts.Timeout <= 0 {
			t.Errorf("%v: opts %+v err %v", tt.args, opts, err)
		}
	}
}
