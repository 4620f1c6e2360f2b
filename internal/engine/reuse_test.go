package engine

import (
	"context"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
)

// A set compiled from the same sources, data and disabled ids is the
// last one reused, with a decision cache of its own; a change in any of
// them compiles afresh, and what it compiles judges by the change.
func TestCompileReusesOnlyTheSameSet(t *testing.T) {
	ctx := context.Background()
	rule := func(msg string) []Source {
		return []Source{{Name: "p.rego", Text: []byte("package agentjail\nimport rego.v1\ndeny contains \"" + msg + "\" if input.tool_name == \"X\"\n")}}
	}
	data := map[string]any{"config": map[string]any{"protected_paths": []any{}}}
	first, errs := Compile(ctx, rule("one"), data, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	again, _ := Compile(ctx, rule("one"), map[string]any{"config": map[string]any{"protected_paths": []any{}}}, nil)
	if again.query.direct != first.query.direct {
		t.Errorf("the same set was compiled again")
	}
	if again.cache == first.cache && first.cache != nil {
		t.Errorf("a reused set shares its decision cache")
	}
	reason := func(e *Engine) string {
		d, err := e.Eval(ctx, map[string]any{"tool_name": "X"})
		if err != nil || d.Verdict != wire.Deny {
			t.Fatalf("%+v %v", d, err)
		}
		return d.Reason
	}
	for _, tt := range []struct {
		name     string
		sources  []Source
		data     map[string]any
		disabled []string
		reason   string
	}{
		{"other text", rule("two"), data, nil, "two"},
		{"other data", rule("one"), map[string]any{"config": map[string]any{"protected_paths": []any{"/x"}}}, nil, "one"},
		{"other disabled ids", rule("one"), data, []string{"some.rule"}, "one"},
	} {
		e, errs := Compile(ctx, tt.sources, tt.data, tt.disabled)
		if len(errs) > 0 {
			t.Fatal(tt.name, errs)
		}
		if e.query.direct == first.query.direct {
			t.Errorf("%s: reused the set compiled before", tt.name)
		}
		if got := reason(e); got != tt.reason {
			t.Errorf("%s: reason %q, want %q", tt.name, got, tt.reason)
		}
	}
}
