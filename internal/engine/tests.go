package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/lineage"
	"github.com/open-policy-agent/opa/v1/types"

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
	// Trace says why a test failed, when TestOptions.Trace is set: OPA's
	// trace of the failed expressions in the files that are not the
	// default pack's, at most MaxTraceLines lines.
	Trace string
}

// Passed reports whether the test passed.
func (r TestResult) Passed() bool { return r.Outcome == "PASS" }

// TestOptions says which tests RunTestsWith runs and how.
type TestOptions struct {
	// Data is put under data (an org bundle's data at data.agentjail.org,
	// say).
	Data map[string]any
	// Run, when not empty, is a regular expression: only the tests whose
	// full name (data.agentjail_test.test_publish_asks) it matches run,
	// as with `opa test --run`.
	Run string
	// Derive, when set, builds the policy input from a raw hook event,
	// as the daemon does: it gets the event as JSON and returns the whole
	// input (the event and input.agentjail) as JSON. Every `with input as
	// X` in a test file that is not the pack's then evaluates with
	// Derive(X) when X is an object without an "agentjail" key; an input
	// that has one (a fixture from `agentjail try --json`) is used as
	// given.
	Derive func(event []byte) ([]byte, error)
	// Trace keeps, for each failed test, the trace of why (TestResult.Trace).
	Trace bool
}

// MaxTraceLines caps the trace kept for one failed test: a rule that
// fails deep inside a loop would otherwise print without end.
const MaxTraceLines = 60

// deriveBuiltin is the built-in that `with input as X` is rewritten to
// call in a test file when TestOptions.Derive is set. Its name has no
// dot, so no import (`import data.agentjail`) can shadow it.
const deriveBuiltin = "agentjail_derive_input"

// RunTests compiles sources (policies and their *_test.rego together) and
// runs every test_ rule with OPA's tester. Built-in errors count as test
// errors, so a rule that would fail at evaluation time is caught here.
// Results are sorted by file and line.
func RunTests(ctx context.Context, sources []Source) ([]TestResult, []wire.LoadErr) {
	return RunTestsWith(ctx, sources, TestOptions{})
}

// RunTestsWithData is RunTests with data under data (an org bundle's data
// at data.agentjail.org, say).
func RunTestsWithData(ctx context.Context, sources []Source, data map[string]any) ([]TestResult, []wire.LoadErr) {
	return RunTestsWith(ctx, sources, TestOptions{Data: data})
}

// RunTestsWith is RunTests as opts says. Tests run without tracing;
// when opts.Trace is set, the failed ones run again, alone, with it:
// tracing every test of the pack would take many times as long.
func RunTestsWith(ctx context.Context, sources []Source, opts TestOptions) ([]TestResult, []wire.LoadErr) {
	if opts.Run != "" {
		if _, err := regexp.Compile(opts.Run); err != nil {
			return nil, []wire.LoadErr{{File: "--run", Message: fmt.Sprintf("%q is not a regular expression: %v", opts.Run, err)}}
		}
	}
	results, errs := runTests(ctx, sources, opts, opts.Run, false)
	if len(errs) > 0 || !opts.Trace {
		return results, errs
	}
	var failed []string
	for _, r := range results {
		if r.Outcome == "FAIL" {
			failed = append(failed, regexp.QuoteMeta(r.Name))
		}
	}
	if len(failed) == 0 {
		return results, nil
	}
	traced, _ := runTests(ctx, sources, opts, "^("+strings.Join(failed, "|")+")$", true)
	traces := map[string]string{}
	for _, r := range traced {
		traces[r.Name] = r.Trace
	}
	for i := range results {
		if results[i].Outcome == "FAIL" {
			results[i].Trace = traces[results[i].Name]
		}
	}
	return results, nil
}

// runTests parses sources afresh (deriveInputs rewrites the modules) and
// runs the tests filter matches, with OPA's trace of each failure when
// trace is set.
func runTests(ctx context.Context, sources []Source, opts TestOptions, filter string, trace bool) ([]TestResult, []wire.LoadErr) {
	data := withPackData(opts.Data, sources)
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
	compiler := newCompiler()
	runner := tester.NewRunner()
	if opts.Derive != nil {
		for name, m := range modules {
			if !pack[name] {
				deriveInputs(m)
			}
		}
		decl := &ast.Builtin{Name: deriveBuiltin, Decl: types.NewFunction(types.Args(types.A), types.A)}
		caps := ast.CapabilitiesForThisVersion()
		caps.Builtins = append(caps.Builtins, decl)
		compiler = compiler.WithCapabilities(caps)
		runner.AddCustomBuiltins([]*tester.Builtin{{
			Decl: decl,
			Func: rego.Function1(&rego.Function{Name: decl.Name, Decl: decl.Decl}, func(_ rego.BuiltinContext, ev *ast.Term) (*ast.Term, error) {
				return deriveTerm(ev, opts.Derive)
			}),
		}})
	}
	ch, err := runner.
		SetCompiler(compiler).
		RaiseBuiltinErrors(true).
		EnableTracing(trace).
		Filter(filter).
		SetModules(modules).
		SetStore(dataStore(data)).
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
			if trace {
				tr.Trace = failureTrace(r, pack)
			}
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

// TestData is the data `opa test DIR` loads from DIR: every JSON and YAML
// file in it and below, at the path of its folder (DIR/testdata/publish/
// data.json is data.testdata.publish). It is read with OPA's own loader,
// so a test that reads a fixture finds it under both runners. The daemon
// never reads these files.
func TestData(dir string) (map[string]any, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil // no policies folder yet: no data either
	}
	res, err := loader.NewFileLoader().Filtered([]string{dir}, func(_ string, info fs.FileInfo, _ int) bool {
		if info.IsDir() {
			return false
		}
		switch filepath.Ext(info.Name()) {
		case ".json", ".yaml", ".yml":
			return false
		}
		return true // policies are read by DirSources, with its checks
	})
	if err != nil {
		return nil, err
	}
	return res.Documents, nil
}

