package unixsock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentjail/agentjail/internal/paths"
)

// The system socket's folder is trusted only when nobody but its owner
// may write to it.
func TestSystemFolderTrust(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "agentjail.sock")
	os.Chmod(dir, 0o755)
	owner, err := checkSystemFolder(sock)
	if os.Getuid() == 0 {
		if err != nil || owner != 0 {
			t.Errorf("a root-owned 0755 folder: owner %d, %v", owner, err)
		}
	} else {
		var u *UntrustedError
		if !errors.As(err, &u) {
			t.Errorf("a folder of the caller's own is no system folder: %v", err)
		}
	}
	for _, mode := range []os.FileMode{0o775, 0o757, 0o777} {
		os.Chmod(dir, mode)
		var u *UntrustedError
		if _, err := checkSystemFolder(sock); !errors.As(err, &u) {
			t.Errorf("mode %v: %v, want untrusted", mode, err)
		}
	}
	if !paths.IsSystemSocket(paths.SystemSocket()) || !paths.IsSystemSocket(paths.SystemSocket()+"/") || paths.IsSystemSocket(sock) {
		t.Error("IsSystemSocket does not know the system socket")
	}
}
