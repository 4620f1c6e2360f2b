package daemon_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

func decide(t *testing.T, sock, cmd string) *wire.Decision {
	t.Helper()
	ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": cmd}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d, err := (&wire.Client{Socket: sock}).Decide(ctx, &wire.Request{Event: ev})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func status(t *testing.T, sock string) *wire.Status {
	t.Helper()
	st, err := (&wire.Client{Socket: sock}).Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// eventually waits for a state, polling. The bound only says when to give
// up: a reload compiles the whole pack, which under the race detector on
// a loaded 2-core machine has taken over 3 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func TestSocketAndHomeArePrivate(t *testing.T) {
	dir, _ := os.MkdirTemp("", "aj")
	defer os.RemoveAll(dir)
	home := filepath.Join(dir, "home")
	os.MkdirAll(home, 0o755) // a too-open home must be tightened
	d := daemontest.StartAt(t, home, filepath.Join(home, "agentjail.sock"))
	for path, want := range map[string]os.FileMode{home: 0o700, d.Socket: 0o600, filepath.Join(home, "policies"): 0o700} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
}

func TestSocketLifecycle(t *testing.T) {
	dir, _ := os.MkdirTemp("", "aj")
	defer os.RemoveAll(dir)
	home := filepath.Join(dir, "home")
	sock := filepath.Join(home, "agentjail.sock")
	os.MkdirAll(home, 0o700)

	// A crashed run leaves a socket file nobody listens on.
	stale, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close()

	d := daemontest.StartAt(t, home, sock)
	if v := decide(t, sock, "ls").Verdict; v != wire.Allow {
		t.Fatalf("after replacing a stale socket: %s", v)
	}

	_, err = daemon.New(context.Background(), daemon.Options{Socket: sock, Home: home, Pack: policies.FS})
	if !errors.Is(err, daemon.ErrAlreadyRunning) || !strings.Contains(err.Error(), sock) {
		t.Errorf("second daemon: %v, want ErrAlreadyRunning naming the socket", err)
	}
	if v := decide(t, sock, "ls").Verdict; v != wire.Allow {
		t.Errorf("the first daemon stopped serving after the second was refused")
	}

	d.Stop(t)
	if _, err := os.Lstat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket still there after shutdown: %v", err)
	}
}

func TestRefusesToReplaceANonSocket(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "agentjail.sock")
	os.WriteFile(sock, []byte("user data"), 0o600)
	_, err := daemon.New(context.Background(), daemon.Options{Socket: sock, Home: filepath.Join(dir, "home"), Pack: policies.FS})
	if err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("err %v", err)
	}
	if b, _ := os.ReadFile(sock); string(b) != "user data" {
		t.Errorf("the file was changed: %q", b)
	}
}

// rawExchange writes raw bytes on a fresh connection and reads one framed
// response.
func rawExchange(t *testing.T, sock string, raw []byte) *wire.Response {
	t.Helper()
	conn, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	if len(raw) > 0 {
		conn.Write(raw)
	}
	body, err := wire.ReadFrame(conn)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	var resp wire.Response
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatal(err)
	}
	return &resp
}

func frame(body string) []byte {
	b := make([]byte, 4, 4+len(body))
	binary.BigEndian.PutUint32(b, uint32(len(body)))
	return append(b, body...)
}

