package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// examples is the folder of the policy and tests the docs show.
const examples = "../policies/examples"

// opaBuild is the opa CLI built once for the package's tests.
var opaBuild struct {
	sync.Once
	path string
	err  string
}

// opaCLI builds the real opa command line at the version go.mod pins
// (the engine agentjail embeds), so "plain opa test" is tested against
// the very OPA the docs send users to. The first build fetches the CLI's
// own dependencies through the Go module proxy; later ones hit the cache.
func opaCLI(t *testing.T) string {
	t.Helper()
	opaBuild.Do(func() {
		list := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "github.com/open-policy-agent/opa")
		list.Dir = ".."
		v, err := list.Output()
		if err != nil {
			opaBuild.err = "go list -m github.com/open-policy-agent/opa: " + err.Error()
			return
		}
		version := strings.TrimSpace(string(v))
		gobin := filepath.Join(bin, "opa-"+version)
		// Outside the module, so go.mod is neither read nor changed: the
		// CLI is built with the dependencies its own release pins.
		install := exec.Command("go", "install", "github.com/open-policy-agent/opa@"+version)
		install.Dir = bin
		install.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=", "GOWORK=off", "CGO_ENABLED=0")
		if out, err := install.CombinedOutput(); err != nil {
			opaBuild.err = "go install github.com/open-policy-agent/opa@" + version + ": " + err.Error() + "\n" + string(out)
			return
		}
		opaBuild.path = filepath.Join(gobin, "opa")
	})
	if opaBuild.err != "" {
		t.Fatalf("building the opa CLI: %s", opaBuild.err)
	}
	return opaBuild.path
}

