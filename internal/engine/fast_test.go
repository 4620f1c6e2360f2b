package engine

import (
	"context"
	"sync"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
)

// TestDecisionCache checks when decisions are cached and that a cached
// decision is only reused for an input the rules cannot tell apart.
func TestDecisionCache(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		policy    string
		cacheable bool
		// a and b differ only in fields the policy does or does not read.
		a, b      map[string]any
		wantA     wire.Verdict
		wantB     wire.Verdict
		wantHitsB int64 // cache hits after deciding a, then b
	}{
		{
			name:      "the default pack alone is cached",
			cacheable: true,
			a:         shellCall("ls", "s1"), b: shellCall("ls", "s2"),
			wantA: wire.Allow, wantB: wire.Allow, wantHitsB: 1, // session_id is read by no rule
		},
		{
			name:      "a field a rule reads is in the key",
			policy:    "package agentjail\n\ndeny contains \"second session\" if input.session_id == \"s2\"\n",
			cacheable: true,
			a:         shellCall("ls", "s1"), b: shellCall("ls", "s2"),
			wantA: wire.Allow, wantB: wire.Deny, wantHitsB: 0,
		},
		{
			name:      "a field read through object.get with a path is in the key",
			policy:    "package agentjail\n\ndeny contains \"second session\" if object.get(input, [\"session_id\"], \"\") == \"s2\"\n",
			cacheable: true,
			a:         shellCall("ls", "s1"), b: shellCall("ls", "s2"),
			wantA: wire.Allow, wantB: wire.Deny, wantHitsB: 0,
		},
		{
			name:      "object.get with a path starting at a variable puts every field in the key",
			policy:    "package agentjail\n\ndeny contains \"second session\" if { k := \"session_id\"; object.get(input, [k], \"\") == \"s2\" }\n",
			cacheable: true,
			a:         shellCall("ls", "s1"), b: shellCall("ls", "s2"),
			wantA: wire.Allow, wantB: wire.Deny, wantHitsB: 0,
		},
		{
			name:      "a rule reading input whole puts every field in the key",
			policy:    "package agentjail\n\ndeny contains \"second session\" if { x := input; x.session_id == \"s2\" }\n",
			cacheable: true,
			a:         shellCall("ls", "s1"), b: shellCall("ls", "s2"),
			wantA: wire.Allow, wantB: wire.Deny, wantHitsB: 0,
		},
		{
			name:      "a rule reading input through a variable key puts every field in the key",
			policy:    "package agentjail\n\ndeny contains \"second session\" if { some k; k == \"session_id\"; input[k] == \"s2\" }\n",
			cacheable: true,
			a:         shellCall("ls", "s1"), b: shellCall("ls", "s2"),
			wantA: wire.Allow, wantB: wire.Deny, wantHitsB: 0,
		},
		{
			name:   "a rule using time is never cached",
			policy: "package agentjail\n\nask contains \"late\" if time.now_ns() > 0\n",
			a:      shellCall("ls", "s1"), b: shellCall("ls", "s1"),
			wantA: wire.Ask, wantB: wire.Ask,
		},
		{
			name:   "a rule using rand is never cached",
			policy: "package agentjail\n\nask contains \"dice\" if rand.intn(\"x\", 6) >= 0\n",
			a:      shellCall("ls", "s1"), b: shellCall("ls", "s1"),
			wantA: wire.Ask, wantB: wire.Ask,
		},
		{
			name:   "a rule using uuid is never cached",
			policy: "package agentjail\n\nask contains \"id\" if uuid.rfc4122(\"x\") != \"\"\n",
			a:      shellCall("ls", "s1"), b: shellCall("ls", "s1"),
			wantA: wire.Ask, wantB: wire.Ask,
		},
		{
			name:   "a helper calling opa.runtime makes the whole set uncached",
			policy: "package agentjail\n\nenv := opa.runtime()\n\nask contains \"rt\" if env\n",
			a:      shellCall("ls", "s1"), b: shellCall("ls", "s1"),
			wantA: wire.Ask, wantB: wire.Ask,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sources := defaultPack(t, false)
			if tt.policy != "" {
				sources = append(sources, Source{Name: "user.rego", Text: []byte(tt.policy)})
			}
			e, errs := Compile(ctx, sources, nil, nil)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if e.Cacheable() != tt.cacheable {
				t.Fatalf("Cacheable() = %v, want %v", e.Cacheable(), tt.cacheable)
			}
			for i, in := range []map[string]any{tt.a, tt.b} {
				want := []wire.Verdict{tt.wantA, tt.wantB}[i]
				d, err := e.Eval(ctx, in)
				if err != nil {
					t.Fatal(err)
				}
				if d.Verdict != want {
					t.Fatalf("input %d: %s (%s), want %s", i, d.Verdict, d.Reason, want)
				}
				ref, err := e.EvalReference(ctx, in)
				if err != nil {
					t.Fatal(err)
				}
				if ref.Verdict != d.Verdict || ref.Reason != d.Reason {
					t.Fatalf("input %d: reference path says %s (%s), fast path %s (%s)", i, ref.Verdict, ref.Reason, d.Verdict, d.Reason)
				}
			}
			hits, _, enabled := e.CacheStats()
			if enabled != tt.cacheable || hits != tt.wantHitsB {
				t.Errorf("cache enabled %v with %d hits, want %v with %d", enabled, hits, tt.cacheable, tt.wantHitsB)
			}
		})
	}
}

