package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The end-to-end tests of the other agent CLIs (TestRealCodex,
// TestRealGemini, TestRealCopilot) drive the real, pinned CLIs that
// `make agents` installs under .tools/, headless, against fakeModel on
// 127.0.0.1, with the hook configuration `agentjail install --for AGENT`
// writes in a throwaway HOME. A recorder in front of the installed hook
// keeps what each agent sent and what the hook answered, so the tests
// also pin the agents' wire facts (event name, tool name, input shape).

// agentCLI finds a pinned agent CLI (`make NAME`): the npm shim in
// .tools/NAME. With AGENTJAIL_REQUIRE_AGENTS naming it (a comma-separated
// list, as .ci/run sets it) a missing CLI fails the test instead of
// skipping it.
func agentCLI(t *testing.T, name string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short (make check) leaves the agent CLIs out")
	}
	p, err := filepath.Abs(filepath.Join("..", ".tools", name, "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		for _, a := range strings.Split(os.Getenv("AGENTJAIL_REQUIRE_AGENTS"), ",") {
			if strings.TrimSpace(a) == name {
				t.Fatalf("the %s CLI is not installed (%v): run `make %s` (or `make agents`)", name, err, name)
			}
		}
		t.Skipf("the %s CLI is not installed: run `make %s` to include this test", name, name)
	}
	return p
}

// agentEnv is e's environment plus the agent's own variables. Variables
// that could point an agent at the developer's real configuration are set
// to the throwaway HOME's, whatever the calling shell has.
func agentEnv(e *env, extra ...string) []string {
	out := e.environ()
	out = append(out,
		"CODEX_HOME="+filepath.Join(e.home, ".codex"),
		"COPILOT_HOME="+filepath.Join(e.home, ".copilot"),
		"QWEN_HOME="+filepath.Join(e.home, ".qwen"),
		"FACTORY_HOME_OVERRIDE="+e.home,
		"CLINE_DIR="+filepath.Join(e.home, ".cline"),
		"PI_CODING_AGENT_DIR="+filepath.Join(e.home, ".pi", "agent"),
		"XDG_CONFIG_HOME="+filepath.Join(e.home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(e.home, ".local", "state"),
	)
	return append(out, extra...)
}

// ajRun runs the built agentjail with the agent variables set (so the
// installer writes where the agent reads), bounded to 60 s.
func ajRun(t *testing.T, e *env, args ...string) result {
	t.Helper()
	return runProcess(t, agentEnv(e), e.home, filepath.Join(bin, "agentjail"), args, 60*time.Second)
}

// runProcess runs one process with stdin closed; a timeout fails the test.
func runProcess(t *testing.T, environ []string, dir, name string, args []string, limit time.Duration) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env, cmd.Dir = environ, dir
	cmd.Stdin = nil // /dev/null: Codex reads a prompt from a piped stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	// A CLI's children (node, a tool's shell) may hold the pipes open.
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	var ee *exec.ExitError
	if ctx.Err() != nil {
		t.Fatalf("%s %q did not finish in %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(name), args, limit, out.String(), errb.String())
	}
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%s %q: %v", filepath.Base(name), args, err)
	}
	return result{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
}

// installFor wires the hook into one agent with the real installer and
// starts the daemon; cleanup uninstalls everything and stops it. Unless
// the test wrote a config.yaml of its own, an ask is held for a person
// 5 s, not the default minute (install writes the hold into the hook).
func installFor(t *testing.T, e *env, agent string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(e.ajHome, "config.yaml")); err != nil {
		writeConfig(t, e, "approval_timeout: 5s\n")
	}
	if r := ajRun(t, e, "install", "--for", agent); r.code != 0 {
		t.Fatalf("agentjail install --for %s: exit %d\n%s%s", agent, r.code, r.stdout, r.stderr)
	}
	t.Cleanup(func() { ajRun(t, e, "uninstall") })
}

