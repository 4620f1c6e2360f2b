package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/wire"
)

// bin is where TestMain built agentjail, agentjail-hook and the floor.
var bin string

// builtBinaries names the parent's binaries to a test run again inside
// a namespace of its own (system_linux_test.go).
const builtBinaries = "AGENTJAIL_E2E_BIN"

func TestMain(m *testing.M) {
	if dir := os.Getenv(builtBinaries); dir != "" {
		// A test run again inside a namespace of its own (system_linux_test.go)
		// uses the binaries its parent built.
		bin = dir
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "ajbin")
	if err != nil {
		panic(err)
	}
	bin = dir
	// Built as `make build` builds them: static, no cgo.
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", dir+"/", "../cmd/agentjail", "../cmd/agentjail-hook", "../bench/floor", "../bench/socketonly")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the binaries:", err)
		os.Exit(1)
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		hostPath[d] = true
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is one throwaway installation: a HOME and an AGENTJAIL_HOME.
type env struct {
	t       testing.TB
	home    string // $HOME
	ajHome  string // $AGENTJAIL_HOME
	socket  string
	daemon  *exec.Cmd
	logs    *syncBuffer
	stopped chan struct{}
	bus     string   // DBUS_SESSION_BUS_ADDRESS for the processes; "" for none
	runArgs []string // agentjail run's flags; nil means --headless
	extra   []string // more environment (KEY=value) for every process
}

func newEnv(t testing.TB) *env {
	t.Helper()
	// Short paths: a Unix socket path must fit in ~104 bytes.
	root, err := os.MkdirTemp("", "aje")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	e := &env{t: t, home: filepath.Join(root, "h"), ajHome: filepath.Join(root, "h", ".agentjail")}
	e.socket = filepath.Join(e.ajHome, "agentjail.sock")
	os.MkdirAll(e.home, 0o755)
	return e
}

func (e *env) environ() []string {
	var out []string
	for _, kv := range os.Environ() {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			kv = "PATH=" + machinePath(p)
		}
		if !strings.HasPrefix(kv, "AGENTJAIL_") && !strings.HasPrefix(kv, "HOME=") {
			out = append(out, kv)
		}
	}
	// The service is always detached in tests: never a real unit or agent.
	// No session bus unless a test brings its own.
	out = append(out, "HOME="+e.home, "AGENTJAIL_HOME="+e.ajHome, "NO_COLOR=1", "AGENTJAIL_SERVICE=detached", "DBUS_SESSION_BUS_ADDRESS="+e.bus)
	// Agents' folders under XDG_CONFIG_HOME (opencode's, Kilo CLI's) are
	// the throwaway home's too.
	out = append(out, "XDG_CONFIG_HOME="+filepath.Join(e.home, ".config"))
	return append(out, e.extra...)
}

// hostPath holds the folders of the PATH the tests were started with.
var hostPath = map[string]bool{}

// agentPrograms are the programs by which agentjail finds an agent.
var agentPrograms = []string{"claude", "codex", "gemini", "copilot", "cursor", "cursor-agent", "pi", "opencode", "kilo", "kilocode"}

var (
	shadowMu   sync.Mutex
	shadowDirs = map[string]string{}
)

// machinePath is PATH on the throwaway machine: a folder of the host's
// PATH holding an agent's program (a contributor's own Claude Code, say)
// is replaced by a copy of it, made of links, without the agents, so
// that no agent is found unless a test puts it there. Folders a test
// made are kept as they are.
func machinePath(path string) string {
	shadowMu.Lock()
	defer shadowMu.Unlock()
	var out []string
	for _, d := range filepath.SplitList(path) {
		if hostPath[d] && slices.ContainsFunc(agentPrograms, func(p string) bool { _, err := os.Stat(filepath.Join(d, p)); return err == nil }) {
			shadow, ok := shadowDirs[d]
			if !ok {
				shadow = filepath.Join(bin, "path", strconv.Itoa(len(shadowDirs)))
				os.MkdirAll(shadow, 0o755)
				entries, _ := os.ReadDir(d)
				for _, en := range entries {
					if !slices.Contains(agentPrograms, en.Name()) {
						os.Symlink(filepath.Join(d, en.Name()), filepath.Join(shadow, en.Name()))
					}
				}
				shadowDirs[d] = shadow
			}
			d = shadow
		}
		out = append(out, d)
	}
	return strings.Join(out, string(filepath.ListSeparator))
}