// copyExample copies files of the docs' example folder into dir, under
// the names given (the second of each pair), or their own.
func copyExample(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, name := range names {
		from, to, ok := strings.Cut(name, "=")
		if !ok {
			to = filepath.Base(from)
		}
		b, err := os.ReadFile(filepath.Join(examples, from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// opaTest runs the real `opa test ARGS...`.
func (e *env) opaTest(t *testing.T, args ...string) result {
	t.Helper()
	return e.run("", opaCLI(t), append([]string{"test"}, args...)...)
}

const wrongExpectation = `package agentjail_test

import rego.v1

import data.agentjail

test_wrong_expectation if {
	"team.publish" in {m.id | some m in agentjail.ask} with input as %s
}
`

// The docs' example, a policy that reads input.agentjail and its test
// that gives the raw hook event, passes under agentjail policy test in
// the user's policies folder, is in force in the daemon, and fails with
// a trace when its expectation is wrong.
func TestExamplePolicyTestWithRawEvents(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(e.ajHome, "policies")
	copyExample(t, dir, "publish.rego", "publish_test.rego", "ssh.rego", "ssh_test.rego")

	r := e.cli("policy", "test")
	for _, want := range []string{"data.agentjail_test.test_publish_asks: PASS", "data.agentjail_test.test_install_does_not_ask: PASS", "data.agentjail_test.test_ssh_denied: PASS", "PASS: 3/3"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("policy test lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
	if r.code != 0 || strings.Contains(r.stdout, "test_rm_home_denied") {
		t.Errorf("exit %d, want 0 and only the user's tests:\n%s", r.code, r.stdout)
	}
	if r := e.cli("policy", "test", "--run", "publish"); r.code != 0 || !strings.Contains(r.stdout, "PASS: 1/1") || strings.Contains(r.stdout, "test_ssh") || strings.Contains(r.stdout, "test_install") {
		t.Errorf("--run publish: %+v", r)
	}
	if r := e.cli("policy", "test", "--run", "no_such_test"); r.code != 1 || !strings.Contains(r.stderr, `no test in `+dir+` matches --run "no_such_test"`) {
		t.Errorf("--run matching nothing: %+v", r)
	}
	if r := e.cli("policy", "test", "--pack", "--run", "test_rm_home_denied|test_publish_asks"); r.code != 0 || !strings.Contains(r.stdout, "data.agentjail.test_rm_home_denied: PASS") || !strings.Contains(r.stdout, "test_publish_asks: PASS") {
		t.Errorf("--pack: %+v", r)
	}

	// The same files are the policy in force.
	e.start()
	h := e.hook(`{"tool_name":"Bash","cwd":"` + e.home + `","tool_input":{"command":"cd web && sudo npm publish"}}`)
	if !strings.Contains(h.stdout, `"permissionDecision":"ask"`) || !strings.Contains(h.stdout, "Publishing a package cannot be undone") {
		t.Errorf("the daemon with the example: %+v", h)
	}
	// try --json asks the running daemon for the same input it evaluates.
	var in struct {
		Derived struct {
			Tool     string `json:"tool"`
			Commands []struct {
				Name string `json:"name"`
			} `json:"commands"`
		} `json:"agentjail"`
	}
	if r := e.cli("try", "--json", "cd web && sudo npm publish"); r.code != 0 || json.Unmarshal([]byte(r.stdout), &in) != nil || in.Derived.Tool != "shell" || len(in.Derived.Commands) != 2 || in.Derived.Commands[1].Name != "npm" {
		t.Errorf("try --json from the daemon: %+v", r)
	}
	if st := e.cli("status", "--json"); strings.Contains(st.stdout, `"load_errors"`) || !strings.Contains(st.stdout, "publish.rego") {
		t.Errorf("the example does not load in the daemon:\n%s", st.stdout)
	}

	// A wrong expectation fails, with the trace of the user's rule.
	e.writePolicy("wrong_test.rego", strings.Replace(wrongExpectation, "%s", `{"tool_name": "Bash", "tool_input": {"command": "npm install left-pad"}}`, 1))
	r = e.cli("policy", "test")
	for _, want := range []string{"data.agentjail_test.test_wrong_expectation: FAIL", filepath.Join(dir, "publish.rego") + ":8", `Fail cmd.operands[0] = "publish"`, "FAIL: 1/4"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the failure lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code != 5 {
		t.Errorf("exit %d, want 5", r.code)
	}
}

// The documented way with plain opa test: --v0-compatible, import rego.v1
// in every v1 file, and input.agentjail from a fixture agentjail try
// --json prints. The same folder passes agentjail policy test too; each
// look-alike the docs warn about fails under the real opa CLI.
func TestExamplePlainOPATest(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(e.ajHome, "policies")
	copyExample(t, dir, "publish.rego", "ssh.rego", "ssh_test.rego", "opa/publish_test.rego=publish_fixture_test.rego")
	r := e.cli("try", "--offline", "--json", "cd web && sudo npm publish")
	if r.code != 0 || !json.Valid([]byte(r.stdout)) {
		t.Fatalf("try --json: %+v", r)
	}
	if err := os.MkdirAll(filepath.Join(dir, "testdata", "publish"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "testdata", "publish", "data.json"), []byte(r.stdout), 0o600); err != nil {
		t.Fatal(err)
	}

	r = e.opaTest(t, "--v0-compatible", "-v", dir)
	for _, want := range []string{"data.agentjail_test.test_publish_fixture_asks: PASS", "data.agentjail_test.test_ssh_denied: PASS", "PASS: 2/2"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("opa test lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
	if r.code != 0 {
		t.Errorf("opa test: exit %d", r.code)
	}
	r = e.cli("policy", "test", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "test_publish_fixture_asks: PASS") || !strings.Contains(r.stdout, "PASS: 2/2") {
		t.Errorf("agentjail policy test on the opa folder: %+v", r)
	}

	// The pack's own rules, exported beside the user's folder, see the
	// fixture too; without them plain opa test has only the user's.
	pack := filepath.Join(e.home, "pack")
	if r := e.cli("policy", "export", pack); r.code != 0 {
		t.Fatalf("policy export: %+v", r)
	}
	packTest := filepath.Join(e.home, "packtest")
	os.MkdirAll(packTest, 0o700)
	os.WriteFile(filepath.Join(packTest, "pack_test.rego"), []byte(`package agentjail_test

import rego.v1

import data.agentjail

test_pack_asks_too if {
	"publish.release" in {m.id | some m in agentjail.ask} with input as data.testdata.publish
}

# The agents' facts reach plain opa test as the export's data file.
test_pack_knows_the_agents if {
	".claude/settings.json" in agentjail.agent_hook_files
}
`), 0o600)
	if r := e.opaTest(t, "--v0-compatible", dir, pack, packTest); r.code != 0 || !strings.Contains(r.stdout, "PASS: 4/4") {
		t.Errorf("opa test with the exported pack: %+v", r)
	}
	if r := e.opaTest(t, "--v0-compatible", dir, packTest); r.code != 2 || !strings.Contains(r.stdout, "test_pack_asks_too: FAIL") {
		t.Errorf("opa test without the pack: %+v", r)
	}

	// Without --v0-compatible the v0 file does not parse.
	if r := e.opaTest(t, dir); r.code == 0 || !strings.Contains(r.stderr, "ssh.rego:3") {
		t.Errorf("opa test without --v0-compatible: %+v", r)
	}
	// A v1 file without import rego.v1 does not parse with it.
	e.writePolicy("team.rego", "package agentjail\n\nask contains \"x\" if input.tool_name == \"x\"\n")
	if r := e.opaTest(t, "--v0-compatible", dir); r.code == 0 || !strings.Contains(r.stderr, "team.rego:3") {
		t.Errorf("a v1 file without import rego.v1: %+v", r)
	}
	// agentjail policy test reads it, and says what opa test needs.
	if r := e.cli("policy", "test", dir); r.code != 0 || !strings.Contains(r.stderr, "use `opa test --v0-compatible` (Rego v0 files: ssh.rego) and add `import rego.v1` below the package line of: team.rego\n") {
		t.Errorf("policy test's note for opa test: %+v", r)
	}
	e.writePolicy("team.rego", "package agentjail\n\nimport rego.v1\n\nask contains \"x\" if input.tool_name == \"x\"\n")
	if r := e.opaTest(t, "--v0-compatible", dir); r.code != 0 {
		t.Errorf("with import rego.v1: %+v", r)
	}
	// A raw event is not derived by plain opa test.
	copyExample(t, dir, "publish_test.rego")
	if r := e.opaTest(t, "--v0-compatible", dir); r.code != 2 || !strings.Contains(r.stdout, "data.agentjail_test.test_publish_asks: FAIL") {
		t.Errorf("a raw event under plain opa test: %+v", r)
	}
	os.Remove(filepath.Join(dir, "publish_test.rego"))
	// A wrong expectation fails, with the trace.
	e.writePolicy("wrong_test.rego", strings.Replace(wrongExpectation, "%s", "data.testdata.install", 1))
	os.MkdirAll(filepath.Join(dir, "testdata", "install"), 0o700)
	r = e.cli("try", "--offline", "--json", "npm install left-pad")
	os.WriteFile(filepath.Join(dir, "testdata", "install", "data.json"), []byte(r.stdout), 0o600)
	r = e.opaTest(t, "--v0-compatible", "-v", dir)
	for _, want := range []string{"data.agentjail_test.test_wrong_expectation: FAIL", "publish.rego:8", "Fail", "FAIL: 1/"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("opa's failure lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code != 2 {
		t.Errorf("exit %d, want 2", r.code)
	}
	if r := e.cli("policy", "test", dir); r.code != 5 || !strings.Contains(r.stdout, "test_wrong_expectation: FAIL") || !strings.Contains(r.stdout, `Fail cmd.operands[0] = "publish"`) {
		t.Errorf("agentjail policy test with the wrong fixture expectation: %+v", r)
	}
}

// The README's first policy and its test pass as the README says: under
// `agentjail policy test` and under plain `opa test` (no flag: both files
// are Rego v1), and fail under both when the rule is broken.
func TestReadmeFirstPolicyUnderBothRunners(t *testing.T) {
	doc, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "## Your first policy and its test")
	if !ok {
		t.Fatal("README.md has no section \"Your first policy and its test\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	blocks := regexp.MustCompile("(?s)```rego\n(.*?)```").FindAllStringSubmatch(section, -1)
	if len(blocks) != 2 || !strings.Contains(blocks[1][1], "test_") {
		t.Fatalf("the section should hold a policy and its test, %d rego blocks:\n%s", len(blocks), section)
	}
	policy, test := blocks[0][1], blocks[1][1]
	e := newEnv(t)
	run := func(t *testing.T, policy string) (opa, ours result) {
		t.Helper()
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "team.rego"), []byte(policy), 0o600)
		os.WriteFile(filepath.Join(dir, "team_test.rego"), []byte(test), 0o600)
		return e.opaTest(t, dir), e.cli("policy", "test", dir)
	}
	t.Run("as written", func(t *testing.T) {
		opa, ours := run(t, policy)
		if opa.code != 0 || !strings.Contains(opa.stdout, "PASS: 2/2") {
			t.Errorf("opa test: %+v", opa)
		}
		if ours.code != 0 || !strings.Contains(ours.stdout, "PASS: 2/2") {
			t.Errorf("agentjail policy test: %+v", ours)
		}
	})
	t.Run("with the rule broken", func(t *testing.T) {
		broken := strings.Replace(policy, `"npm publish"`, `"npm publsh"`, 1)
		if broken == policy {
			t.Fatal("the README's policy no longer matches on \"npm publish\"; update this test")
		}
		opa, ours := run(t, broken)
		if opa.code == 0 || !strings.Contains(opa.stdout, "test_publish_is_asked: FAIL") {
			t.Errorf("opa test passed a broken rule: %+v", opa)
		}
		if ours.code != 5 || !strings.Contains(ours.stdout, "FAIL") {
			t.Errorf("agentjail policy test passed a broken rule: %+v", ours)
		}
	})
}
