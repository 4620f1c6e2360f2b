package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

func newPolicyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Work with policies",
	}
	cmd.AddCommand(newPolicyTestCmd(), newPolicyExportCmd())
	return cmd
}

func newPolicyExportCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "export DIR",
		Short: "Write the default pack's policies into DIR, for plain opa test",
		Long: `Write the default pack's policy files (not its tests) into DIR, a folder
that does not exist yet or is empty, each with 'import rego.v1' added so
it loads under 'opa test --v0-compatible' as well as without, and the
documents the pack reads as data (the agents' facts, in
agentjail/agents/data.json). Then

  opa test --v0-compatible ~/.agentjail/policies DIR

runs your tests with the pack's rules, helpers and tables beside yours.
DIR must not be a folder the daemon loads policies from: the pack would
be loaded twice.`,
		Example: "  agentjail policy export /tmp/agentjail-pack",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := filepath.Abs(args[0])
			if err != nil {
				return exitWith(ExitError, "%s: %v", args[0], err)
			}
			if err := exportable(dir); err != nil {
				return err
			}
			pack, err := policyset.PackSources(policies.FS, false)
			if err != nil {
				return exitWith(ExitError, "reading the default pack: %v", err)
			}
			// Every file is made before one is written: a pack that cannot
			// be exported leaves nothing behind.
			files := make(map[string][]byte, len(pack))
			for _, src := range pack {
				text, err := engine.WithRegoV1Import(src.Name, src.Text)
				if err != nil {
					return exitWith(ExitError, "exporting %s: %v", src.Name, err)
				}
				files[strings.TrimPrefix(src.Name, policyset.DefaultPrefix)] = text
			}
			policyFiles := len(files)
			// The documents the pack reads as data, where opa test loads
			// them: agentjail/agents/data.json is data.agentjail.agents.
			for name, doc := range engine.PackDocuments() {
				text, err := json.MarshalIndent(doc, "", "  ")
				if err != nil {
					return exitWith(ExitError, "exporting data.%s.%s: %v", engine.Package, name, err)
				}
				files[filepath.Join(engine.Package, name, "data.json")] = append(text, '\n')
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return exitWith(ExitError, "%v", err)
			}
			for name, text := range files {
				if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
					return exitWith(ExitError, "%v", err)
				}
				// O_EXCL: never over a file, nor through a link, that
				// appeared since the folder was found empty.
				f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
				if err != nil {
					return exitWith(ExitError, "%v", err)
				}
				_, werr := f.Write(text)
				if cerr := f.Close(); werr == nil {
					werr = cerr
				}
				if werr != nil {
					return exitWith(ExitError, "%v", werr)
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote the default pack's %s and the data it reads to %s\nrun your tests beside them with: opa test --v0-compatible %s %s\n", plural.Of(policyFiles, "policy file"), dir, paths.Policies(), dir)
			return nil
		},
	}
}

// exportable refuses a DIR that export could harm: one that holds files
// (export never overwrites), a file, or a folder the daemon loads.
func exportable(dir string) error {
	loaded := []string{paths.Policies()}
	if cfg, err := config.Load(paths.Config()); err == nil {
		loaded = append(loaded, cfg.PolicyDirs...)
	}
	real := resolved(dir)
	for _, l := range loaded {
		if l, err := filepath.Abs(l); err == nil && resolved(l) == real {
			return exitWith(ExitUsage, "%s is a folder agentjail loads policies from; the pack would be loaded twice: export to a folder of its own", dir)
		}
	}
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return exitWith(ExitError, "%v", err)
	}
	if !fi.IsDir() {
		return exitWith(ExitUsage, "%s is not a folder; give a new or empty folder", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return exitWith(ExitError, "%v", err)
	}
	if len(entries) > 0 {
		return exitWith(ExitUsage, "%s is not empty; export writes only into a new or empty folder, so it never overwrites a file", dir)
	}
	return nil
}

