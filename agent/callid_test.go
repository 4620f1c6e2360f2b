package agent

import (
	"reflect"
	"testing"
)

// TopLevelCall reads each part from the first of its keys that holds
// one, in each agent's spelling, and an input whatever it holds.
func TestTopLevelCall(t *testing.T) {
	for _, tc := range []struct {
		name  string
		event map[string]any
		want  CallID
	}{
		{"Claude Code's keys", map[string]any{"session_id": "s", "tool_use_id": "u", "tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}, "hook_event_name": "PreToolUse", "transcript_path": "/t.jsonl"},
			CallID{Session: "s", ID: "u", Tool: "Bash", Input: map[string]any{"command": "ls"}, Event: "PreToolUse", Transcript: "/t.jsonl"}},
		{"camel case", map[string]any{"sessionId": "s", "toolUseId": "u", "toolName": "shell", "toolArgs": `{"command":"ls"}`},
			CallID{Session: "s", ID: "u", Tool: "shell", Input: `{"command":"ls"}`}},
		{"opencode's plugin", map[string]any{"sessionID": "s", "callID": "c", "tool": "bash", "args": map[string]any{}},
			CallID{Session: "s", ID: "c", Tool: "bash", Input: map[string]any{}}},
		{"Cursor's conversation and turn", map[string]any{"conversation_id": "c", "generation_id": "g", "hook_event_name": "beforeShellExecution"},
			CallID{Session: "c", Turn: "g", Event: "beforeShellExecution"}},
		{"an empty key gives way to the next", map[string]any{"session_id": "", "sessionId": "s2"}, CallID{Session: "s2"}},
		{"a key of another type is no value", map[string]any{"session_id": 7, "tool_name": []any{"x"}}, CallID{}},
		{"an input of null is still the input", map[string]any{"tool_input": nil, "input": "later"}, CallID{}},
	} {
		if got := TopLevelCall(tc.event); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
