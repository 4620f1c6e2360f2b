package installer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// maxLinks bounds a chain of symlinks, as the kernel does (ELOOP).
const maxLinks = 40

// resolveLink follows path's symlinks to the file they lead to, which
// need not exist yet (a dotfiles manager may link to a file it has not
// written). A path that is no link comes back as it is. Install and
// uninstall write there, so the link stays a link: a dotfiles manager's
// ~/.claude/settings.json -> ~/dotfiles/claude/settings.json keeps
// pointing at the user's repository.
func resolveLink(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("%s: more than %d symlinks in a row (a loop?); point it at a file and run install again", path, maxLinks)
}

// checkWritable refuses a settings file its owner made read-only:
// replacing it (a rename needs only the folder to be writable) would undo
// a choice the user made on purpose, maybe to stop tools editing it.
func checkWritable(path string, fi fs.FileInfo) error {
	if fi.Mode().Perm()&0o200 != 0 {
		return nil
	}
	return fmt.Errorf("%s is read-only (mode %04o), so agentjail leaves it as it is: make it writable (chmod u+w %s) and run this again, or edit it yourself",
		path, fi.Mode().Perm(), quoteArg(path))
}

// missingDirs lists the folders MkdirAll(dir) would create, deepest
// first, so they can be removed in that order once empty.
func missingDirs(dir string) []string {
	var out []string
	for {
		if _, err := os.Lstat(dir); err == nil {
			return out
		}
		out = append(out, dir)
		parent := filepath.Dir(dir)
		if parent == dir {
			return out
		}
		dir = parent
	}
}

// removeEmptyDirs removes each folder (deepest first) that is empty;
// a folder something else now uses stays.
func removeEmptyDirs(dirs []string) []string {
	var removed []string
	for _, d := range dirs {
		if os.Remove(d) == nil { // fails unless empty
			removed = append(removed, d)
		}
	}
	return removed
}
