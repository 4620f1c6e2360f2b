package daemon_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/policies"
)

// newDaemon starts (and stops) a daemon on home and socket, returning the
// error New gave.
func newDaemon(t *testing.T, home, socket string) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := daemon.New(ctx, daemon.Options{
		Socket: socket, Home: home, UserHome: "/home/tester", Pack: policies.FS,
		Version: "test", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	cancel()
	<-done
	return nil
}

// A symlink planted where the daemon writes (its lock, socket or logs)
// is never followed: the daemon refuses to start and says which file to
// remove, and the file it points to keeps its content and mode.
func TestPlantedSymlinksAreNotFollowed(t *testing.T) {
	tests := []struct {
		name string
		file string // in home
	}{
		{"lock", "agentjail.sock.lock"},
		{"socket", "agentjail.sock"},
		{"decision log", "decisions.jsonl"},
		{"daemon log", "agentjail.log"},
		{"hook failure log", "hook-failures.jsonl"},
		{"config", "config.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, _ := os.MkdirTemp("", "aj") // short: socket paths are limited
			t.Cleanup(func() { os.RemoveAll(dir) })
			home := filepath.Join(dir, "home")
			os.MkdirAll(home, 0o700)
			victim := filepath.Join(dir, "victim")
			os.WriteFile(victim, []byte("precious\n"), 0o640)
			link := filepath.Join(home, tt.file)
			if err := os.Symlink(victim, link); err != nil {
				t.Fatal(err)
			}
			err := newDaemon(t, home, filepath.Join(home, "agentjail.sock"))
			if err == nil || !strings.Contains(err.Error(), link) {
				t.Errorf("started with %s a symlink (err %v); want a refusal naming it", link, err)
			}
			fi, _ := os.Stat(victim)
			if b, _ := os.ReadFile(victim); string(b) != "precious\n" || fi.Mode().Perm() != 0o640 {
				t.Errorf("the victim changed: %q, mode %v", b, fi.Mode().Perm())
			}
		})
	}
}

// The look-alikes start: a home reached through our own symlink, a stale
// lock and log files of ours (a loose mode is tightened, not refused).
func TestOwnHomeFilesAreAccepted(t *testing.T) {
	dir, _ := os.MkdirTemp("", "aj")
	t.Cleanup(func() { os.RemoveAll(dir) })
	real := filepath.Join(dir, "real")
	os.MkdirAll(real, 0o700)
	home := filepath.Join(dir, "home")
	if err := os.Symlink(real, home); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(real, "agentjail.sock.lock"), []byte("999999 stale\n"), 0o600)
	os.WriteFile(filepath.Join(real, "decisions.jsonl"), nil, 0o600)
	cfg := filepath.Join(real, "config.yaml")
	os.WriteFile(cfg, []byte("fail_mode: open\n"), 0o666)
	os.Chmod(cfg, 0o666)
	if err := newDaemon(t, home, filepath.Join(home, "agentjail.sock")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(cfg); fi.Mode().Perm()&0o022 != 0 {
		t.Errorf("config.yaml is still %v, want group and others' write taken away", fi.Mode().Perm())
	}
}

// A socket in a folder other users can write to could be swapped for
// theirs; the daemon refuses to serve there.
func TestSocketFolderOthersCanWriteIsRefused(t *testing.T) {
	dir, _ := os.MkdirTemp("", "aj")
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	shared := filepath.Join(dir, "shared")
	os.MkdirAll(shared, 0o777)
	os.Chmod(shared, 0o777)
	err := newDaemon(t, home, filepath.Join(shared, "s.sock"))
	if err == nil || !strings.Contains(err.Error(), "writable by other users") {
		t.Errorf("got %v, want a refusal of the shared folder", err)
	}
}

// A home that another user owns, or reaches through their symlink, is
// refused: the fallback home in a shared temp folder is the case.
func TestOtherUsersHomeIsRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to make files another user owns")
	}
	dir, _ := os.MkdirTemp("", "aj")
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o1777) // like /tmp
	theirs := filepath.Join(dir, "theirs")
	os.Mkdir(theirs, 0o700)
	os.Chown(theirs, 65534, 65534)
	ours := filepath.Join(dir, "ours")
	os.Mkdir(ours, 0o700)
	theirLink := filepath.Join(dir, "link")
	os.Symlink(ours, theirLink)
	if err := os.Lchown(theirLink, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, home, want string }{
		{"home owned by another user", theirs, "belongs to uid 65534"},
		{"home through another user's symlink", theirLink, "symlink that belongs to uid 65534"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := newDaemon(t, tt.home, filepath.Join(tt.home, "agentjail.sock"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}