func TestBadRequestsGetTypedErrors(t *testing.T) {
	d := daemontest.Start(t, nil)
	os.WriteFile(filepath.Join(d.Home, "config.yaml"), []byte("read_timeout: 300ms\n"), 0o600)
	d.Reload()
	eventually(t, "read_timeout to apply", func() bool { return d.Decider().Config().ReadTimeout == 300*time.Millisecond })

	oversized := make([]byte, 4)
	binary.BigEndian.PutUint32(oversized, wire.MaxFrame+1)
	tests := []struct {
		name string
		raw  []byte
		code string
	}{
		{"oversized", oversized, wire.CodeTooLarge},
		{"not JSON", frame("rm -rf ~"), wire.CodeBadRequest},
		{"event not an object", frame(`{"op":"decide","event":[1,2]}`), wire.CodeBadRequest},
		{"event missing", frame(`{"op":"decide"}`), wire.CodeBadRequest},
		{"unknown op", frame(`{"op":"shutdown"}`), wire.CodeUnknownOp},
		{"nothing sent", nil, wire.CodeTimeout},
		{"half a frame", frame(`{"op":"status"}`)[:8], wire.CodeTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := rawExchange(t, d.Socket, tt.raw)
			if resp.Error == nil || resp.Error.Code != tt.code {
				t.Errorf("got %+v, want error code %s", resp, tt.code)
			}
		})
	}
	if v := decide(t, d.Socket, "rm -rf ~").Verdict; v != wire.Deny {
		t.Errorf("after bad requests the daemon answers %s", v)
	}
}

const ruleA = `package agentjail
deny[msg] {
  input.tool_input.command == "make deploy"
  msg := "rule A"
}
`

const ruleB = `package agentjail
ask contains {"id": "user.b", "msg": "rule B"} if input.tool_input.command == "make deploy"
`

func TestHotReloadAndLastGoodPolicy(t *testing.T) {
	d := daemontest.Start(t, map[string]string{"deploy.rego": ruleA})
	if got := decide(t, d.Socket, "make deploy"); got.Reason != "rule A" {
		t.Fatalf("initial: %+v", got)
	}
	file := filepath.Join(d.Home, "policies", "deploy.rego")

	os.WriteFile(file, []byte(ruleB), 0o600)
	eventually(t, "the edit to be served", func() bool { return decide(t, d.Socket, "make deploy").Verdict == wire.Ask })

	broken := "package agentjail\n\ndeny contains msg if {\n  msg := \n}\n"
	os.WriteFile(file, []byte(broken), 0o600)
	eventually(t, "the load error in status", func() bool { return len(status(t, d.Socket).LoadErrors) > 0 })
	st := status(t, d.Socket)
	if e := st.LoadErrors[0]; e.File != file || e.Line != 5 {
		t.Errorf("load error %s, want %s line 5", e, file)
	}
	if got := decide(t, d.Socket, "make deploy"); got.Verdict != wire.Ask || got.Reason != "rule B" {
		t.Errorf("the last good policy must keep serving, got %+v", got)
	}

	os.WriteFile(file, []byte(ruleA), 0o600)
	eventually(t, "the fix to clear the error", func() bool { return len(status(t, d.Socket).LoadErrors) == 0 })
	if got := decide(t, d.Socket, "make deploy"); got.Reason != "rule A" {
		t.Errorf("after the fix: %+v", got)
	}
}

func TestBrokenFileAtStartIsLeftOut(t *testing.T) {
	d := daemontest.Start(t, map[string]string{
		"good.rego":         ruleA,
		"broken.rego":       "package agentjail\ndeny[msg] { msg := }\n",
		"ignored_test.rego": "package agentjail\nthis is not rego",
	})
	if got := decide(t, d.Socket, "make deploy"); got.Reason != "rule A" {
		t.Errorf("the good user file must be in force: %+v", got)
	}
	if got := decide(t, d.Socket, "rm -rf ~"); got.Verdict != wire.Deny {
		t.Errorf("the default pack must be in force: %+v", got)
	}
	st := status(t, d.Socket)
	if len(st.LoadErrors) == 0 || !strings.HasSuffix(st.LoadErrors[0].File, "broken.rego") {
		t.Errorf("load errors %v, want broken.rego", st.LoadErrors)
	}
	for _, s := range st.Sources {
		if strings.HasSuffix(s.Name, "_test.rego") || strings.HasSuffix(s.Name, "broken.rego") {
			t.Errorf("%s must not be loaded", s.Name)
		}
	}
}

