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
	existed, err := grantSearch(home, "", other)
	if errors.Is(err, syscall.EOPNOTSUPP) {
		t.Skipf("this file system keeps no ACLs: %v", err)
	}
	if err != nil || existed {
		t.Fatalf("grantSearch = %v, %v", existed, err)
	}
	dir, err := os.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := readACL(dir)
	dir.Close()
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
	if again, err := grantSearch(home, "", other); err != nil || !again {
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
	if err := revokeSearch(home, "", other); err != nil {
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

// A folder inside the home that is a link is not followed: the user
// could point ~/.agentjail at a folder of another user's, which root
// would then open to the service user.
func TestGrantRefusesLinksInsideHome(t *testing.T) {
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	other := filepath.Join(tmp, "someone-else")
	os.MkdirAll(filepath.Join(other, "policies"), 0o700)
	os.MkdirAll(home, 0o700)
	os.Symlink(other, filepath.Join(home, ".agentjail"))
	if _, err := grantSearch(home, ".agentjail", 54321); err == nil {
		t.Error("grantSearch followed ~/.agentjail, a link")
	}
	if _, err := grantList(home, ".agentjail/policies", 54321); err == nil {
		t.Error("grantList followed a link on the way to ~/.agentjail/policies")
	}
	if _, err := syscall.Getxattr(filepath.Join(other, "policies"), aclXattr, make([]byte, 256)); !errors.Is(err, syscall.ENODATA) {
		t.Errorf("the other folder got an ACL (%v)", err)
	}
}
