package daemon

import (
	"fmt"
	"testing"
	"time"
)

// ev is a policy input as the daemon builds it, reduced to what repeats
// reads.
func ev(agent, event, kind, command string, paths []string, ids map[string]string) map[string]any {
	list := make([]any, len(paths))
	for i, p := range paths {
		list[i] = p
	}
	d := map[string]any{"agent": agent, "tool": kind, "paths": list, "urls": []any{}}
	if command != "" {
		d["command"] = command
	}
	in := map[string]any{"agentjail": d}
	if event != "" {
		in["hook_event_name"] = event
	}
	for k, v := range ids {
		in[k] = v
	}
	return in
}

func TestRepeats(t *testing.T) {
	cursorIDs := map[string]string{"conversation_id": "c1", "generation_id": "g1"}
	pre := ev("cursor", "preToolUse", "shell", "rm -rf ~", nil, cursorIDs)
	shell := ev("cursor", "beforeShellExecution", "shell", "rm -rf ~", nil, cursorIDs)
	type step struct {
		in       map[string]any
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
		{"another conversation", []step{{pre, "deny", 0, false}, {ev("cursor", "beforeShellExecution", "shell", "rm -rf ~", nil, map[string]string{"conversation_id": "c2", "generation_id": "g1"}), "deny", time.Second, false}}},
		{"another verdict", []step{{pre, "deny", 0, false}, {shell, "ask", time.Second, false}}},
		{"copilot and its claude-format hook", []step{
			{ev("copilot", "", "shell", "cat ~/.ssh/id_rsa", nil, nil), "deny", 0, false},
			{ev("claude-code", "PreToolUse", "shell", "cat ~/.ssh/id_rsa", nil, map[string]string{"session_id": "s"}), "deny", time.Second, true},
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
		{"no canonical view", []step{{map[string]any{"tool_name": "Bash"}, "allow", 0, false}, {map[string]any{"tool_name": "Bash"}, "allow", time.Second, false}}},
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