func TestBrokenConfigKeepsLastGood(t *testing.T) {
	d := daemontest.Start(t, nil)
	cfg := filepath.Join(d.Home, "config.yaml")
	os.WriteFile(cfg, []byte("eval_timeout: 750ms\n"), 0o600)
	eventually(t, "config to apply", func() bool { return d.Decider().Config().EvalTimeout == 750*time.Millisecond })
	os.WriteFile(cfg, []byte("eval_timeout: [\n"), 0o600)
	eventually(t, "config error in status", func() bool { return status(t, d.Socket).ConfigError != "" })
	if got := d.Decider().Config().EvalTimeout; got != 750*time.Millisecond {
		t.Errorf("eval_timeout %v, want the last good 750ms", got)
	}
}

func TestEvalErrorsAreDeniedAndCounted(t *testing.T) {
	d := daemontest.Start(t, map[string]string{"conflict.rego": `package agentjail
mode := "a" if input.tool_name == "Bash"
mode := "b" if input.tool_input.command
deny contains "never" if mode == "x"
`})
	got := decide(t, d.Socket, "ls")
	if got.Verdict != wire.Deny || !strings.Contains(got.Reason, "failed to evaluate") {
		t.Errorf("got %+v", got)
	}
	st := status(t, d.Socket)
	if st.EvalErrors != 1 || !strings.Contains(st.LastEvalErr, "conflict") {
		t.Errorf("status eval errors %d %q", st.EvalErrors, st.LastEvalErr)
	}
	if st.Decisions[wire.Deny] != 1 {
		t.Errorf("decisions %v", st.Decisions)
	}
}

func TestConfigTunesThePack(t *testing.T) {
	d := daemontest.Start(t, nil)
	cfg := filepath.Join(d.Home, "config.yaml")
	forcePush := "git push -f origin feature/x"
	outside := "rm -rf /srv/builds/old"
	if v := decide(t, d.Socket, forcePush).Verdict; v != wire.Ask {
		t.Fatalf("before: force push %s", v)
	}
	if v := decide(t, d.Socket, outside).Verdict; v != wire.Ask {
		t.Fatalf("before: rm outside the project %s", v)
	}

	os.WriteFile(cfg, []byte("disabled_rules: [git.force_push]\nallowed_paths: [/srv/builds]\nprotected_paths: [/work/p/vendor/keys]\n"), 0o600)
	eventually(t, "the tuning to apply", func() bool { return decide(t, d.Socket, forcePush).Verdict == wire.Allow })
	if v := decide(t, d.Socket, outside).Verdict; v != wire.Allow {
		t.Errorf("allowed_paths: rm of an allowed path is %s", v)
	}
	if got := decide(t, d.Socket, "cat vendor/keys/signing.txt"); got.Verdict != wire.Deny {
		t.Errorf("protected_paths: %+v", got)
	}

	// A locked rule cannot be disabled: the config is refused, with a
	// clear message, and the last good one stays.
	os.WriteFile(cfg, []byte("disabled_rules: [self.stop_daemon]\n"), 0o600)
	eventually(t, "the refusal in status", func() bool { return status(t, d.Socket).ConfigError != "" })
	if msg := status(t, d.Socket).ConfigError; !strings.Contains(msg, "self.stop_daemon is locked") {
		t.Errorf("config error %q", msg)
	}
	if v := decide(t, d.Socket, "pkill -f agentjail").Verdict; v != wire.Deny {
		t.Errorf("the locked rule no longer fires: %s", v)
	}
	if v := decide(t, d.Socket, forcePush).Verdict; v != wire.Allow {
		t.Errorf("the last good config was dropped: force push %s", v)
	}
}

