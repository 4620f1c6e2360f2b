package wire

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// HookState is what the daemon keeps current in HookStatePath for the
// hook's failure path: config.yaml's fail_mode and hook_timeout as last
// loaded. The hook reads it only when no daemon answers, so the checked
// path reads no file; and it can only make the hook stricter (fail-closed
// wins over the --fail-closed flag's absence, never the other way), so a
// stale, missing or forged file can at worst block calls, never let one
// through unchecked.
type HookState struct {
	FailMode    string `json:"fail_mode"`    // "open" or "closed"
	HookTimeout string `json:"hook_timeout"` // a Go duration, for status and people
	Written     string `json:"written"`      // RFC 3339
}

// maxHookState bounds what the hook reads from the state file.
const maxHookState = 4 << 10

// HookStatePath is the daemon's state file for the hook, in Home.
func HookStatePath() string { return filepath.Join(Home(), "hook.json") }

// ReadHookState reads the state file at path. It trusts the file only
// as ReadTrusted does (the rules the hook applies to the socket's
// folder); any other file is an error and means the hook's own flags
// decide.
func ReadHookState(path string) (HookState, error) {
	var st HookState
	b, _, err := ReadTrusted(path, maxHookState)
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return HookState{}, fmt.Errorf("%s: %w", path, err)
	}
	return st, nil
}

// ReadTrusted reads a file agentjail keeps in its home, up to limit
// bytes, trusting it only when it is a regular file of ours (never a
// symlink or a FIFO) that others cannot write, in a folder of ours that
// others cannot write. Any other file is an error, and so is one over
// limit. It returns the file's details too (its time of change).
func ReadTrusted(path string, limit int64) ([]byte, os.FileInfo, error) {
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
	if uid, ok := ownerOf(fi); ok && uid != os.Getuid() {
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
	if uid, ok := ownerOf(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not you", dir, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is writable by others (mode %v)", dir, fi.Mode().Perm())
	}
	return nil
}

// WriteHookState replaces the state file at path atomically (a private
// temp file beside it, renamed over it), mode 0600. The rename replaces
// whatever was at path, a planted symlink included, never its target.
func WriteHookState(path string, st HookState) error {
	if st.Written == "" {
		st.Written = time.Now().UTC().Format(time.RFC3339)
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return WritePrivate(path, append(b, '\n'))
}

// WritePrivate replaces the file at path atomically with b: a private
// temp file beside it (mode 0600), renamed over it. The rename replaces
// whatever was at path, a planted symlink included, never its target.
func WritePrivate(path string, b []byte) error {
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

// CheckTrusted says why the file at path must not be trusted, or nil: it
// must be a regular file (not a symlink) of ours that others cannot
// write, in a folder of ours that others cannot write.
func CheckTrusted(path string) error {
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
	if uid, ok := ownerOf(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not you", path, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is writable by others (mode %v)", path, fi.Mode().Perm())
	}
	return nil
}
