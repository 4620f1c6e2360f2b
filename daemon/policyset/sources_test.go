package policyset_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/wire"
)

const goodPolicy = "package agentjail\n\ndeny contains \"no\" if input.tool_name == \"Nope\"\n"

// Everything in a policy folder that is not a plain file of ours is left
// out with an error naming it, the good files still load, and nothing
// blocks: a FIFO with no writer would hang a plain open or read forever.
func TestDirSourcesLoadsOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	write("good.rego", goodPolicy, 0o600)
	write("readable.rego", goodPolicy, 0o644)
	write("huge.rego", "package agentjail\n"+strings.Repeat("# padding\n", policyset.MaxPolicyFile/10+1), 0o600)
	write("everyone.rego", goodPolicy, 0o666)
	write("target.txt", goodPolicy, 0o600)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.rego"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(other, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	symlink := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	symlink(filepath.Join(other, "pipe"), "to_fifo.rego")
	symlink("/dev/zero", "to_device.rego")
	symlink(filepath.Join(dir, "target.txt"), "to_regular.rego")
	symlink(other, "to_dir.rego")
	ln, err := net.Listen("unix", filepath.Join(dir, "sock.rego"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()

	type result struct {
		srcs []engine.Source
		errs []wire.LoadErr
	}
	done := make(chan result, 1)
	go func() {
		srcs, errs := policyset.DirSources([]string{dir}, false)
		done <- result{srcs, errs}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("DirSources is still blocked after 30s (a hang guard, not a timing check)")
	}

	var loaded []string
	for _, s := range r.srcs {
		loaded = append(loaded, filepath.Base(s.Name))
	}
	if got, want := strings.Join(loaded, ","), "good.rego,readable.rego,to_regular.rego"; got != want {
		t.Errorf("loaded %s, want %s", got, want)
	}
	refused := map[string]string{}
	for _, e := range r.errs {
		refused[filepath.Base(e.File)] = e.Message
	}
	tests := []struct{ name, file, want string }{
		{"FIFO", "fifo.rego", "a FIFO"},
		{"symlink to a FIFO", "to_fifo.rego", "a FIFO"},
		{"symlink to a device", "to_device.rego", "character device"},
		{"socket", "sock.rego", "a socket"},
		{"over the size cap", "huge.rego", "over the 1.0 MiB limit"},
		{"writable by everyone", "everyone.rego", "writable by every user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, ok := refused[tt.file]
			if !ok {
				t.Fatalf("%s was not reported; errors: %v", tt.file, r.errs)
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("%s: %q, want it to say %q", tt.file, msg, tt.want)
			}
		})
	}
	if len(r.errs) != len(tests) {
		t.Errorf("%d errors, want %d: %v", len(r.errs), len(tests), r.errs)
	}
}

// A file another user owns could be rewritten by them at any time.
func TestDirSourcesRefusesOtherUsersFiles(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give a file to another user")
	}
	dir := t.TempDir()
	mine, theirs := filepath.Join(dir, "mine.rego"), filepath.Join(dir, "theirs.rego")
	for _, p := range []string{mine, theirs} {
		if err := os.WriteFile(p, []byte(goodPolicy), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	srcs, errs := policyset.DirSources([]string{dir}, false)
	if len(srcs) != 1 || srcs[0].Name != mine {
		t.Errorf("loaded %v, want only %s", srcs, mine)
	}
	if len(errs) != 1 || errs[0].File != theirs || !strings.Contains(errs[0].Message, "uid 65534") {
		t.Errorf("errors %v, want one naming %s and uid 65534", errs, theirs)
	}
}
