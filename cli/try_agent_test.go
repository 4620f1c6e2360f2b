package cli

import (
	"testing"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
)

// try --agent builds each agent's own event, which that agent's adapter
// (and no other) reads back as the same call.
func TestTryAgentEvent(t *testing.T) {
	for _, name := range agents.Names() {
		for _, tt := range []struct{ tool, arg, kind string }{{"Bash", "cat ~/.ssh/id_rsa", agent.KindShell}, {"Read", "~/.aws/credentials", agent.KindRead}} {
			t.Run(name+"/"+tt.tool, func(t *testing.T) {
				ev, err := tryEvent(nil, "", tt.tool, "/work/p", []string{tt.arg}, editText{})
				if err != nil {
					t.Fatal(err)
				}
				m := agent.Decode(agentEvent(name, ev))
				a := agents.For(m, name)
				if a.Name() != name {
					t.Fatalf("read as %s", a.Name())
				}
				if c := a.Canonical(m); c.Kind != tt.kind {
					t.Errorf("kind %q, want %q (%v)", c.Kind, tt.kind, m)
				}
				// Codex's, Qwen Code's and Droid's shape is Claude Code's
				// (PreToolUse): only the flag tells them apart.
				if m["hook_event_name"] != "PreToolUse" && agents.For(m, "claude-code").Name() != name {
					t.Errorf("the %s event is not recognised without the flag", name)
				}
			})
		}
	}
}

// An Edit's and a Write's text given to try reach each agent's event in
// that agent's own fields, and its adapter reads them back as Claude
// Code's old_string, new_string and content.
func TestTryAgentEventCarriesTheText(t *testing.T) {
	edit := editText{old: "name: CI", new: "name: Build", oldSet: true, newSet: true}
	write := editText{content: "export EDITOR=vim\n", contentSet: true}
	for _, name := range agents.Names() {
		for _, tt := range []struct {
			tool string
			text editText
			want map[string]string
		}{
			{"Edit", edit, map[string]string{"old_string": "name: CI", "new_string": "name: Build"}},
			{"Write", write, map[string]string{"content": "export EDITOR=vim\n"}},
		} {
			t.Run(name+"/"+tt.tool, func(t *testing.T) {
				ev, err := tryEvent(nil, "", tt.tool, "/work/p", []string{"/work/p/f.yml"}, tt.text)
				if err != nil {
					t.Fatal(err)
				}
				m := agent.Decode(agentEvent(name, ev))
				c := agents.For(m, name).Canonical(m)
				in, _ := c.LikeInput.(map[string]any)
				if c.Like != tt.tool || in["file_path"] != "/work/p/f.yml" {
					t.Fatalf("read as %s %v", c.Like, c.LikeInput)
				}
				for k, v := range tt.want {
					if in[k] != v {
						t.Errorf("%s = %#v, want %q (%v)", k, in[k], v, in)
					}
				}
			})
		}
	}
}
