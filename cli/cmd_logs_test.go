package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/decisionlog"
)

// Every row keeps its columns: a long MCP tool name or summary is
// clipped with …, every row names its agent (Claude Code's for records
// without one), and the rule column starts where the header's does.
func TestLogsColumns(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	recs := []struct {
		name string
		rec  decisionlog.Record
		tool string // what the tool column must show
		who  string // what the agent column must show
	}{
		{"short tool", decisionlog.Record{Time: at, Tool: "Bash", Summary: "ls", Verdict: "allow", Agent: "claude-code"}, "Bash", "claude-code"},
		{"long mcp tool", decisionlog.Record{Time: at, Tool: "mcp__github__create_pull_request_review", Summary: "x", Verdict: "ask", RuleIDs: []string{"mcp.write"}, Agent: "codex"}, "mcp__github__create…", "codex"},
		{"long summary", decisionlog.Record{Time: at, Tool: "Bash", Summary: strings.Repeat("é", 80), Verdict: "deny", RuleIDs: []string{"fs.rm"}, Agent: "gemini"}, "Bash", "gemini"},
		{"undelivered", decisionlog.Record{Time: at, Tool: "mcp__a_very_long_server_name__tool", Summary: "y", Verdict: "deny", RuleIDs: []string{"r"}, Undelivered: true, Agent: "cursor"}, "mcp__a_very_long_se…", "cursor"},
		{"no agent logged", decisionlog.Record{Time: at, Tool: "Read", Summary: "a.go", Verdict: "allow"}, "Read", "claude-code"},
		{"long agent name", decisionlog.Record{Time: at, Tool: "Bash", Summary: "ls", Verdict: "allow", Agent: "some-future-agent"}, "Bash", "some-futur…"},
	}
	var out bytes.Buffer
	p := &logPrinter{out: &out}
	p.header()
	for _, r := range recs {
		p.print(r.rec)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	header := []rune(lines[0])
	ruleCol := strings.Index(lines[0], "RULE") // the header is ASCII
	toolCol := strings.Index(lines[0], "TOOL")
	agentCol := strings.Index(lines[0], "AGENT")
	if agentCol < 0 || agentCol > toolCol {
		t.Fatalf("no AGENT column before TOOL: %q", lines[0])
	}
	for i, r := range recs {
		t.Run(r.name, func(t *testing.T) {
			row := []rune(lines[i+1])
			if len(row) < ruleCol {
				t.Fatalf("short row %q", lines[i+1])
			}
			if got := strings.TrimSpace(string(row[toolCol : toolCol+toolWidth])); got != r.tool {
				t.Errorf("tool column %q, want %q:\n%s\n%s", got, r.tool, string(header), lines[i+1])
			}
			if got := strings.TrimSpace(string(row[agentCol : agentCol+agentWidth])); got != r.who {
				t.Errorf("agent column %q, want %q:\n%s\n%s", got, r.who, string(header), lines[i+1])
			}
			if row[ruleCol-1] != ' ' || row[ruleCol-2] != ' ' {
				t.Errorf("the rule column moved:\n%s\n%s", string(header), lines[i+1])
			}
			if !strings.HasPrefix(lines[i+1], "2026-01-02 03:04:05") {
				t.Errorf("time not local %s: %q", timeLayout, lines[i+1])
			}
		})
	}
}

func TestLogsAndPolicyTestRefuseBadArguments(t *testing.T) {
	throwawayHome(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown verdict", []string{"logs", "--verdict", "maybe"}, ExitUsage, `--verdict must be allow, ask, deny or unchecked, not "maybe"`},
		{"negative since", []string{"logs", "--since", "-1h"}, ExitUsage, "--since must be a positive duration"},
		{"missing policy folder", []string{"policy", "test", "/nonexistent"}, ExitError, "/nonexistent: no such file or directory"},
		{"a file for a folder", []string{"policy", "test", "/etc/hostname"}, ExitError, "is not a folder"},
		{"no tests: nothing ran, so nothing passed", []string{"policy", "test"}, ExitError, "no tests in"},
		{"a --run that is not a regular expression", []string{"policy", "test", "--run", "test_("}, ExitUsage, `--run "test_(" is not a regular expression`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d (want %d), stderr %q, want %q", code, tt.code, errOut, tt.want)
			}
		})
	}
	// A known verdict is fine, and an empty log says so.
	if _, errOut, code := runCLI(t, "logs", "--verdict", "deny"); code != 0 || !strings.Contains(errOut, "no decisions") {
		t.Errorf("logs --verdict deny: exit %d, %q", code, errOut)
	}
}