// deriveInputs makes every `with input as X` in m evaluate with the
// input derived from X (see TestOptions.Derive). Only the whole input is
// rewritten: `with input.tool_name as ...` replaces one field of an input
// that was derived already.
func deriveInputs(m *ast.Module) {
	ast.WalkExprs(m, func(e *ast.Expr) bool {
		for _, w := range e.With {
			if ref, ok := w.Target.Value.(ast.Ref); ok && ref.Equal(ast.InputRootRef) {
				w.Value = ast.CallTerm(ast.RefTerm(ast.VarTerm(deriveBuiltin)), w.Value)
			}
		}
		return false
	})
}

// deriveTerm is the derive built-in: the input derived from ev when ev is
// a raw event (an object without the "agentjail" key), else ev itself.
func deriveTerm(ev *ast.Term, derive func([]byte) ([]byte, error)) (*ast.Term, error) {
	obj, ok := ev.Value.(ast.Object)
	if !ok || obj.Get(ast.InternedTerm("agentjail")) != nil {
		return ev, nil
	}
	event, err := ast.JSON(obj)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(event)
	if err != nil {
		return nil, err
	}
	in, err := derive(b)
	if err != nil {
		return nil, fmt.Errorf("deriving input.agentjail for the test's input: %w", err)
	}
	v, err := ast.ValueFromReader(bytes.NewReader(in))
	if err != nil {
		return nil, err
	}
	return ast.NewTerm(v), nil
}

// failureTrace renders why r failed: the failed expressions (and the
// rules and tests they are in) of every file that is not the pack's. The pack's own rules are left out: a test of
// the verdict evaluates every rule of the pack, and hundreds of them fail
// to match any one call.
func failureTrace(r *tester.Result, pack map[string]bool) string {
	var b strings.Builder
	events := lineage.Filter(r.Trace, func(e *topdown.Event) bool {
		return (e.Op == topdown.FailOp || e.Op == topdown.NoteOp) && e.Location != nil && !pack[e.Location.File]
	})
	var tb strings.Builder
	topdown.PrettyTraceWithOpts(&tb, events, topdown.PrettyTraceOptions{Locations: true})
	lines := strings.Split(strings.TrimRight(tb.String(), "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		lines = nil
	}
	if len(lines) > MaxTraceLines {
		more := len(lines) - MaxTraceLines
		lines = append(lines[:MaxTraceLines], fmt.Sprintf("... %d more lines", more))
	}
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// String renders a result the way `opa test -v` does, with the trace of
// a failure below it.
func (r TestResult) String() string {
	s := fmt.Sprintf("%s: %s (%v)", r.Name, r.Outcome, r.Duration.Round(time.Microsecond))
	if r.Err != "" {
		s += "\n  " + r.Err
	}
	if r.Trace != "" {
		s += "\n  " + strings.ReplaceAll(r.Trace, "\n", "\n  ")
	}
	return s
}

// WithRegoV1Import returns a Rego v1 file's text with `import rego.v1`
// added below its package line, unless it has it: the file then reads the
// same under `opa test --v0-compatible`, which a folder holding v0 files
// needs. A v0 file is returned as it is.
func WithRegoV1Import(name string, text []byte) ([]byte, error) {
	m, version, err := Parse(name, text)
	if err != nil {
		return nil, err
	}
	if version != "v1" {
		return text, nil
	}
	if importsRegoV1(m) {
		return text, nil
	}
	lines := strings.SplitAfter(string(text), "\n")
	row := m.Package.Location.Row // 1-based: lines[row-1] is the package line
	if row < 1 || row > len(lines) {
		return nil, fmt.Errorf("%s: package line %d outside the file", name, row)
	}
	out := strings.Join(lines[:row], "")
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	out += "\nimport rego.v1\n" + strings.Join(lines[row:], "")
	return []byte(out), nil
}

// OPATestNeeds says what plain `opa test` needs to read sources, which
// agentjail reads file by file as v0 or v1 while opa test reads a whole
// run in one syntax: v0 are the files written in Rego v0 (opa test then
// needs --v0-compatible), and noImport the v1 files that, under that
// flag, need `import rego.v1`. Both are empty when plain opa test reads
// every file as it is; files that do not parse are left out.
func OPATestNeeds(sources []Source) (v0, noImport []string) {
	for _, src := range sources {
		m, version, err := Parse(src.Name, src.Text)
		if err != nil {
			continue
		}
		if version == "v0" {
			v0 = append(v0, src.Name)
		} else if !importsRegoV1(m) {
			noImport = append(noImport, src.Name)
		}
	}
	if len(v0) == 0 {
		return nil, nil
	}
	return v0, noImport
}

func importsRegoV1(m *ast.Module) bool {
	for _, imp := range m.Imports {
		if ref, ok := imp.Path.Value.(ast.Ref); ok && ref.Equal(ast.RegoV1CompatibleRef) {
			return true
		}
	}
	return false
}