// TestCachedDecisionIsACopy checks that a caller changing a decision it
// got (the daemon appends rules for written files) does not change what
// the next identical input gets.
func TestCachedDecisionIsACopy(t *testing.T) {
	ctx := context.Background()
	e, errs := Compile(ctx, []Source{{Name: "p.rego", Text: []byte("package agentjail\n\ndeny contains \"a\" if input.tool_name == \"Bash\"\n\ndeny contains \"b\" if input.tool_name == \"Bash\"\n")}}, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in := shellCall("ls", "s")
	first, _ := e.Eval(ctx, in)
	n := len(first.Rules)
	first.Rules = append(first.Rules[:0], wire.Rule{Kind: wire.Allow, Msg: "changed"})
	first.Reason = "changed"
	again, _ := e.Eval(ctx, in)
	if n != 2 || len(again.Rules) != n || again.Rules[0].Msg == "changed" || again.Reason == "changed" || again.Verdict != wire.Deny {
		t.Fatalf("the cached decision was changed through an earlier answer: %+v", again)
	}
}

// TestDecisionCacheBound fills the cache past its bound: it starts over
// rather than grow, and still answers correctly.
func TestDecisionCacheBound(t *testing.T) {
	ctx := context.Background()
	e, errs := Compile(ctx, []Source{{Name: "p.rego", Text: []byte("package agentjail\n\ndeny contains \"odd\" if input.n % 2 == 1\n")}}, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for i := range cacheMax + 10 {
		d, err := e.Eval(ctx, map[string]any{"n": i})
		if err != nil {
			t.Fatal(err)
		}
		if want := []wire.Verdict{wire.Allow, wire.Deny}[i%2]; d.Verdict != want {
			t.Fatalf("n=%d: %s, want %s", i, d.Verdict, want)
		}
	}
	e.cache.mu.Lock()
	size := len(e.cache.m)
	e.cache.mu.Unlock()
	if size > cacheMax {
		t.Fatalf("the cache holds %d decisions, past its bound of %d", size, cacheMax)
	}
}

func shellCall(command, session string) map[string]any {
	return map[string]any{
		"session_id": session, "tool_name": "Bash", "tool_input": map[string]any{"command": command},
		"agentjail": map[string]any{"tool_kind": "shell", "command": command, "names": []any{}, "kinds": []any{}, "commands": []any{}, "paths": []any{}},
	}
}

// TestNoCache checks that a context marked NoCache bypasses the cache:
// the benchmarks rely on it to measure evaluation itself.
func TestNoCache(t *testing.T) {
	ctx := context.Background()
	e, errs := Compile(ctx, []Source{{Name: "p.rego", Text: []byte("package agentjail\n\ndeny contains \"a\" if input.tool_name == \"Bash\"\n")}}, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in := shellCall("ls", "s")
	for range 3 {
		if d, _ := e.Eval(NoCache(ctx), in); d.Verdict != wire.Deny {
			t.Fatalf("verdict %s, want deny", d.Verdict)
		}
	}
	if hits, misses, _ := e.CacheStats(); hits != 0 || misses != 0 {
		t.Fatalf("NoCache evaluations touched the cache: %d hits, %d misses", hits, misses)
	}
	e.Eval(ctx, in)
	e.Eval(ctx, in)
	if hits, misses, _ := e.CacheStats(); hits != 1 || misses != 1 {
		t.Fatalf("after two plain evaluations: %d hits, %d misses, want 1 and 1", hits, misses)
	}
}

// TestDecisionCacheConcurrent decides from several goroutines at once,
// as the daemon's workers do (run it with -race): every answer right,
// whether it came from the cache or not.
func TestDecisionCacheConcurrent(t *testing.T) {
	ctx := context.Background()
	e, errs := Compile(ctx, []Source{{Name: "p.rego", Text: []byte("package agentjail\n\ndeny contains \"odd\" if input.n % 2 == 1\n")}}, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				n := (g + i) % 16
				d, err := e.Eval(ctx, map[string]any{"n": n})
				if err != nil {
					t.Error(err)
					return
				}
				if want := []wire.Verdict{wire.Allow, wire.Deny}[n%2]; d.Verdict != want {
					t.Errorf("n=%d: %s, want %s", n, d.Verdict, want)
					return
				}
				d.Rules = append(d.Rules, wire.Rule{Msg: "added by a caller"})
			}
		})
	}
	wg.Wait()
	if hits, _, _ := e.CacheStats(); hits == 0 {
		t.Error("no decision came from the cache")
	}
}