// resolved is path with its symbolic links resolved, as far as they exist.
func resolved(path string) string {
	path = filepath.Clean(path)
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	if parent := filepath.Dir(path); parent != path {
		return filepath.Join(resolved(parent), filepath.Base(path))
	}
	return path
}

func newPolicyTestCmd() *cobra.Command {
	var (
		run      string
		withPack bool
	)
	cmd := &cobra.Command{
		Use:   "test [DIR]",
		Short: "Run the tests in DIR's *_test.rego (default: your policies folder)",
		Long: `Run every test_ rule in DIR's *_test.rego files (default
$AGENTJAIL_HOME/policies) and in the org bundles persisted by config.yaml's
opa: section, with DIR's policies compiled beside the default pack as the
daemon compiles them, and print each result as 'opa test -v' does; a
failed test is printed with OPA's trace of the expressions that failed
in your files. --pack runs the default pack's own tests too.

JSON and YAML files in DIR and below are data, as opa test loads them
(DIR/testdata/publish/data.json is data.testdata.publish); the daemon
does not read them.

A test's input is derived as the daemon derives it: in a test file,
'with input as {...}' given a raw hook event (no "agentjail" key) gets
input.agentjail filled in (parsed commands, absolute paths, tool kind ...)
for Claude Code, with this machine's home folder and the current folder
for an event with no cwd. An input that has an "agentjail" key (a fixture
printed by 'agentjail try --json') is used as given.

Tests may be in package agentjail (then they read ask, deny directly) or,
as OPA's convention has it, in package agentjail_test with
'import data.agentjail' (then agentjail.ask, agentjail.deny).

Exits 5 if a test fails or errors, 1 if the policies do not load or no
test ran.`,
		Example: "  agentjail policy test\n  agentjail policy test --run publish ./policies\n  agentjail policy test --pack",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := regexp.Compile(run); err != nil {
				return exitWith(ExitUsage, "--run %q is not a regular expression: %v", run, err)
			}
			dir := paths.Policies()
			if len(args) == 1 {
				// A folder named on the command line must be there: testing
				// a mistyped path would otherwise run nothing and pass.
				dir = args[0]
				if fi, err := os.Stat(dir); err != nil {
					return exitWith(ExitError, "%s: %v; give a folder of *.rego and *_test.rego files", dir, errors.Unwrap(err))
				} else if !fi.IsDir() {
					return exitWith(ExitError, "%s is not a folder; give the folder that holds it", dir)
				}
			}
			pack, err := policyset.PackSources(policies.FS, withPack)
			if err != nil {
				return exitWith(ExitError, "reading the default pack: %v", err)
			}
			user, errs := policyset.DirSources([]string{dir}, true)
			org, data := orgTestSources(cmd)
			if len(errs) == 0 && !withPack && len(org) == 0 && !slices.ContainsFunc(user, func(s engine.Source) bool { return strings.HasSuffix(s.Name, "_test.rego") }) {
				// Nothing to run: said at once, not after compiling the pack.
				return exitWith(ExitError, "%s", noTests(dir, run, withPack))
			}
			sources := append(append(pack, user...), org...)
			data, err = withTestData(data, dir)
			if err != nil {
				return exitWith(ExitError, "%v", err)
			}
			if len(errs) == 0 {
				var derive func([]byte) ([]byte, error)
				derive, errs = testDeriver(cmd, sources, data)
				if len(errs) == 0 {
					var results []engine.TestResult
					results, errs = engine.RunTestsWith(cmd.Context(), sources, engine.TestOptions{Data: data, Run: run, Derive: derive, Trace: true})
					if len(errs) == 0 {
						if len(results) == 0 {
							return exitWith(ExitError, "%s", noTests(dir, run, withPack))
						}
						err := printTests(cmd, results)
						opaNote(cmd, user)
						return err
					}
				}
			}
			for _, e := range errs {
				fmt.Fprintln(cmd.ErrOrStderr(), e)
			}
			return exitWith(ExitError, "the policies do not load; fix the errors above")
		},
	}
	cmd.Flags().StringVar(&run, "run", "", "run only the tests whose full name (data.agentjail_test.test_publish) matches this regular expression")
	cmd.Flags().BoolVar(&withPack, "pack", false, "also run the default pack's own tests")
	return cmd
}

