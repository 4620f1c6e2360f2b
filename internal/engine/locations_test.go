package engine

import (
	"context"
	"strings"
	"testing"
)

// The pack's compiled terms forget where they were written, and a user's
// keep it: an evaluation error in a user's file still names its line.
func TestLocationsDroppedForThePackOnly(t *testing.T) {
	user := "package agentjail\n\ndeny contains msg if {\n\tmsg := sprintf(\"%d\", [to_number(input.tool_input.command)])\n}\n"
	eng, errs := compileWithPack(user)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	_, err := eng.Eval(context.Background(), map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
	if err == nil || !strings.Contains(err.Error(), "user.rego:4:") {
		t.Errorf("a user's failing rule: %v, want an error naming user.rego:4", err)
	}

	pack := eng.query.direct.compiler.Modules["default/mini.rego"]
	if pack == nil {
		t.Fatal("no pack module")
	}
	for _, r := range pack.Rules {
		if r.Location == nil {
			t.Errorf("rule %s lost its own location", r.Head.Ref())
		}
		for _, e := range r.Body {
			if e.Location != nil {
				t.Errorf("rule %s keeps the location of %v", r.Head.Ref(), e)
			}
		}
	}
}
