package agent_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/internal/wire"
)

// topEvents are events whose shapes the adapters tell apart, look-alikes
// included, spelled in ways a decoder must see through.
var topEvents = []string{
	`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
	`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
	`{"timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`,
	`{"toolName":"bash","toolArgs":null}`,
	`{"toolName":null,"toolArgs":"{}"}`,
	`{"hook_event_name":"beforeShellExecution","command":"ls","cwd":"/w"}`,
	`{"hook_event_name":"beforeReadFile","file_path":"/w/.env"}`,
	`{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"ls"}}`,
	`{"tool_name":"Bash","tool_input":{"toolName":"x","toolArgs":"{}"}}`,
	`{"tool_name":"Bash","toolName":"bash","toolArgs":"{}"}`,
	` { "hook\u005fevent_name" : "Before\u0054ool" , "tool_name":"x" } `,
	`{"hook_event_name":"BeforeTool","hook_event_name":"PreToolUse"}`,
	`{"hook_event_name":"PreToolUse","hook_event_name":"beforeReadFile"}`,
	`{"hook_event_name":["BeforeTool"],"toolName":{"a":"b"},"toolArgs":[1,2]}`,
	`{"hook_event_name":"before\tReadFile","toolName":"\ud83d\ude00","toolArgs":"\ud800"}`,
	`{}`,
}

// The hook reads events with DecodeTop, the daemon with Decode: both
// must pick the same adapter and get the same answer from it.
func TestDecodeTopReadsAsDecode(t *testing.T) {
	for _, ev := range topEvents {
		sameReading(t, ev)
	}
}

func FuzzDecodeTop(f *testing.F) {
	for _, ev := range topEvents {
		f.Add(ev)
	}
	f.Fuzz(func(t *testing.T, ev string) {
		if !json.Valid([]byte(ev)) || agent.Decode([]byte(ev)) == nil {
			return
		}
		sameReading(t, ev)
	})
}

func sameReading(t *testing.T, ev string) {
	t.Helper()
	full, top := agent.Decode([]byte(ev)), agent.DecodeTop([]byte(ev))
	if full == nil || top == nil {
		t.Fatalf("%s: Decode %v, DecodeTop %v", ev, full, top)
	}
	if len(full) != len(top) {
		t.Errorf("%s: %d members, DecodeTop %d", ev, len(full), len(top))
	}
	for k, v := range full {
		if s, ok := v.(string); ok && top[k] != s {
			t.Errorf("%s: member %q is %q, DecodeTop %v", ev, k, s, top[k])
		}
	}
	verdicts := []wire.Decision{{Verdict: wire.Deny, Reason: "no"}, {Verdict: wire.Ask, Reason: "sure?"}, {Verdict: wire.Allow, Explicit: true}, {Verdict: wire.Allow}, {Verdict: "maybe"}}
	for _, flag := range append(agents.Names(), "", "vim") {
		a, b := agents.For(full, flag), agents.For(top, flag)
		if a.Name() != b.Name() {
			t.Errorf("%s --agent %q: For %s, with DecodeTop %s", ev, flag, a.Name(), b.Name())
			continue
		}
		for _, d := range verdicts {
			if x, y := a.Render(full, &d), b.Render(top, &d); !reflect.DeepEqual(x, y) {
				t.Errorf("%s --agent %q %s: Render %+v, with DecodeTop %+v", ev, flag, d.Verdict, x, y)
			}
		}
	}
}