// testDeriver compiles the policies (without their tests) as the daemon
// would, and returns what derives a test's raw event with them: the
// derived fields depend on the policies' own tables (program groups,
// argument roles, written files).
func testDeriver(cmd *cobra.Command, sources []engine.Source, data map[string]any) (func([]byte) ([]byte, error), []wire.LoadErr) {
	var policies []engine.Source
	for _, s := range sources {
		if !strings.HasSuffix(s.Name, "_test.rego") {
			policies = append(policies, s)
		}
	}
	eng, errs := engine.Compile(cmd.Context(), policies, data, nil)
	if eng == nil {
		return nil, errs
	}
	wd, _ := os.Getwd()
	env := policyset.InputEnv(eng, policyset.Options{Home: paths.Home(), UserHome: paths.UserHome(), Socket: paths.Socket()}, wd, "")
	return func(event []byte) ([]byte, error) { return policyset.DeriveInput(event, env) }, nil
}

// withTestData adds the JSON and YAML files under dir to data, as
// `opa test` loads them: a fixture from `agentjail try --json` saved as
// testdata/NAME/data.json is data.testdata.NAME under both.
func withTestData(data map[string]any, dir string) (map[string]any, error) {
	docs, err := engine.TestData(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the test data under %s: %w", dir, err)
	}
	if len(docs) == 0 {
		return data, nil
	}
	out := map[string]any{}
	for k, v := range data {
		out[k] = v
	}
	for k, v := range docs {
		if _, taken := out[k]; taken {
			return nil, fmt.Errorf("the test data under %s defines data.%s, which the org bundles' data holds; move it to another folder", dir, k)
		}
		out[k] = v
	}
	return out, nil
}

// opaNote says, on stderr, what plain opa test needs to read the
// user's folder when it is not the folder as it is: agentjail reads each
// file in its own Rego version, opa test a whole run in one.
func opaNote(cmd *cobra.Command, user []engine.Source) {
	v0, noImport := engine.OPATestNeeds(user)
	if len(v0) == 0 {
		return
	}
	base := func(names []string) string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = filepath.Base(n)
		}
		return strings.Join(out, ", ")
	}
	note := fmt.Sprintf("note: to run these tests with plain opa test, use `opa test --v0-compatible` (Rego v0 files: %s)", base(v0))
	if len(noImport) > 0 {
		note += fmt.Sprintf(" and add `import rego.v1` below the package line of: %s", base(noImport))
	}
	fmt.Fprintln(cmd.ErrOrStderr(), note)
}

// noTests says why no test ran: a run that tests nothing must not pass.
func noTests(dir, run string, withPack bool) string {
	where := dir
	if withPack {
		where += " or the default pack"
	}
	if run != "" {
		return fmt.Sprintf("no test in %s matches --run %q; the names are data.PACKAGE.test_NAME", where, run)
	}
	return fmt.Sprintf("no tests in %s: write test_ rules in a file ending in _test.rego (see `agentjail policy test --help`)", where)
}

func printTests(cmd *cobra.Command, results []engine.TestResult) error {
	out := cmd.OutOrStdout()
	failed := 0
	file := ""
	for _, r := range results {
		if r.File != file {
			file = r.File
			fmt.Fprintf(out, "%s:\n", file)
		}
		fmt.Fprintln(out, r)
		if !r.Passed() && r.Outcome != "SKIPPED" {
			failed++
		}
	}
	fmt.Fprintln(out, "--------------------------------------------------------------------------------")
	if failed > 0 {
		fmt.Fprintf(out, "PASS: %d/%d\nFAIL: %d/%d\n", len(results)-failed, len(results), failed, len(results))
		return &exitError{code: ExitTestsFailed}
	}
	fmt.Fprintf(out, "PASS: %d/%d\n", len(results), len(results))
	return nil
}
