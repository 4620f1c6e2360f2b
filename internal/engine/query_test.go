package engine

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/wire"
)

// TestDirectQuery checks how the decision path reads each message set
// for policy sets of every shape, and that it decides as the reference
// path (the rego package, every set through the verdict module) does.
func TestDirectQuery(t *testing.T) {
	ctx := context.Background()
	bash := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}
	tests := []struct {
		name   string
		policy string
		org    bool // the policy is an org bundle's
		data   map[string]any
		want   map[string]setReading // the sets not named are absent
		rules  int                   // how many rules fire on bash
	}{
		{name: "partial set rules are read directly",
			policy: "package agentjail\ndeny contains \"d\" if input.tool_name == \"Bash\"\nask contains {\"id\": \"a\", \"msg\": \"m\"} if true\n",
			want:   map[string]setReading{"deny": readDirect, "ask": readDirect}, rules: 2},
		{name: "a set no rule defines is left out",
			policy: "package agentjail\nallow contains \"ok\" if false\n",
			want:   map[string]setReading{"allow": readDirect}, rules: 0},
		{name: "a complete rule goes through the module",
			policy: "package agentjail\ndeny := {\"x\", \"y\"} if input.tool_name == \"Bash\"\n",
			want:   map[string]setReading{"deny": readModule}, rules: 2},
		{name: "rules below a set make it an object: through the module",
			policy: "package agentjail\ndeny.sub contains \"x\" if true\n",
			want:   map[string]setReading{"deny": readModule}, rules: 1},
		{name: "a package under a set: through the module",
			policy: "package agentjail.ask\nz := \"q\"\n",
			want:   map[string]setReading{"ask": readModule}, rules: 1},
		{name: "base data at a set: through the module",
			policy: "package agentjail.org\ndeny contains \"o\" if true\n", org: true,
			data: map[string]any{"agentjail": map[string]any{"org": map[string]any{"deny": []any{"from data"}}}},
			want: map[string]setReading{"org_deny": readModule}, rules: 1}, // the rules' set hides the data
		{name: "org sets are read directly",
			policy: "package agentjail.org\ndeny contains \"o\" if true\nask contains \"p\" if true\n", org: true,
			data: map[string]any{"agentjail": map[string]any{"org": map[string]any{"hosts": []any{"h"}}}},
			want: map[string]setReading{"org_deny": readDirect, "org_ask": readDirect}, rules: 2},
		{name: "messages of every shape, some sorting alike",
			policy: "package agentjail\ndeny contains \"same\" if true\ndeny contains {\"msg\": \"same\"} if true\ndeny contains 7 if true\ndeny contains {\"id\": \"x\"} if true\ndeny contains [\"a\", \"b\"] if true\n",
			want:   map[string]setReading{"deny": readDirect}, rules: 5},
		{name: "nothing defines any set",
			policy: "package other\nx := 1\n", want: map[string]setReading{}, rules: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, errs := Compile(ctx, []Source{{Name: "p.rego", Text: []byte(tt.policy), Org: tt.org}}, tt.data, nil)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			for _, s := range verdictSets {
				data := tt.data
				if data == nil {
					data = map[string]any{}
				}
				if got := reading(e.query.direct.compiler, data, s.path); got != tt.want[s.name] {
					t.Errorf("%s read %d, want %d", s.name, got, tt.want[s.name])
				}
			}
			got, err := e.Eval(NoCache(ctx), bash)
			if err != nil {
				t.Fatal(err)
			}
			want, err := e.EvalReference(ctx, bash)
			if err != nil {
				t.Fatal(err)
			}
			if len(want.Rules) != tt.rules {
				t.Errorf("reference path: %d rules, want %d: %+v", len(want.Rules), tt.rules, want.Rules)
			}
			if got.Verdict != want.Verdict || got.Reason != want.Reason || !reflect.DeepEqual(got.Rules, want.Rules) {
				t.Errorf("direct %s %+v\nreference %s %+v", got.Verdict, got.Rules, want.Verdict, want.Rules)
			}
		})
	}
}

// TestDirectQueryHonoursDeadline checks that a context ending stops an
// evaluation on the decision path midway, as it does through rego.
func TestDirectQueryHonoursDeadline(t *testing.T) {
	slow := "package agentjail\ndeny contains \"slow\" if { some i in numbers.range(1, 100000); some j in numbers.range(1, 100000); i + j < 0 }\n"
	e, errs := Compile(context.Background(), []Source{{Name: "p.rego", Text: []byte(slow)}}, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	d, err := e.Eval(NoCache(ctx), map[string]any{})
	if err == nil || d.Verdict != wire.Deny {
		t.Fatalf("an evaluation past its deadline gave %s, %v", d.Verdict, err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Fatalf("the evaluation stopped only after %v", took)
	}
}
