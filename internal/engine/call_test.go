package engine

import (
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/wire"
)

// keyRecorder is an input.Builder that only notes the keys written.
type keyRecorder struct{ keys map[string]bool }

func (keyRecorder) String(string) struct{}       { return struct{}{} }
func (keyRecorder) Int(int) struct{}             { return struct{}{} }
func (keyRecorder) Bool(bool) struct{}           { return struct{}{} }
func (keyRecorder) Strings([]string) struct{}    { return struct{}{} }
func (keyRecorder) Array([]struct{}) struct{}    { return struct{}{} }
func (keyRecorder) JSON(any) struct{}            { return struct{}{} }
func (keyRecorder) Mark() int                    { return 0 }
func (r keyRecorder) Field(k string, _ struct{}) { r.keys[k] = true }
func (keyRecorder) Object(int) struct{}          { return struct{}{} }

// TestInputKeysInterned checks that every key of input.agentjail's
// shape is interned, so that no decision makes its own copy of one.
func TestInputKeysInterned(t *testing.T) {
	r := keyRecorder{keys: map[string]bool{}}
	for _, ev := range []string{
		`{"tool_name":"Bash","tool_input":{"command":"ls -l src > out.txt; bash -c 'x' 2>&1 | tee log; $(true); cat <(date)"}}`,
		`{"tool_name":"Grep","tool_input":{"pattern":"x","path":"/a"}}`,
		`{"tool_name":"Bash","tool_input":{"command":"(("}}`,
		`{"tool_name":"Write","tool_input":{"file_path":"~/.claude/settings.json","content":"{}"}}`,
	} {
		_, d, err := input.Build([]byte(ev), input.Env{Home: "/home/dev", ClientCwd: "/w/p"})
		if err != nil {
			t.Fatal(err)
		}
		input.Encode(d, r)
	}
	if len(r.keys) < 40 {
		t.Fatalf("only %d keys recorded", len(r.keys))
	}
	for k := range r.keys {
		if !ast.HasInternedValue(k) {
			t.Errorf("key %q is not in internedStrings", k)
		}
	}
}

// TestEvalCallConcurrent decides calls with the default pack from several
// goroutines at once, as the daemon's workers do (run it with -race):
// the input builders and the terms they keep from one call to the next
// are shared, and every answer must be the reference path's.
func TestEvalCallConcurrent(t *testing.T) {
	ctx := context.Background()
	e, errs := Compile(ctx, defaultPack(t, false), nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	env := input.Env{Home: "/home/dev", ClientCwd: "/work/project", ProgramGroups: e.ProgramGroups(), Roles: e.ShellRoles(), Written: e.WrittenFiles()}
	type call struct {
		event map[string]any
		d     *input.Derived
		want  *wire.Decision
	}
	var calls []call
	for _, ev := range familyEvents {
		raw, _ := json.Marshal(ev)
		in, d, err := input.Build(raw, env)
		if err != nil {
			t.Fatal(err)
		}
		want, err := e.EvalReference(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		event, _ := input.Decode(raw)
		calls = append(calls, call{event, d, want})
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 3 * len(calls) {
				c := calls[(g+i)%len(calls)]
				got, err := e.EvalCall(NoCache(ctx), c.event, c.d)
				if err != nil {
					t.Error(err)
					return
				}
				if got.Verdict != c.want.Verdict || !reflect.DeepEqual(got.Rules, c.want.Rules) {
					t.Errorf("%v: %s %v, want %s %v", c.event["tool_input"], got.Verdict, got.Rules, c.want.Verdict, c.want.Rules)
					return
				}
			}
		})
	}
	wg.Wait()
}