// hookCall is one run of the hook as an agent made it.
type hookCall struct {
	Args                  string // the hook's arguments, as the agent's configuration gives them
	Stdin, Stdout, Stderr string
	Code                  int
}

// event decodes what the agent sent the hook.
func (c hookCall) event(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(c.Stdin), &m); err != nil {
		t.Fatalf("the agent sent the hook no JSON object (%v):\n%s", err, c.Stdin)
	}
	return m
}

// hookRecorder sits in front of the installed hook.
type hookRecorder struct {
	t   *testing.T
	dir string
}

// recordHook moves the installed $AGENTJAIL_HOME/bin/agentjail-hook aside
// and puts a small script in its place that keeps each call's stdin,
// stdout, stderr and exit code, then answers exactly as the hook did. The
// agents' configuration names the path, not the file's content, so what
// the installer wrote (Codex's trust hash included) still holds.
func recordHook(t *testing.T, e *env) *hookRecorder {
	t.Helper()
	hook := filepath.Join(e.ajHome, "bin", "agentjail-hook")
	real := hook + ".recorded"
	if err := os.Rename(hook, real); err != nil {
		t.Fatalf("the installer put no hook at %s: %v", hook, err)
	}
	dir := t.TempDir()
	script := fmt.Sprintf(`#!/bin/sh
n=%[1]s/$(date +%%s%%N).$$
printf '%%s' "$*" > "$n.args"
cat > "$n.in"
%[2]s "$@" < "$n.in" > "$n.out" 2> "$n.err"
c=$?
cat "$n.out"; cat "$n.err" >&2
echo $c > "$n.code"
exit $c
`, shellQuote(dir), shellQuote(real))
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &hookRecorder{t: t, dir: dir}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// calls are the finished pre-tool hook runs since the last reset,
// oldest first; postCalls the post-tool ones (--post), which report a
// call that ran.
func (h *hookRecorder) calls() []hookCall {
	return slices.DeleteFunc(h.all(), isPost)
}

func (h *hookRecorder) postCalls() []hookCall {
	return slices.DeleteFunc(h.all(), func(c hookCall) bool { return !isPost(c) })
}

func isPost(c hookCall) bool { return strings.HasSuffix(c.Args, " --post") }

func (h *hookRecorder) all() []hookCall {
	h.t.Helper()
	codes, _ := filepath.Glob(filepath.Join(h.dir, "*.code"))
	sort.Strings(codes)
	var out []hookCall
	for _, c := range codes {
		base := strings.TrimSuffix(c, ".code")
		read := func(ext string) string { b, _ := os.ReadFile(base + ext); return string(b) }
		code, _ := strconv.Atoi(strings.TrimSpace(read(".code")))
		out = append(out, hookCall{Args: read(".args"), Stdin: read(".in"), Stdout: read(".out"), Stderr: read(".err"), Code: code})
	}
	return out
}

func (h *hookRecorder) reset() {
	files, _ := filepath.Glob(filepath.Join(h.dir, "*"))
	for _, f := range files {
		os.Remove(f)
	}
}

// one is the single hook call a run made.
func (h *hookRecorder) one(t *testing.T) hookCall {
	t.Helper()
	calls := h.calls()
	if len(calls) != 1 {
		t.Fatalf("the agent ran the hook %d times, want once: %+v", len(calls), calls)
	}
	// The post-tool hook, where the call ran, says nothing and exits 0.
	for _, c := range h.postCalls() {
		if c.Code != 0 || c.Stdout != "" || c.Stderr != "" {
			t.Errorf("the post-tool hook answered: %+v", c)
		}
	}
	return calls[0]
}

// snapshot is the bytes of some files (nil: absent), to compare after
// uninstall.
type snapshot map[string][]byte

func takeSnapshot(paths ...string) snapshot {
	s := snapshot{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			b = nil
		}
		s[p] = b
	}
	return s
}

