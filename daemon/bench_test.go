package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/engine/bundletest"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

// typicalTools is a mix of what an agent sends most: harmless shell
// commands, reads and edits inside the project, and the odd denial.
var typicalTools = []map[string]any{
	{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls -la ./src"}},
	{"tool_name": "Bash", "tool_input": map[string]any{"command": "go test ./... 2>&1 | tail -20"}},
	{"tool_name": "Bash", "tool_input": map[string]any{"command": "git status && git diff --stat"}},
	{"tool_name": "Bash", "tool_input": map[string]any{"command": "grep -rn \"rm -rf\" docs/ | head"}},
	{"tool_name": "Bash", "tool_input": map[string]any{"command": "cat ~/.ssh/id_rsa"}},
	{"tool_name": "Read", "tool_input": map[string]any{"file_path": "/work/project/main.go"}},
	{"tool_name": "Edit", "tool_input": map[string]any{"file_path": "main.go", "old_string": "a", "new_string": "b", "replace_all": false}},
	{"tool_name": "Read", "tool_input": map[string]any{"file_path": "~/.aws/credentials"}},
}

// typicalEvents are the typical tools as hook events.
func typicalEvents() [][]byte {
	var out [][]byte
	for _, tool := range typicalTools {
		ev := maps.Clone(tool)
		ev["session_id"], ev["cwd"], ev["hook_event_name"], ev["permission_mode"] = "bench", "/work/project", "PreToolUse", "default"
		b, _ := json.Marshal(ev)
		out = append(out, b)
	}
	return out
}

// BenchmarkDecide measures the daemon's work for one decision with the
// default pack: building the input and evaluating it, with the decision
// cache out of the way (engine.NoCache), so every decision is evaluated
// as a distinct event's would be. It reports the median and p99 per
// decision besides the mean.
func BenchmarkDecide(b *testing.B) {
	benchDecideWith(b, engine.NoCache(context.Background()), false)
}

// BenchmarkDecideCached is BenchmarkDecide with the decision cache: after
// the first round it answers the eight events.
func BenchmarkDecideCached(b *testing.B) {
	benchDecideWith(b, context.Background(), false)
}

// BenchmarkDecideReference is BenchmarkDecide through the engine's
// reference path (OPA converts the Go input itself; no decision cache):
// the figures before the fast path, measured on the same machine and run.
func BenchmarkDecideReference(b *testing.B) {
	benchDecideWith(b, context.Background(), true)
}

func benchDecideWith(b *testing.B, ctx context.Context, reference bool) {
	events := typicalEvents()
	dec, err := policyset.New(ctx, policyset.Options{Pack: policies.FS, Home: b.TempDir(), UserHome: "/home/dev", Reference: reference})
	if err != nil {
		b.Fatal(err)
	}
	reqs := make([]*wire.Request, len(events))
	for i, ev := range events {
		reqs[i] = &wire.Request{Event: ev, Cwd: "/work/project"}
	}
	// Warm up: first evaluations fill OPA's caches.
	for _, r := range reqs {
		dec.Decide(ctx, r)
	}
	durations := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := dec.Decide(ctx, reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
		durations = append(durations, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, durations, "µs")
}

func reportPercentiles(b *testing.B, d []time.Duration, unit string) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	if len(d) == 0 {
		return
	}
	scale := float64(time.Microsecond)
	b.ReportMetric(float64(d[len(d)/2])/scale, "median-"+unit)
	b.ReportMetric(float64(d[len(d)*99/100])/scale, "p99-"+unit)
}

// BenchmarkDecideWithOrgBundle is BenchmarkDecide with OPA's plugins
// running (bundle polling, decision logs, status) and a signed org bundle
// in force: its figures should match BenchmarkDecide's.
func BenchmarkDecideWithOrgBundle(b *testing.B) {
	ctx := context.Background()
	h := newHub(b)
	key := bundletest.HMACKey(b)
	h.set(bundletest.Build(b, signedSpec("bench", &key, orgPolicyV2)), "")
	home, sock := fleetHome(b, fleetConfig(h.URL, &key, ""))
	d := daemontest.StartAt(b, home, sock)
	prod, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/project", "tool_input": map[string]any{"command": "make deploy-prod"}})
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		dec, err := d.Decider().Decide(ctx, &wire.Request{Event: prod})
		if err == nil && len(dec.Rules) > 0 && dec.Rules[0].Org {
			break
		}
		if time.Now().After(deadline) {
			b.Fatal("the org bundle was not put in force")
		}
	}
	ctx = engine.NoCache(ctx)
	events := typicalEvents()
	reqs := make([]*wire.Request, len(events))
	for i, ev := range events {
		reqs[i] = &wire.Request{Event: ev, Cwd: "/work/project"}
	}
	for _, r := range reqs {
		d.Decider().Decide(ctx, r)
	}
	durations := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := d.Decider().Decide(ctx, reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
		durations = append(durations, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, durations, "µs")
}

// distinctEvents are n shell calls, each its own: the typical commands
// with a numbered comment line after them, which changes the command
// line the policies see (so the decision cache cannot answer) and
// nothing the shell runs.
func distinctEvents(n int) [][]byte {
	var shells []map[string]any
	for _, tool := range typicalTools {
		if tool["tool_name"] == "Bash" {
			shells = append(shells, tool)
		}
	}
	out := make([][]byte, n)
	for i := range out {
		t := shells[i%len(shells)]
		cmd := t["tool_input"].(map[string]any)["command"].(string)
		out[i], _ = json.Marshal(map[string]any{
			"session_id": "bench", "cwd": "/work/project", "hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]any{"command": cmd + "\n# step " + fmt.Sprint(i)},
		})
	}
	return out
}

// BenchmarkSocket is the e2e Throughput benchmark in one process (a
// daemon served on a real socket, 64 clients dialing per request, as
// hooks do), so that one CPU profile shows the daemon's request path and
// evaluation together: go test -run '^$' -bench Socket -cpuprofile cpu.out.
// With -benchtime Nx, each of the N requests is its own event unless
// the name ends in /cached.
func BenchmarkSocket(b *testing.B) {
	for _, name := range []string{"distinct", "cached"} {
		b.Run(name, func(b *testing.B) {
			d := daemontest.Start(b, nil)
			client := &wire.Client{Socket: d.Socket}
			events := typicalEvents()
			if name == "distinct" {
				events = distinctEvents(b.N)
			}
			var next atomic.Int64
			var wg sync.WaitGroup
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for range 64 {
				wg.Go(func() {
					for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
						if _, err := client.Decide(context.Background(), &wire.Request{Event: events[int(i-1)%len(events)]}); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "decisions/s")
		})
	}
}
