package agents

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/agent"
)

// literalsElsewhere are, for the agents that were here before each had
// a folder, how many Go files outside their own places still name them
// in a string literal (the engine's interned input values; Codex's
// nested-launch judge). The numbers may only go down; an agent added
// since has none.
var literalsElsewhere = map[string]int{
	"claude-code": 1, "codex": 1, "gemini": 0, "copilot": 0, "cursor": 0,
}

// TestAddingAnAgent holds the structure that makes adding an agent
// small: its folder under agents/ (its facts, its adapter and at most
// one asset), its line in All, its installer part (installer/DIR.go,
// which the hook must not link, so it cannot live in the folder) and
// its end-to-end test. Its name appears in no other Go file, so no list
// elsewhere has to learn it.
func TestAddingAnAgent(t *testing.T) {
	registry, err := os.ReadFile("agents.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range All {
		typ := reflect.TypeOf(a.Adapter)
		dir := filepath.Base(typ.PkgPath())
		// An agent whose adapter embeds another's (Kilo CLI, opencode's
		// fork) shares that agent's installer part.
		shared := dir
		if typ.Kind() == reflect.Struct && typ.NumField() > 0 && typ.Field(0).Anonymous {
			shared = filepath.Base(typ.Field(0).Type.PkgPath())
		}
		t.Run(a.Name, func(t *testing.T) {
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatalf("%s has no folder agents/%s: %v", a.Name, dir, err)
			}
			var code, other []string
			for _, e := range entries {
				switch n := e.Name(); {
				case strings.HasSuffix(n, "_test.go"):
				case strings.HasSuffix(n, ".go"):
					code = append(code, n)
				default:
					other = append(other, n)
				}
			}
			if len(code) > 3 || len(other) > 1 {
				t.Errorf("agents/%s holds %v and %v: an agent is its facts, its adapter and at most one more file, and one asset", dir, code, other)
			}
			if strings.Count(string(registry), "agents/"+dir+"\"") != 1 || strings.Count(string(registry), "\t"+dir+".Agent,\n") != 1 {
				t.Errorf("agents.go should import agents/%s once and list %s.Agent once in All", dir, dir)
			}
			part := filepath.Join("..", "installer", shared+".go")
			if _, err := os.Stat(part); err != nil {
				t.Errorf("%s has no installer part %s: %v", a.Name, part, err)
			}
			// Judged, not confined, is a fact with a reason: say it where
			// the adapter cannot rewrite, and only there.
			if _, confines := a.Adapter.(agent.Confiner); confines == (a.Table.Unconfined != "") {
				t.Errorf("%s: its adapter is a Confiner: %v, yet Table.Unconfined is %q; say why an agent is judged, not confined, exactly when it is", a.Name, confines, a.Table.Unconfined)
			}
			if !strings.HasPrefix(a.Table.Proven, "not run here") {
				if tests := e2eTests(t, a.Name, dir); len(tests) == 0 {
					t.Errorf("%s has no end-to-end test in e2e/ that drives its real CLI (a TestReal… naming it)", a.Name)
				}
			}
			// Its own: its folder, the registry, its installer part and,
			// where it has one, the judge of edits to its settings.
			own := []string{filepath.Join("agents", dir), filepath.Join("agents", "agents.go"), filepath.Join("installer", shared+".go"), filepath.Join("installer", shared+"_"), filepath.Join("internal", "agentconfig", dir+".go")}
			if n := len(filesNaming(t, a.Name, own)); n > literalsElsewhere[a.Name] {
				t.Errorf("%q is written in %d Go files outside its folder and installer part, %d allowed: %v; read it from the agent's facts instead", a.Name, n, literalsElsewhere[a.Name], filesNaming(t, a.Name, own))
			}
		})
	}
}

// e2eTests are the e2e test files with a TestReal function that name
// the agent.
func e2eTests(t *testing.T, name, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "e2e", "*_test.go"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if strings.Contains(s, "func TestReal") && (strings.Contains(s, `"`+name+`"`) || strings.Contains(filepath.Base(f), dir)) {
			out = append(out, f)
		}
	}
	return out
}

// filesNaming are the non-test Go files of the module, outside the
// places in own (relative to the module's root), whose code has the
// string literal "name".
func filesNaming(t *testing.T, name string, own []string) []string {
	t.Helper()
	var out []string
	root := ".."
	literal := `"` + name + `"`
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || d.Name() == "e2e" || d.Name() == "tools" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		if slices.ContainsFunc(own, func(o string) bool { return strings.HasPrefix(rel, o) }) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if i := strings.Index(line, "//"); i >= 0 {
				line = line[:i] // a comment names agents freely
			}
			if strings.Contains(line, literal) {
				out = append(out, rel)
				break
			}
		}
		return nil
	})
	return out
}
