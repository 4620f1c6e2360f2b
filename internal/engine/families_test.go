package engine

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/agentjail/agentjail/internal/input"
)

// familyEvents are the mixed events of the daemon's BenchmarkDecide.
var familyEvents = []map[string]any{
	{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls -la ./src"}},
	{"tool_name": "Bash", "tool_input": map[string]any{"command": "go test ./... 2>&1 | tail -20"}},
	{"tool_name": "Bash", "tool_input": map[string]any{"command": "git status && git diff --stat"}},
	{"tool_name": "Bash", "tool_input": map[string]any{"command": "grep -rn \"rm -rf\" docs/ | head"}},
	{"tool_name": "Bash", "tool_input": map[string]any{"command": "cat ~/.ssh/id_rsa"}},
	{"tool_name": "Read", "tool_input": map[string]any{"file_path": "/work/project/main.go"}},
	{"tool_name": "Edit", "tool_input": map[string]any{"file_path": "main.go", "old_string": "a", "new_string": "b", "replace_all": false}},
	{"tool_name": "Read", "tool_input": map[string]any{"file_path": "~/.aws/credentials"}},
}

// BenchmarkRuleFamilies measures what each file of the pack costs a
// decision: for each file, the pack is compiled without that file's
// deny, ask and allow rules (its helpers stay, for the files that use
// them), and the mixed events are evaluated. "family-allocs" is how many
// allocations per decision the file's rules add (the full pack's figure
// minus this one). Allocations do not vary from run to run; time on a
// shared machine does, too much to split per file, so it is left to
// BenchmarkDecide. Run:
//
//	go test -run '^$' -bench RuleFamilies -benchtime 1x ./internal/engine
func BenchmarkRuleFamilies(b *testing.B) {
	ctx := context.Background()
	sources := defaultPack(b, false)
	full, errs := Compile(ctx, sources, nil, nil)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	env := input.Env{Home: "/home/dev", ClientCwd: "/work/project", ProgramGroups: full.ProgramGroups(), Roles: full.ShellRoles(), Written: full.WrittenFiles()}
	var inputs []ast.Value
	for _, ev := range familyEvents {
		ev["cwd"], ev["hook_event_name"] = "/work/project", "PreToolUse"
		raw, _ := json.Marshal(ev)
		in, _, err := input.Build(raw, env)
		if err != nil {
			b.Fatal(err)
		}
		v, err := inputValue(in)
		if err != nil {
			b.Fatal(err)
		}
		inputs = append(inputs, v)
	}
	prepareWithout := func(file string) rego.PreparedEvalQuery {
		modules, _, errs := parseAll(sources)
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		if m := modules[file]; m != nil {
			kept := m.Rules[:0]
			for _, r := range m.Rules {
				switch r.Head.Name.String() {
				case "deny", "ask", "allow":
					continue
				}
				kept = append(kept, r)
			}
			m.Rules = kept
		}
		pq, _, errs := prepare(ctx, modules, map[string]any{})
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		return pq
	}
	// measure evaluates every event runs times and returns the mean
	// allocations and time per decision.
	const runs = 50
	measure := func(pq rego.PreparedEvalQuery) (allocs, micros float64) {
		round := func() {
			for _, in := range inputs {
				if _, err := evalQuery(ctx, pq, rego.EvalParsedInput(in)); err != nil {
					b.Fatal(err)
				}
			}
		}
		round() // warm up
		start := time.Now()
		allocs = testing.AllocsPerRun(runs, round) / float64(len(inputs))
		micros = float64(time.Since(start).Microseconds()) / float64((runs+1)*len(inputs))
		return allocs, micros
	}
	baseAllocs, baseMicros := measure(prepareWithout(""))
	var files []string
	for _, s := range sources {
		files = append(files, s.Name)
	}
	sort.Strings(files)
	b.Logf("the full pack: %.0f allocations, %.0f µs per decision", baseAllocs, baseMicros)
	for _, file := range files {
		pq := prepareWithout(file)
		b.Run(strings.TrimSuffix(strings.TrimPrefix(file, "default/"), ".rego"), func(b *testing.B) {
			allocs, _ := measure(pq)
			b.ReportMetric(baseAllocs-allocs, "family-allocs")
			b.ReportMetric(0, "ns/op")
		})
	}
}
