package policies_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/wire"
)

// TestOddShapes sends events the case table cannot spell (numbers too
// large for a float, nested arrays, odd tool names) through a real daemon:
// none becomes a plain allow where a command would run, and none fails
// the evaluation.
func TestOddShapes(t *testing.T) {
	d := daemontest.StartFor(t, caseHome, nil)
	client := &wire.Client{Socket: d.Socket}
	tests := []struct {
		name, event string
		want        wire.Verdict
	}{
		{"huge number as the command", `{"tool_name":"Bash","tool_input":{"command":1e400}}`, wire.Ask},
		{"huge negative number", `{"tool_name":"Bash","tool_input":{"command":-1e400}}`, wire.Ask},
		{"huge number for an MCP runner", `{"tool_name":"mcp__d__run_command","tool_input":{"command":1e400}}`, wire.Ask},
		{"deeply nested arrays", `{"tool_name":"Bash","tool_input":{"command":[[[[[["rm"]]]]]]}}`, wire.Ask},
		{"lowercase bash", `{"tool_name":"bash","tool_input":{"command":"pkill -f agentjail"}}`, wire.Deny},
		{"tool_input a string", `{"tool_name":"Bash","tool_input":"rm -rf ~"}`, wire.Ask},
		{"huge number elsewhere is harmless", `{"tool_name":"Bash","tool_input":{"command":"ls","timeout":1e400}}`, wire.Allow},
		{"huge numbers in paths", `{"tool_name":"Read","tool_input":{"file_path":1e400,"offset":1e400}}`, wire.Allow},
		{"MCP runner's argv", `{"tool_name":"mcp__p__exec","tool_input":{"command":"rm","args":["-rf","~"]}}`, wire.Deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			dec, err := client.Decide(ctx, &wire.Request{Event: []byte(tt.event), Cwd: caseProject})
			if err != nil {
				t.Fatal(err)
			}
			if dec.Verdict != tt.want {
				t.Errorf("got %s (%s), want %s", dec.Verdict, dec.Reason, tt.want)
			}
		})
	}
	st, err := client.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.EvalErrors != 0 {
		t.Errorf("%d evaluation errors (last: %s)", st.EvalErrors, st.LastEvalErr)
	}
}
