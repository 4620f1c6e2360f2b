// Package privatefile reads and writes the files agentjail keeps in its
// home as only their owner may: a file is trusted only when it is a
// regular file of the user's own that others cannot write, in a folder of
// the user's own that others cannot write, and it is replaced atomically
// by a private file. It imports only the standard library: the hook
// links it.
package privatefile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Read reads a file agentjail keeps in its home, up to limit
// bytes, trusting it only when it is a regular file of ours (never a
// symlink or a FIFO) that others cannot write, in a folder of ours that
// others cannot write. Any other file is an error, and so is one over
// limit. It returns the file's details too (its time of change).
func Read(path string, limit int64) ([]byte, os.FileInfo, error) {
	if err := checkOwnDir(filepath.Dir(path)); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|NoFollow|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file", path)
	}
	if uid, ok := Owner(fi); ok && uid != os.Getuid() {
		return nil, nil, fmt.Errorf("%s belongs to uid %d, not you", path, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return nil, nil, fmt.Errorf("%s is writable by others (mode %v)", path, fi.Mode().Perm())
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(b)) > limit {
		return nil, nil, fmt.Errorf("%s is over %d bytes", path, limit)
	}
	return b, fi, nil
}

// checkOwnDir refuses a folder another user owns or can write to.
func checkOwnDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if uid, ok := Owner(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not you", dir, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is writable by others (mode %v)", dir, fi.Mode().Perm())
	}
	return nil
}

// Write replaces the file at path atomically with b: a private
// temp file beside it (mode 0600), renamed over it. The rename replaces
// whatever was at path, a planted symlink included, never its target.
func Write(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*") // 0600
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Check says why the file at path must not be trusted, or nil: it
// must be a regular file (not a symlink) of ours that others cannot
// write, in a folder of ours that others cannot write.
func Check(path string) error {
	if err := checkOwnDir(filepath.Dir(path)); err != nil {
		return err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%v)", path, fi.Mode().Type())
	}
	if uid, ok := Owner(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not you", path, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is writable by others (mode %v)", path, fi.Mode().Perm())
	}
	return nil
}