// writePolicy writes a file into the user's policies folder.
func (e *env) writePolicy(name, text string) {
	e.t.Helper()
	dir := filepath.Join(e.ajHome, "policies")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// start runs `agentjail run --headless` and waits until it answers.
func (e *env) start() {
	e.t.Helper()
	e.startListening()
	e.waitAnswering()
}

// startListening starts the daemon (`agentjail run` with runArgs, else
// --headless) and returns as soon as its socket accepts a connection: it
// may still be compiling its policies, not yet answering.
func (e *env) startListening() {
	e.t.Helper()
	e.logs = &syncBuffer{}
	args := e.runArgs
	if args == nil {
		args = []string{"--headless"}
	}
	e.daemon = exec.Command(filepath.Join(bin, "agentjail"), append([]string{"run"}, args...)...)
	e.daemon.Env = e.environ()
	e.daemon.Stdout, e.daemon.Stderr = e.logs, e.logs
	if err := e.daemon.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.stopped = make(chan struct{})
	go func() { e.daemon.Wait(); close(e.stopped) }()
	e.t.Cleanup(e.stop)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if c, err := net.Dial("unix", e.socket); err == nil {
			c.Close()
			return
		}
		select {
		case <-e.stopped:
			e.t.Fatalf("the daemon exited at start:\n%s", e.logs)
		default:
		}
	}
	e.t.Fatalf("the daemon did not listen within 30s:\n%s", e.logs)
}

// waitAnswering waits until the daemon answers a request, which it does
// once its first load is done (good or not): the socket accepts
// connections while the pack compiles, and a test's first call should
// not spend its hook's budget on the start.
func (e *env) waitAnswering() {
	e.t.Helper()
	client := &wire.Client{Socket: e.socket}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := client.Status(ctx)
		cancel()
		if err == nil {
			return
		}
	}
	e.t.Fatalf("the daemon did not answer within 30s:\n%s", e.logs)
}

// stop sends SIGTERM and waits for a clean exit.
func (e *env) stop() { e.stopWith(syscall.SIGTERM) }

// stopWith sends sig and waits for a clean exit.
func (e *env) stopWith(sig os.Signal) {
	if e.daemon == nil || e.daemon.Process == nil {
		return
	}
	select {
	case <-e.stopped:
		return
	default:
	}
	e.daemon.Process.Signal(sig)
	select {
	case <-e.stopped:
		if code := e.daemon.ProcessState.ExitCode(); code != 0 {
			e.t.Errorf("the daemon exited %d on %v:\n%s", code, sig, e.logs)
		}
	case <-time.After(10 * time.Second):
		e.daemon.Process.Kill()
		e.t.Errorf("the daemon ignored %v for 10s", sig)
	}
}

// result is what one process printed and returned.
type result struct {
	stdout, stderr string
	code           int
}

// run runs one of the built binaries with stdin, bounded to 2 minutes (a
// hang guard: policy test --pack runs every pack test, long on a loaded
// machine).
func (e *env) run(stdin string, name string, args ...string) result {
	e.t.Helper()
	return e.runIn(e.home, stdin, name, args...)
}

// runIn is run in directory dir. name is a built binary or a path.
func (e *env) runIn(dir, stdin string, name string, args ...string) result {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if !filepath.IsAbs(name) {
		name = filepath.Join(bin, name)
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = e.environ()
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		e.t.Fatalf("%s %v: %v", name, args, err)
	}
	if ctx.Err() != nil {
		e.t.Fatalf("%s %v did not finish in 2 minutes", name, args)
	}
	return result{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
}

func (e *env) hook(event string, args ...string) result {
	e.t.Helper()
	return e.run(event, "agentjail-hook", args...)
}

func (e *env) cli(args ...string) result {
	e.t.Helper()
	return e.run("", "agentjail", args...)
}

// syncBuffer is a bytes.Buffer safe for a process's output goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var _ io.Writer = (*syncBuffer)(nil)