func TestHugeAndDeepCommandsAreAsked(t *testing.T) {
	d := daemontest.Start(t, nil)
	tests := []struct{ name, cmd string }{
		{"900 KiB command", "echo " + strings.Repeat("a", 900<<10)},
		{"10,000 levels of nesting", strings.Repeat("(", 10000) + "ls" + strings.Repeat(")", 10000)},
		{"10,000 nested substitutions", strings.Repeat("$(", 10000) + "ls" + strings.Repeat(")", 10000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decide(t, d.Socket, tt.cmd)
			// Ask names the bound. Under the race detector on a loaded
			// machine the 900 KiB event can outlast the request budget;
			// that deny stops the call too.
			asked := got.Verdict == wire.Ask && strings.Contains(got.Reason, "could not check this command")
			late := got.Verdict == wire.Deny && len(got.Rules) > 0 &&
				(got.Rules[0].ID == "agentjail.deadline" || strings.Contains(got.Reason, "took longer than eval_timeout") || strings.Contains(got.Reason, "took longer than its"))
			if !asked && !late {
				t.Errorf("got %s %.200q", got.Verdict, got.Reason)
			}
		})
	}
}

func TestDecisionLogKeepsABurst(t *testing.T) {
	d := daemontest.Start(t, nil)
	client := &wire.Client{Socket: d.Socket}
	ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "session_id": "s9", "cwd": "/work/p", "tool_input": map[string]any{"command": "cat ~/.ssh/id_rsa"}})
	var wg sync.WaitGroup
	var next atomic.Int64
	for range 64 {
		wg.Go(func() {
			for next.Add(1) <= 10000 {
				if _, err := client.Decide(context.Background(), &wire.Request{Event: ev}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := d.RecentDenies(10); len(got) != 10 || got[0].RuleIDs[0] != "secrets.credentials" {
		t.Errorf("recent denies %+v", got)
	}
	d.Stop(t) // a clean shutdown flushes
	recs, err := decisionlog.Read(filepath.Join(d.Home, "decisions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 10000 {
		t.Fatalf("%d records, want 10000", len(recs))
	}
	r := recs[0]
	if r.Tool != "Bash" || r.SessionID != "s9" || r.Verdict != "deny" || r.Summary != "cat ~/.ssh/id_rsa" || r.Cwd != "/work/p" || r.Agent != "claude-code" || r.ID == "" || r.Revision == "" {
		t.Errorf("record %+v", r)
	}
}

func TestDecisionLogNeverHoldsFileContent(t *testing.T) {
	d := daemontest.Start(t, nil)
	ev, _ := json.Marshal(map[string]any{"tool_name": "Write", "cwd": "/work/p", "tool_input": map[string]any{"file_path": "notes.txt", "content": "TOP-SECRET-CONTENT"}})
	if _, err := (&wire.Client{Socket: d.Socket}).Decide(context.Background(), &wire.Request{Event: ev}); err != nil {
		t.Fatal(err)
	}
	d.Stop(t)
	b, _ := os.ReadFile(filepath.Join(d.Home, "decisions.jsonl"))
	if strings.Contains(string(b), "TOP-SECRET") || !strings.Contains(string(b), `"summary":"/work/p/notes.txt (18 bytes)"`) {
		t.Errorf("log line: %s", b)
	}
}

// The health line counts policy problems in words a person reads: one
// problem is "1 policy problem", two are "2 policy problems, the first".
func TestPolicyProblemsCounted(t *testing.T) {
	for _, tt := range []struct {
		name   string
		broken []string
		want   string
	}{
		{"one", []string{"a.rego"}, "1 policy problem: "},
		{"two", []string{"a.rego", "b.rego"}, "2 policy problems, the first: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for _, f := range tt.broken {
				files[f] = "package agentjail\ndeny[msg] { msg := }\n"
			}
			d := daemontest.Start(t, files)
			var got []string
			for _, p := range status(t, d.Socket).Problems {
				if p.Kind == "policy" {
					got = append(got, p.Message)
				}
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], tt.want) {
				t.Errorf("policy problems %q, want one starting %q", got, tt.want)
			}
		})
	}
}
