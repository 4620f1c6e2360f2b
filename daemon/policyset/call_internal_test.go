package policyset

import (
	"strings"
	"testing"

	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/jsonscan"
)

// A judged call's agent is the one its facts were derived for: it is not
// recognised again from the event (whose shape may be another's). A call
// answered without deriving is recognised from its event's shape, then
// by the agent the hook ran for; an event's own input.Key is never taken
// for derived facts.
func TestCallAgentIsTheDerivedOne(t *testing.T) {
	for _, a := range agents.All {
		c := newCall(map[string]any{"tool_name": "Bash", "session_id": "s1"}, &input.Derived{Agent: a.Name}, agents.Default)
		if c.Agent.Name != a.Name {
			t.Errorf("derived for %s: the call's agent is %s", a.Name, c.Agent.Name)
		}
	}
	var gemini string
	for _, a := range agents.All {
		if a.Adapter.Recognise(map[string]any{"hook_event_name": "BeforeTool"}) {
			gemini = a.Name
		}
	}
	if c := CallOf([]byte(`{"hook_event_name":"BeforeTool","session_id":"s2"}`), agents.Default); c.Agent.Name != gemini || c.ID.Session != "s2" || c.Derived != nil {
		t.Errorf("an event in %s's shape, not derived: %s, %+v", gemini, c.Agent.Name, c.ID)
	}
	last := agents.All[len(agents.All)-1].Name
	if c := CallOf([]byte(`{"tool_name":"Bash","agentjail":{"agent":"codex"}}`), last); c.Agent.Name != last {
		t.Errorf("a shapeless event the hook ran for %s, with its own agentjail key: the call's agent is %s", last, c.Agent.Name)
	}
	if c := CallOf([]byte(`not json`), ""); c.Agent.Adapter == nil || c.ID.Session != "" || c.ID.Tool != "" {
		t.Errorf("an event that does not decode: %+v", c)
	}
}

// A call nested too deep to judge is still named by its event, so that
// the accounting knows it when it runs after a person approved it.
func TestCallOfATooDeepEvent(t *testing.T) {
	deep := strings.Repeat(`{"a":`, jsonscan.MaxDepth+10) + "1" + strings.Repeat("}", jsonscan.MaxDepth+10)
	event := `{"session_id":"s1","tool_use_id":"t1","tool_name":"Bash","tool_input":` + deep + `}`
	if !jsonscan.TooDeep([]byte(event)) {
		t.Fatal("the event is not too deep for the hook's bound")
	}
	c := CallOf([]byte(event), agents.Default)
	if c.ID.Session != "s1" || c.ID.ID != "t1" || c.ID.Tool != "Bash" {
		t.Errorf("a too-deep event's call: %+v", c.ID)
	}
}
