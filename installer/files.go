package installer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
)

// writeAtomic replaces path with data: a temp file in the same folder,
// fsync, rename. An existing file keeps its mode; a new one gets mode.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// copyAtomic copies src over dst atomically with mode; an identical dst
// is left alone. It reports whether it wrote.
func copyAtomic(src, dst string, mode fs.FileMode) (bool, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return false, err
	}
	if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	// A running binary cannot be opened for writing ("text file busy");
	// renaming over it is fine, and the running process keeps its inode.
	return true, writeAtomic(dst, data, mode)
}

func sha(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// state is what install remembers so uninstall can put files back.
type state struct {
	// Settings maps a settings file to what install did to it.
	Settings map[string]settingsState `json:"settings"`
	// LinkDirs are the folders install created for the agentjail link
	// (~/.local/bin, maybe ~/.local), deepest first: uninstall removes
	// them again when they are empty.
	LinkDirs []string `json:"link_dirs,omitempty"`
	// System is what a system install did beyond the files it edited.
	System *systemState `json:"system,omitempty"`
}

type settingsState struct {
	// Written is the sha256 of the file as install left it: if it still
	// matches at uninstall, nothing else touched it and the original can
	// be restored byte for byte.
	Written string `json:"written_sha256"`
	// Backup holds the original content; empty when install created the
	// file.
	Backup string `json:"backup,omitempty"`
	// Edited is set when someone else changed the file between two of
	// install's writes: from then on uninstall takes out only our
	// entries, never restores the backup or removes the file.
	Edited bool `json:"edited,omitempty"`
	// Created is set when there was no file before install.
	Created bool `json:"created,omitempty"`
	// Target is the file install wrote: the settings path itself, or
	// the file its symlinks lead to (the link is kept).
	Target string `json:"target,omitempty"`
	// CreatedDirs are the folders install created for the file (such as
	// ~/.claude), deepest first: removed again once empty.
	CreatedDirs []string `json:"created_dirs,omitempty"`
}

func statePath(home string) string { return filepath.Join(home, "installed.json") }

func loadState(home string) state {
	st := state{Settings: map[string]settingsState{}}
	if b, err := os.ReadFile(statePath(home)); err == nil {
		json.Unmarshal(b, &st)
		if st.Settings == nil {
			st.Settings = map[string]settingsState{}
		}
	}
	return st
}

func saveState(home string, st state) error {
	b, _ := json.MarshalIndent(st, "", "  ")
	return writeAtomic(statePath(home), append(b, '\n'), 0o600)
}
