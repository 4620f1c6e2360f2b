package engine

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/agentjail/agentjail/internal/wire"
)

// TestResult is the outcome of one test_ rule.
type TestResult struct {
	Name     string // "data.agentjail.test_rm_home"
	File     string
	Line     int
	Outcome  string // PASS, FAIL, ERROR or SKIPPED
	Err      string // set for ERROR
	Duration time.Duration
}

// Passed reports whether the test passed.
func (r TestResult) Passed() bool { return r.Outcome == "PASS" }

// RunTests compiles sources (policies and their *_test.rego together) and
// runs every test_ rule with OPA's tester. Built-in errors count as test
// errors, so a rule that would fail at evaluation time is caught here.
// Results are sorted by file and line.
func RunTests(ctx context.Context, sources []Source) ([]TestResult, []wire.LoadErr) {
	return RunTestsWithData(ctx, sources, nil)
}

// RunTestsWithData is RunTests with data under data (an org bundle's data
// at data.agentjail.org, say).
func RunTestsWithData(ctx context.Context, sources []Source, data map[string]any) ([]TestResult, []wire.LoadErr) {
	if data == nil {
		data = map[string]any{}
	}
	modules, _, errs := parseAll(sources)
	if len(errs) > 0 {
		return nil, errs
	}
	pack, org := origins(sources)
	if errs := checkModules(modules, pack, org); len(errs) > 0 {
		return nil, errs
	}
	ch, err := tester.NewRunner().
		SetCompiler(newCompiler()).
		RaiseBuiltinErrors(true).
		SetModules(modules).
		SetStore(inmem.NewFromObject(data)).
		RunTests(ctx, nil)
	if err != nil {
		return nil, astErrorsOf("", err)
	}
	var results []TestResult
	for r := range ch {
		tr := TestResult{Name: r.Package + "." + r.Name, Duration: r.Duration}
		if r.Location != nil {
			tr.File, tr.Line = r.Location.File, r.Location.Row
		}
		switch {
		case r.Skip:
			tr.Outcome = "SKIPPED"
		case r.Error != nil:
			tr.Outcome, tr.Err = "ERROR", r.Error.Error()
		case r.Fail:
			tr.Outcome = "FAIL"
		default:
			tr.Outcome = "PASS"
		}
		results = append(results, tr)
	}
	sort.Slice(results, func(i, j int) bool {
		if results[i].File != results[j].File {
			return results[i].File < results[j].File
		}
		return results[i].Line < results[j].Line
	})
	return results, nil
}

// String renders a result the way `opa test -v` does.
func (r TestResult) String() string {
	s := fmt.Sprintf("%s: %s (%v)", r.Name, r.Outcome, r.Duration.Round(time.Microsecond))
	if r.Err != "" {
		s += "\n  " + r.Err
	}
	return s
}
