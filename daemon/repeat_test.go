package daemon

import (
	"fmt"
	"testing"
	"time"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/input"
)

// ev is a judged call, reduced to what repeats reads. ids are the
// session (session_id, Cursor's conversation_id) and the turn (Cursor's
// generation_id) the event carries.
func ev(agentName, event, kind, command string, paths []string, ids map[string]string) *policyset.Call {
	a, _ := agents.Named(agentName)
	return &policyset.Call{
		Agent:   a,
		ID:      agent.CallID{Event: event, Session: ids["session"], Turn: ids["turn"]},
		Derived: &input.Derived{Agent: agentName, ToolKind: kind, Command: command, Paths: paths},
	}
}

func TestRepeats(t *testing.T) {
	cursorIDs := map[string]string{"session": "c1", "turn": "g1"}
	pre := ev("cursor", "preToolUse", "shell", "rm -rf ~", nil, cursorIDs)
	shell := ev("cursor", "beforeShellExecution", "shell", "rm -rf ~", nil, cursorIDs)
	type step struct {
		in       *policyset.Call
		verdict  string
		after    time.Duration // since the first step
		repeated bool
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"cursor's two hooks for one shell call", []step{{pre, "deny", 0, false}, {shell, "deny", time.Second, true}}},
		{"the other order", []step{{shell, "deny", 0, false}, {pre, "deny", time.Second, true}}},
		{"a third event of the same shape is a new call", []step{{pre, "deny", 0, false}, {shell, "deny", time.Second, true}, {pre, "deny", 2 * time.Second, false}, {shell, "deny", 3 * time.Second, true}}},
		{"the same shape twice is two calls", []step{{pre, "allow", 0, false}, {pre, "allow", time.Second, false}}},
		{"past the window", []step{{pre, "deny", 0, false}, {shell, "deny", RepeatWindow + time.Second, false}}},
		{"another command", []step{{pre, "deny", 0, false}, {ev("cursor", "beforeShellExecution", "shell", "rm -rf ~/x", nil, cursorIDs), "deny", time.Second, false}}},
		{"another conversation", []step{{pre, "deny", 0, false}, {ev("cursor", "beforeShellExecution", "shell", "rm -rf ~", nil, map[string]string{"session": "c2", "turn": "g1"}), "deny", time.Second, false}}},
		{"another verdict", []step{{pre, "deny", 0, false}, {shell, "ask", time.Second, false}}},
		{"copilot and its claude-format hook", []step{
			{ev("copilot", "", "shell", "cat ~/.ssh/id_rsa", nil, nil), "deny", 0, false},
			{ev("claude-code", "PreToolUse", "shell", "cat ~/.ssh/id_rsa", nil, map[string]string{"session": "s"}), "deny", time.Second, true},
		}},
		{"reads of one file from two hooks", []step{
			{ev("cursor", "preToolUse", "read", "", []string{"/h/.env"}, cursorIDs), "deny", 0, false},
			{ev("cursor", "beforeReadFile", "read", "", []string{"/h/.env"}, cursorIDs), "deny", time.Second, true},
		}},
		{"reads of two files", []step{
			{ev("cursor", "preToolUse", "read", "", []string{"/h/.env"}, cursorIDs), "deny", 0, false},
			{ev("cursor", "beforeReadFile", "read", "", []string{"/h/.npmrc"}, cursorIDs), "deny", time.Second, false},
		}},
		{"a read and a write of one file", []step{
			{ev("cursor", "preToolUse", "write", "", []string{"/h/.env"}, cursorIDs), "deny", 0, false},
			{ev("cursor", "beforeReadFile", "read", "", []string{"/h/.env"}, cursorIDs), "deny", time.Second, false},
		}},
		{"no canonical view", []step{{policyset.CallOf([]byte(`{"tool_name":"Bash"}`), ""), "allow", 0, false}, {policyset.CallOf([]byte(`{"tool_name":"Bash"}`), ""), "allow", time.Second, false}}},
		{"another turn", []step{{pre, "deny", 0, false}, {ev("cursor", "beforeShellExecution", "shell", "rm -rf ~", nil, map[string]string{"session": "c1", "turn": "g2"}), "deny", time.Second, false}}},
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r repeats
			for i, s := range tt.steps {
				if got := r.repeated(s.in, s.verdict, start.Add(s.after)); got != s.repeated {
					t.Errorf("step %d: repeated %v, want %v", i, got, s.repeated)
				}
			}
		})
	}
}

// The calls remembered stay bounded however many arrive within the
// window, and a recent one is still recognised.
func TestRepeatsBound(t *testing.T) {
	var r repeats
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 5 * repeatMax {
		r.repeated(ev("cursor", "preToolUse", "shell", fmt.Sprintf("echo %d", i), nil, nil), "allow", now.Add(time.Duration(i)*time.Microsecond))
		if len(r.calls) > repeatMax {
			t.Fatalf("%d calls remembered, bound %d", len(r.calls), repeatMax)
		}
	}
	last := ev("cursor", "beforeShellExecution", "shell", fmt.Sprintf("echo %d", 5*repeatMax-1), nil, nil)
	if !r.repeated(last, "allow", now.Add(time.Second)) {
		t.Error("the latest call was forgotten")
	}
}
