package daemon_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

// serving starts a daemon on home and socket and returns a function that
// stops it and waits until it has.
func serving(t *testing.T, home, socket string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	d, err := daemon.New(ctx, daemon.Options{
		Socket: socket, Home: home, UserHome: "/home/tester", Pack: policies.FS,
		Version: "test", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

// answers reports whether a daemon answers a status request on socket,
// and its pid.
func answers(socket string) (bool, int) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	st, err := (&wire.Client{Socket: socket}).Status(ctx)
	if err != nil {
		return false, 0
	}
	return true, st.PID
}

// What is taken away from under a running daemon (its socket, the
// socket's folder, its lock) is put back, and it answers again: a guard
// that lost its socket but kept its lock would fail every later call
// open, for good, while each new daemon refused to start.
func TestTakenAwaySocketHeals(t *testing.T) {
	tests := []struct {
		name   string
		remove func(t *testing.T, home, socket string)
	}{
		{"socket removed", func(t *testing.T, _, socket string) { os.Remove(socket) }},
		{"socket's folder removed", func(t *testing.T, _, socket string) { os.RemoveAll(filepath.Dir(socket)) }},
		{"socket replaced by another socket file", func(t *testing.T, _, socket string) {
			// A socket file nobody listens on, as another program's
			// crash would leave.
			dead := filepath.Join(filepath.Dir(socket), "dead.sock")
			l, err := net.Listen("unix", dead)
			if err != nil {
				t.Fatal(err)
			}
			l.(*net.UnixListener).SetUnlinkOnClose(false)
			l.Close()
			if err := os.Rename(dead, socket); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, _ := os.MkdirTemp("", "aj") // short: socket paths are limited
			t.Cleanup(func() { os.RemoveAll(dir) })
			home := filepath.Join(dir, "home")
			socket := filepath.Join(dir, "run", "s.sock")
			serving(t, home, socket)
			if ok, _ := answers(socket); !ok {
				t.Fatal("the daemon does not answer at start")
			}
			tt.remove(t, home, socket)
			eventually(t, "the daemon to answer on its socket again", func() bool { ok, _ := answers(socket); return ok })
			if _, pid := answers(socket); pid != os.Getpid() {
				t.Errorf("pid %d answers, want this daemon's %d", pid, os.Getpid())
			}
			if fi, err := os.Stat(socket); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("the recreated socket: %v, mode %v; want 0600", err, fi.Mode().Perm())
			}
			if fi, err := os.Stat(filepath.Dir(socket)); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("the socket's folder: %v; want it private (0700)", err)
			}
			// The lock is held again: a second daemon still refuses.
			if err := newDaemon(t, home, socket); err == nil || !strings.Contains(err.Error(), "already running") {
				t.Errorf("a second daemon started (%v); want a refusal", err)
			}
		})
	}
}

// A file someone put where the socket belongs is moved aside, never
// deleted, and the socket comes back.
func TestFileInPlaceOfSocketIsMovedAside(t *testing.T) {
	dir, _ := os.MkdirTemp("", "aj")
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	socket := filepath.Join(home, "agentjail.sock")
	serving(t, home, socket)
	// Renamed over the socket in one step: a remove then a write could
	// find the socket already back and fail to open it.
	notes := filepath.Join(dir, "notes")
	os.WriteFile(notes, []byte("notes\n"), 0o600)
	if err := os.Rename(notes, socket); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the daemon to answer again", func() bool { ok, _ := answers(socket); return ok })
	moved, _ := filepath.Glob(socket + ".moved-*")
	if len(moved) != 1 {
		t.Fatalf("moved aside: %v, want one file", moved)
	}
	if b, _ := os.ReadFile(moved[0]); string(b) != "notes\n" {
		t.Errorf("the moved file holds %q, want its content kept", b)
	}
}

// A lock file removed under a running daemon is taken again, so a second
// daemon still refuses to start (and never takes the socket from it).
func TestRemovedLockIsTakenAgain(t *testing.T) {
	dir, _ := os.MkdirTemp("", "aj")
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	socket := filepath.Join(home, "agentjail.sock")
	serving(t, home, socket)
	lock := socket + ".lock"
	os.Remove(lock)
	eventually(t, "the lock file to be back", func() bool {
		b, err := os.ReadFile(lock)
		return err == nil && strings.HasPrefix(string(b), strconv.Itoa(os.Getpid())+" ")
	})
	if err := newDaemon(t, home, socket); err == nil || !strings.Contains(err.Error(), "already running") {
		t.Errorf("a second daemon started (%v); want a refusal", err)
	}
	if ok, _ := answers(socket); !ok {
		t.Error("the daemon no longer answers")
	}
}

// A daemon on a socket of its own (AGENTJAIL_SOCKET) leaves neither its
// socket nor its lock file behind when it stops.
func TestStopLeavesNoLockFile(t *testing.T) {
	dir, _ := os.MkdirTemp("", "aj")
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	socket := filepath.Join(dir, "custom", "s.sock")
	stop := serving(t, home, socket)
	if _, err := os.Stat(socket + ".lock"); err != nil {
		t.Fatalf("no lock file while serving: %v", err)
	}
	stop()
	for _, f := range []string{socket, socket + ".lock"} {
		if _, err := os.Lstat(f); !os.IsNotExist(err) {
			t.Errorf("%s is left behind (%v)", f, err)
		}
	}
}
