// Package daemontest starts a real daemon in-process on a temporary home
// and socket, for tests of the packages that talk to it.
package daemontest

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/policies"
)

// Daemon is a running test daemon.
type Daemon struct {
	*daemon.Daemon
	Home   string
	Socket string
	stop   context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

// UserHome is the home directory test daemons resolve ~ against.
const UserHome = "/home/tester"

// UID is the uid test daemons take the hook to run as, whatever uid the
// test runs as: a user's, so that tests run as root (CI) judge the same.
const UID = 1000

// Start runs a daemon with the embedded pack on a fresh home, with the
// given user policy files (name -> Rego) written first. It stops at the
// end of the test.
func Start(t testing.TB, userPolicies map[string]string) *Daemon {
	t.Helper()
	return StartFor(t, UserHome, userPolicies)
}

// StartFor is Start for a user whose home directory is userHome.
func StartFor(t testing.TB, userHome string, userPolicies map[string]string) *Daemon {
	t.Helper()
	return StartAs(t, userHome, UID, userPolicies)
}

// StartForConfig is StartFor with config.yaml written first.
func StartForConfig(t testing.TB, userHome, configYAML string) *Daemon {
	t.Helper()
	home := freshHome(t, nil)
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(configYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	return startAt(t, home, filepath.Join(home, "agentjail.sock"), userHome, UID, nil)
}

// StartAs is StartFor for a hook that runs as uid (0: root).
func StartAs(t testing.TB, userHome string, uid int, userPolicies map[string]string) *Daemon {
	t.Helper()
	home := freshHome(t, userPolicies)
	return startAt(t, home, filepath.Join(home, "agentjail.sock"), userHome, uid, nil)
}

// freshHome makes a home removed at the end of the test, with the user
// policy files written. Unix socket paths are limited to ~104 bytes: the
// home is kept short.
func freshHome(t testing.TB, userPolicies map[string]string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "aj")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	WritePolicies(t, home, userPolicies)
	return home
}

// StartWith is Start with edit applied to the daemon's options first
// (a tray's callbacks, say).
func StartWith(t testing.TB, userPolicies map[string]string, edit func(*daemon.Options)) *Daemon {
	t.Helper()
	home := freshHome(t, userPolicies)
	return startAt(t, home, filepath.Join(home, "agentjail.sock"), UserHome, UID, edit)
}

// StartAt runs a daemon on an existing home and socket.
func StartAt(t testing.TB, home, socket string) *Daemon {
	t.Helper()
	return startAt(t, home, socket, UserHome, UID, nil)
}

// Patient, when set, starts each test daemon whose home has no
// config.yaml with hook_timeout 20s and eval_timeout 10s. Tests that
// judge verdicts, not speed, set it (policies' TestMain) so that a
// moment of starvation on a loaded machine is not taken for a wrong
// verdict; the default budgets stay for every other test.
var Patient bool

func startAt(t testing.TB, home, socket, userHome string, uid int, edit func(*daemon.Options)) *Daemon {
	t.Helper()
	// A home without config.yaml gets one that turns confinement off:
	// these daemons serve tests of verdicts and of each agent's answer to
	// them, in-process, where no agent runs the rewritten command; the
	// jail's answers are tested on their own (StartForConfig with
	// confine: true, and the end-to-end tests, which keep the defaults).
	cfg := filepath.Join(home, "config.yaml")
	if _, err := os.Stat(cfg); os.IsNotExist(err) {
		text := "confine: false\n"
		if Patient {
			text += "hook_timeout: 20s\neval_timeout: 10s\n"
		}
		os.MkdirAll(home, 0o700)
		if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the daemon's log:\n%s", logs.String())
		}
	})
	opts := daemon.Options{
		Socket:   socket,
		Home:     home,
		UserHome: userHome,
		UID:      &uid,
		Pack:     policies.FS,
		Version:  "test",
		Logger:   slog.New(slog.NewTextHandler(logs, nil)),
	}
	if edit != nil {
		edit(&opts)
	}
	d, err := daemon.New(ctx, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	td := &Daemon{Daemon: d, Home: home, Socket: socket, stop: cancel, done: make(chan struct{})}
	go func() { d.Run(ctx); close(td.done) }()
	t.Cleanup(func() { td.Stop(t) })
	return td
}

// Stop stops the daemon and waits for it; calling it twice is fine.
func (d *Daemon) Stop(t testing.TB) {
	d.once.Do(func() {
		d.stop()
		select {
		case <-d.done:
		case <-time.After(10 * time.Second):
			t.Errorf("daemon did not stop within 10s")
		}
	})
}

// WritePolicies writes user policy files into home/policies.
func WritePolicies(t testing.TB, home string, files map[string]string) {
	t.Helper()
	dir := filepath.Join(home, "policies")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// syncBuffer keeps the daemon's log for a failed test to print.
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
