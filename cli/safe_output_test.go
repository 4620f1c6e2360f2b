package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/hook"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// hostile is agent-chosen text that would repaint a terminal, move the
// cursor back over a line, or reverse what follows, if printed raw.
const hostile = "rm -rf ~\x1b[2K\r\x1b[32mallow\x1b[0m \u009b2J \u202Efdp.exe \x07"

// assertSafe fails if out holds any raw control character other than a
// newline, or any C1 or bidi control.
func assertSafe(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Errorf("%s: raw %U in output:\n%s", what, r, out)
			return
		}
	}
}

func TestTryOutputIsSafe(t *testing.T) {
	in, _ := json.Marshal(map[string]any{"tool_name": "Bash", "agentjail": map[string]any{"parse_error": hostile, "commands": []map[string]any{{"name": "rm", "args": []string{hostile}}}}})
	tests := []struct {
		name string
		dec  *wire.Decision
	}{
		{"deny quoting the command", &wire.Decision{Verdict: wire.Deny, Reason: "Blocked: " + hostile, Rules: []wire.Rule{{Kind: wire.Deny, ID: hostile, Msg: "Blocked: " + hostile}}, Input: in}},
		{"ask", &wire.Decision{Verdict: wire.Ask, Reason: hostile, Rules: []wire.Rule{{Kind: wire.Ask, Msg: hostile}}, Omitted: 3}},
		{"explicit allow", &wire.Decision{Verdict: wire.Allow, Explicit: true, Reason: hostile, Rules: []wire.Rule{{Kind: wire.Allow, Msg: hostile}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			printDecision(&out, tt.dec, tryView{verbose: true})
			assertSafe(t, "try", out.String())
			if !strings.Contains(out.String(), `\x1b[2K\x0d\x1b[32mallow`) || !strings.Contains(out.String(), `\u202E`) {
				t.Errorf("the escapes must be visible:\n%s", out.String())
			}
			if tt.dec.Omitted > 0 && !strings.Contains(out.String(), "and 3 more not shown") {
				t.Errorf("omitted rules not mentioned:\n%s", out.String())
			}
		})
	}
	// What try shows is escaped; what the hook sends the agent is not
	// changed by it.
	stdout, _, _ := hook.Render(tests[0].dec)
	var answer struct {
		Out struct {
			Reason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(stdout, &answer) != nil || answer.Out.Reason != "Blocked: "+hostile {
		t.Errorf("the hook's own answer changed: %s", stdout)
	}
}

func TestLogsOutputIsSafe(t *testing.T) {
	r := decisionlog.Record{Time: time.Now(), Agent: "cx\x1b[2J", Tool: "mcp__x\x1b]0;pwned\x07", Summary: hostile, Verdict: "deny", RuleIDs: []string{"a\rb"}, Reasons: []string{hostile}, Undelivered: true}
	for _, asJSON := range []bool{false, true} {
		var out bytes.Buffer
		p := &logPrinter{out: &out, json: asJSON}
		p.header()
		p.print(r)
		assertSafe(t, "logs", out.String())
		if asJSON {
			var back decisionlog.Record
			if err := json.Unmarshal(out.Bytes(), &back); err != nil || back.Summary != hostile || back.Tool != r.Tool {
				t.Errorf("--json must stay the same record: %v %+v", err, back)
			}
		} else if !strings.Contains(out.String(), `mcp__x\x1b]0;pwned\`) || !strings.Contains(out.String(), "(undelivered)") {
			t.Errorf("table:\n%s", out.String())
		}
	}
}

func TestStatusOutputIsSafeAndShowsLogErrors(t *testing.T) {
	st := &wire.Status{
		PID: 1, Version: "v", StartedAt: time.Now().UTC().Format(time.RFC3339), Socket: "/s",
		Sources:     []wire.Source{{Name: "/p/" + hostile + ".rego", RegoVersion: "v1"}},
		LoadErrors:  []wire.LoadErr{{File: hostile, Line: 1, Message: hostile}},
		ConfigError: hostile, EvalErrors: 1, LastEvalErr: hostile,
		LogErrors: 7, LastLogError: "writing decisions.jsonl: no space left on device",
	}
	rep := statusReport{Running: true, Daemon: st, FailOpens: failOpenStats{Total: 1, Last: &hook.FailRecord{Time: "t", Mode: "open", Error: hostile}}}
	var out bytes.Buffer
	printStatus(&out, rep, nil)
	assertSafe(t, "status", out.String())
	if !strings.Contains(out.String(), "decision log: 7 decisions not recorded") || !strings.Contains(out.String(), "no space left") || !strings.Contains(out.String(), "health: degraded") {
		t.Errorf("status:\n%s", out.String())
	}
}

func TestHealth(t *testing.T) {
	tests := []struct {
		name string
		st   wire.Status
		fo   failOpenStats
		want bool
	}{
		{"nothing wrong", wire.Status{}, failOpenStats{Total: 3}, true},
		// Health describes now: counters of errors that are over (the
		// daemon lists them as problems only for an hour) do not degrade.
		{"old errors only", wire.Status{LogErrors: 1, EvalErrors: 2}, failOpenStats{Total: 1, SinceStart: 1}, true},
		{"a present problem", wire.Status{Problems: []wire.Problem{{Kind: "config", Message: "x", Fix: "y"}}}, failOpenStats{}, false},
		{"a recent fail-open", wire.Status{Problems: []wire.Problem{{Kind: "fail_open", Message: "x", Fix: "y"}}}, failOpenStats{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := healthy(&tt.st, tt.fo); got != tt.want {
				t.Errorf("healthy = %v, want %v", got, tt.want)
			}
		})
	}
}
