package hook

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/unixsock"
	"github.com/agentjail/agentjail/internal/wire"
)

// fakeServerEnv makes the test binary a fake daemon that listens on the
// given socket, records every byte a client sends to fakeLogEnv's file,
// and answers every connection with an explicit allow. The trust test
// runs it as another user.
const (
	fakeServerEnv = "AGENTJAIL_TEST_FAKE_SERVER"
	fakeLogEnv    = "AGENTJAIL_TEST_FAKE_LOG"
)

func TestMain(m *testing.M) {
	if sock := os.Getenv(fakeServerEnv); sock != "" {
		fakeServer(sock, os.Getenv(fakeLogEnv))
		return
	}
	os.Exit(m.Run())
}

func fakeServer(sock, logPath string) {
	ln, err := net.Listen("unix", sock)
	if err != nil {
		fmt.Println("listen:", err)
		os.Exit(1)
	}
	os.Chmod(sock, 0o777)
	fmt.Println("ready")
	for {
		c, err := ln.Accept()
		if err != nil {
			os.Exit(0)
		}
		c.SetDeadline(time.Now().Add(2 * time.Second))
		b, _ := wire.ReadFrame(c)
		if f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666); err == nil {
			f.Write(b)
			f.Close()
		}
		wire.WriteFrame(c, wire.Response{Decision: &wire.Decision{Verdict: wire.Allow, Explicit: true, Reason: "the fake server says yes"}})
		c.Close()
	}
}

const rmHome = `{"tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}`

// A server running as another user on our socket path is refused before
// the event is sent; its "allow" never reaches the agent.
func TestFakeServerUnderAnotherUIDIsRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a fake server as another user (uid 65534)")
	}
	// The fake server listens in a folder of its own; root then moves the
	// socket into our private folder, so only the peer check can catch it.
	shared, err := os.MkdirTemp("", "ajfake")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(shared) })
	os.Chmod(shared, 0o755)
	theirs := filepath.Join(shared, "theirs")
	if err := os.Mkdir(theirs, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chown(theirs, 65534, 65534)
	self, _ := os.Executable()
	bin := filepath.Join(shared, "fake")
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}

	theirSock := filepath.Join(theirs, "s.sock")
	received := filepath.Join(theirs, "received")
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), fakeServerEnv+"="+theirSock, fakeLogEnv+"="+received)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		t.Fatalf("fake server: %q", line)
	}
	ours := t.TempDir()
	sock := filepath.Join(ours, "agentjail.sock")
	if err := os.Rename(theirSock, sock); err != nil {
		t.Fatal(err)
	}

	// The fake server does answer whoever skips the check: the test's
	// own control that it is a working server.
	if got := rawAsk(t, sock); !strings.Contains(got, "the fake server says yes") {
		t.Fatalf("the fake server did not answer a plain client: %q", got)
	}
	os.Remove(received)

	for _, closed := range []bool{false, true} {
		t.Run(fmt.Sprintf("fail-closed=%v", closed), func(t *testing.T) {
			stdout, stderr, code, recs := run(t, Options{Client: &wire.Client{Socket: sock}, FailClosed: closed}, strings.NewReader(rmHome))
			want := "the server on " + sock + " runs as uid 65534, not you: refusing to trust it"
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr %q, want it to say %q", stderr, want)
			}
			if strings.Contains(stdout, "fake server") {
				t.Errorf("the fake server's verdict reached the agent: %s", stdout)
			}
			if closed {
				var o claude.ClaudeOutput
				if err := json.Unmarshal([]byte(stdout), &o); err != nil || code != ExitBlock || o.HookSpecificOutput.PermissionDecision != "deny" {
					t.Errorf("exit %d stdout %q, want a deny", code, stdout)
				}
			} else if code != ExitOK || strings.Contains(stdout, "hookSpecificOutput") || !strings.Contains(stdout, `"systemMessage"`) {
				t.Errorf("exit %d stdout %q, want the fail-open (exit 0, a systemMessage and no decision)", code, stdout)
			}
			if len(recs) != 1 || recs[0].Cause != wire.CauseUntrusted {
				t.Errorf("failure records %v, want one", recs)
			}
		})
	}
	if b, _ := os.ReadFile(received); len(b) > 0 {
		t.Errorf("the fake server received %d bytes of the event: %q", len(b), b)
	}
}

// rawAsk sends one decide request without any trust check.
func rawAsk(t *testing.T, sock string) string {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if err := wire.WriteFrame(c, wire.Request{Op: wire.OpDecide, Event: []byte(rmHome)}); err != nil {
		t.Fatal(err)
	}
	b, _ := wire.ReadFrame(c)
	return string(b)
}

// A socket in a folder others can write to, or that another user owns,
// may have been swapped: refused. A private folder reached through a
// symlink, and a real daemon, are trusted.
func TestSocketFolderMustBeOurs(t *testing.T) {
	d := daemontest.Start(t, nil)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Dir(d.Socket), link); err != nil {
		t.Fatal(err)
	}
	open := t.TempDir()
	os.Chmod(open, 0o777)
	groupWritable := t.TempDir()
	os.Chmod(groupWritable, 0o770)
	tests := []struct {
		name, socket, want string
	}{
		{"folder writable by everyone", filepath.Join(open, "agentjail.sock"), "which other users can write to"},
		{"folder writable by the group", filepath.Join(groupWritable, "agentjail.sock"), "which other users can write to"},
		{"sticky shared folder", "/tmp/agentjail.sock", "not you"},
		{"private folder through a symlink", filepath.Join(link, filepath.Base(d.Socket)), ""},
		{"the real daemon", d.Socket, ""},
	}
	if os.Getuid() == 0 {
		// /tmp belongs to root: for root it is the mode that refuses it.
		tests[2].want = "which other users can write to"
		// The fallback home, pre-created by another user in a shared /tmp.
		theirs := t.TempDir()
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		tests = append(tests, struct{ name, socket, want string }{"folder another user made first", filepath.Join(theirs, "agentjail.sock"), "belongs to uid 65534, not you"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code, _ := run(t, Options{Client: &wire.Client{Socket: tt.socket}, FailClosed: true}, strings.NewReader(rmHome))
			if tt.want == "" {
				if code != ExitBlock || !strings.Contains(stdout, "deny") || strings.Contains(stderr, "refusing to trust") {
					t.Errorf("exit %d stdout %q stderr %q, want the daemon's own deny", code, stdout, stderr)
				}
				return
			}
			if !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "refusing to trust it") {
				t.Errorf("stderr %q, want a refusal saying %q", stderr, tt.want)
			}
		})
	}
}

// The check is on every client, also the one without a deadline that
// the CLI uses.
func TestClientWithoutDeadlineChecksToo(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o777)
	_, err := (&wire.Client{Socket: filepath.Join(dir, "s.sock")}).Status(t.Context())
	var untrusted *unixsock.UntrustedError
	if !errors.As(err, &untrusted) {
		t.Errorf("got %v, want an *unixsock.UntrustedError", err)
	}
}
