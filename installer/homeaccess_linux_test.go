package installer

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// grantSearch lets another uid reach a file inside a private folder, and
// nothing more; revokeSearch leaves the folder as it was.
func TestGrantSearchOnPrivateHome(t *testing.T) {
	tmp := t.TempDir()
	// Only the home is private: the test's own folders must not hide it.
	os.Chmod(tmp, 0o755)
	os.Chmod(filepath.Dir(tmp), 0o755)
	home := filepath.Join(tmp, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(home, 0o700)
	file := filepath.Join(home, "script.sh")
	os.WriteFile(file, []byte("echo hi\n"), 0o644)
	const other = 54321
	existed, err := grantSearch(home, other)
	if errors.Is(err, syscall.EOPNOTSUPP) {
		t.Skipf("this file system keeps no ACLs: %v", err)
	}
	if err != nil || existed {
		t.Fatalf("grantSearch = %v, %v", existed, err)
	}
	entries, err := readACL(home)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, e := range entries {
		found = found || (e.tag == aclUser && e.id == other && e.perm == aclSearch)
	}
	if !found {
		t.Fatalf("no user:%d:--x entry in %+v", other, entries)
	}
	if again, err := grantSearch(home, other); err != nil || !again {
		t.Fatalf("a second grant = %v, %v; want it seen as there already", again, err)
	}
	if os.Getuid() == 0 {
		// The kernel's own check, as that uid: it reaches the file by
		// name but cannot list the folder.
		as := func(args ...string) error {
			cmd := exec.Command(args[0], args[1:]...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: other, Gid: other}}
			return cmd.Run()
		}
		if err := as("cat", file); err != nil {
			t.Errorf("uid %d cannot read %s through the granted folder: %v", other, file, err)
		}
		if err := as("ls", home); err == nil {
			t.Errorf("uid %d can list %s; search must not give listing", other, home)
		}
	}
	if err := revokeSearch(home, other); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(home)
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("after revoking, the mode is %v, want 0700", fi.Mode().Perm())
	}
	if _, err := syscall.Getxattr(home, aclXattr, make([]byte, 256)); !errors.Is(err, syscall.ENODATA) {
		t.Errorf("after revoking, an ACL is left (%v)", err)
	}
}