// dirFiles lists the regular files in dir (for folders the installer
// adds a file of its own to).
func dirFiles(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// same fails the test for every file that is not byte for byte as in s.
func (s snapshot) same(t *testing.T) {
	t.Helper()
	for p, want := range s {
		got, err := os.ReadFile(p)
		switch {
		case want == nil && err == nil:
			t.Errorf("%s was left behind:\n%s", p, got)
		case want != nil && err != nil:
			t.Errorf("%s is gone: %v", p, err)
		case !bytes.Equal(got, want):
			t.Errorf("%s is not as it was:\n--- got\n%s\n--- want\n%s", p, got, want)
		}
	}
}

// agentWork is the working folder an agent runs in and the user's key in
// the throwaway HOME.
type agentWork struct {
	dir string // the project folder, a git repository with four commits
	key string // the key material in ~/.ssh/id_rsa
}

func newAgentWork(t *testing.T, e *env) agentWork {
	t.Helper()
	w := agentWork{dir: filepath.Join(e.home, "work"), key: "fake-key-material-" + strconv.Itoa(os.Getpid())}
	os.MkdirAll(filepath.Join(e.home, ".ssh"), 0o700)
	pem := "-----BEGIN OPENSSH PRIVATE KEY-----\n" + w.key + "\n-----END OPENSSH PRIVATE KEY-----\n"
	if err := os.WriteFile(filepath.Join(e.home, ".ssh", "id_rsa"), []byte(pem), 0o600); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(w.dir, 0o755)
	git := func(args ...string) {
		t.Helper()
		r := runProcess(t, append(e.environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_NOSYSTEM=1"),
			w.dir, "git", args, 20*time.Second)
		if r.code != 0 {
			t.Fatalf("git %v: %s%s", args, r.stdout, r.stderr)
		}
	}
	git("init", "-q", "-b", "main")
	for i := 1; i <= 4; i++ {
		os.WriteFile(filepath.Join(w.dir, "README.md"), []byte(fmt.Sprintf("hello %d\n", i)), 0o644)
		git("add", "README.md")
		git("commit", "-q", "-m", fmt.Sprintf("commit %d", i))
	}
	return w
}

// head is the repository's current commit: an ask-class `git reset
// --hard HEAD~3` that ran would move it.
func (w agentWork) head(t *testing.T, e *env) string {
	t.Helper()
	r := runProcess(t, e.environ(), w.dir, "git", []string{"rev-parse", "HEAD"}, 20*time.Second)
	return strings.TrimSpace(r.stdout)
}

// The calls every agent test makes, and what the default pack says of them.
const (
	keyRead   = "cat ~/.ssh/id_rsa"          // deny: private keys
	harmless  = "echo agentjail-harmless-ok" // no rule fires
	askClass  = "git reset --hard HEAD~3"    // ask: throws work away
	harmlessW = "agentjail-harmless-ok"      // what harmless prints
)

// tryReason is the reason agentjail gives for command, as `agentjail try`
// shows it: the text the agent's model must receive.
func tryReason(t *testing.T, e *env, dir, command string) string {
	t.Helper()
	r := runProcess(t, agentEnv(e), dir, filepath.Join(bin, "agentjail"), []string{"try", "--cwd", dir, command}, 20*time.Second)
	for _, line := range strings.Split(r.stdout, "\n") {
		if reason, ok := strings.CutPrefix(line, "reason:"); ok {
			return strings.TrimSpace(reason)
		}
	}
	t.Fatalf("agentjail try %q gave no reason:\n%s%s", command, r.stdout, r.stderr)
	return ""
}

// reasonCore is a reason without its final period: adapters that wrap a
// reason (an ask turned into a deny) go on after it.
func reasonCore(reason string) string { return strings.TrimRight(reason, ". ") }

// oneResult is the single tool result the model got back.
func oneResult(t *testing.T, api *fakeModel, out string) string {
	t.Helper()
	res := api.received()
	if len(res) != 1 {
		t.Fatalf("the model got %d tool results back, want 1: %q\nrequests:\n%s\nthe agent said:\n%s", len(res), res, api.seen(), out)
	}
	return res[0]
}

// jsonRPC starts a stdio JSON-RPC server (one JSON message a line), sends
// msgs and returns the result of the response with id want.
func jsonRPC(t *testing.T, environ []string, dir, name string, args []string, msgs []map[string]any, want int) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env, cmd.Dir = environ, dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	enc := json.NewEncoder(stdin)
	for _, m := range msgs {
		if err := enc.Encode(m); err != nil {
			t.Fatalf("%s %v: %v\n%s", filepath.Base(name), args, err, stderr.String())
		}
	}
	dec := json.NewDecoder(stdout)
	for {
		var m struct {
			ID     *int            `json:"id"`
			Result map[string]any  `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("%s %v: no answer to request %d (%v)\n%s", filepath.Base(name), args, want, err, stderr.String())
		}
		if m.ID != nil && *m.ID == want {
			if len(m.Error) > 0 {
				t.Fatalf("%s %v: request %d failed: %s", filepath.Base(name), args, want, m.Error)
			}
			return m.Result
		}
	}
}

// loggedOnce checks that the decision log holds exactly one decision of
// agent's whose line mentions needle, with the verdict want: the call is
// logged under the agent that made it, and not twice.
func loggedOnce(t *testing.T, e *env, agent, needle, want string) {
	t.Helper()
	r := ajRun(t, e, "logs", "--agent", agent, "--json", "-n", "0")
	var hits []string
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.Contains(line, needle) {
			hits = append(hits, line)
		}
	}
	if len(hits) != 1 || !strings.Contains(hits[0], `"`+want+`"`) {
		t.Errorf("agentjail logs --agent %s: want one %s decision mentioning %q, got %d:\n%s%s", agent, want, needle, len(hits), r.stdout, r.stderr)
	}
}

// jailedKeyRead reads the key by a path computed at run time, which no
// rule over the text sees: only the jail keeps it unread. It prints
// jailedDone once it has run to its end.
const (
	jailedKeyRead = `f=$(echo LnNzaC9pZF9yc2E= | base64 -d); cd; cat "$f"; echo jailed-done`
	jailedDone    = "jailed-done"
)

// ranJailed checks a tool result of jailedKeyRead: it ran, confined.
func ranJailed(t *testing.T, w agentWork, got string) {
	t.Helper()
	if strings.Contains(got, w.key) {
		t.Errorf("the key was read: the call ran unconfined:\n%s", got)
	}
	if !strings.Contains(got, jailedDone) {
		t.Errorf("the call did not run to its end (want it run, confined):\n%s", got)
	}
}

// jailedForm is a command as the hook rewrites it to run in the jail:
// the launcher, its profile and the original command, each quoted whole.
var jailedForm = regexp.MustCompile(`^'[^']*agentjail-hook[^']*' jail '[^']*' '((?:[^']|'\\'')*)'$`)

// jailedOriginal finds, in an agent's hook answer, a command rewritten
// to run in the jail, and returns the original it runs; false when the
// answer rewrites nothing.
func jailedOriginal(stdout string) (string, bool) {
	var v any
	if json.Unmarshal([]byte(stdout), &v) != nil {
		return "", false
	}
	var found string
	var ok bool
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		case string:
			if m := jailedForm.FindStringSubmatch(x); m != nil {
				found, ok = strings.ReplaceAll(m[1], `'\''`, `'`), true
			}
		}
	}
	walk(v)
	return found, ok
}

// unjailed is the original of a command rewritten to run in the jail,
// and any other command as it is.
func unjailed(command string) string {
	if m := jailedForm.FindStringSubmatch(command); m != nil {
		return strings.ReplaceAll(m[1], `'\''`, `'`)
	}
	return command
}

// jailedRewrite reports whether stdout rewrites command, unchanged, to
// run in the jail.
func jailedRewrite(stdout, command string) bool {
	orig, ok := jailedOriginal(stdout)
	return ok && orig == command
}
