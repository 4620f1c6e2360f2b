package installer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The agentjail command goes on the user's PATH the way CLI installers
// usually put it there: a symlink in ~/.local/bin (the XDG folder for a
// user's executables, on PATH by default in most Linux distributions),
// pointing at $AGENTJAIL_HOME/bin/agentjail, so an upgrade that replaces
// the binary needs no new link.

// LinkDir is the folder of the link.
func (o Options) LinkDir() string { return filepath.Join(o.UserHome, ".local", "bin") }

// LinkPath is the link itself.
func (o Options) LinkPath() string { return filepath.Join(o.LinkDir(), "agentjail") }

// installedCommand is the binary the link points at.
func (o Options) installedCommand() string { return filepath.Join(o.binDir(), "agentjail") }

// linkState says what is at the link's place now.
type linkState int

const (
	linkMissing linkState = iota
	linkOurs              // a symlink to our binary
	linkForeign           // anything else: never ours to replace or remove
)

func (o Options) linkState() linkState {
	fi, err := os.Lstat(o.LinkPath())
	if errors.Is(err, fs.ErrNotExist) {
		return linkMissing
	}
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if dest, err := os.Readlink(o.LinkPath()); err == nil && filepath.Clean(dest) == o.installedCommand() {
			return linkOurs
		}
	}
	return linkForeign
}

// linkCommand makes the link, creating ~/.local/bin if needed, and
// returns the folders it created. A file already there that is not our
// link is left alone.
func linkCommand(o Options) (created []string, err error) {
	switch o.linkState() {
	case linkOurs:
		return nil, nil
	case linkForeign:
		fmt.Fprintf(o.Out, "left %s alone: it is not agentjail's (run %s, or remove it and run install again)\n", o.LinkPath(), o.installedCommand())
		return nil, nil
	}
	created = missingDirs(o.LinkDir())
	if err := os.MkdirAll(o.LinkDir(), 0o755); err != nil {
		return nil, fmt.Errorf("creating %s for the agentjail command: %w", o.LinkDir(), err)
	}
	if err := os.Symlink(o.installedCommand(), o.LinkPath()); err != nil {
		return created, fmt.Errorf("linking %s: %w", o.LinkPath(), err)
	}
	fmt.Fprintf(o.Out, "linked %s -> %s\n", o.LinkPath(), o.installedCommand())
	return created, nil
}

// unlinkCommand removes the link if it is ours.
func unlinkCommand(o Options, dryRun bool) {
	if o.linkState() != linkOurs {
		return
	}
	if dryRun {
		fmt.Fprintf(o.Out, "would remove %s\n", o.LinkPath())
		return
	}
	if os.Remove(o.LinkPath()) == nil {
		fmt.Fprintf(o.Out, "removed %s\n", o.LinkPath())
	}
}

// dirOnPath reports whether dir is one of the folders of a PATH value.
// Shells also accept ~ and $HOME in PATH entries people write by hand.
func dirOnPath(dir, pathEnv, userHome string) bool {
	for _, p := range filepath.SplitList(pathEnv) {
		switch {
		case strings.HasPrefix(p, "~/"):
			p = filepath.Join(userHome, p[2:])
		case strings.HasPrefix(p, "$HOME/"):
			p = filepath.Join(userHome, p[len("$HOME/"):])
		}
		if p != "" && filepath.Clean(p) == filepath.Clean(dir) {
			return true
		}
	}
	return false
}

// PathHint is what to do when ~/.local/bin is not on PATH: the exact
// line to add, for the user's shell. "" when it is on PATH.
func PathHint(dir, pathEnv, shell, userHome string) string {
	if dirOnPath(dir, pathEnv, userHome) {
		return ""
	}
	shown := dir
	if rel, err := filepath.Rel(userHome, dir); err == nil && !strings.HasPrefix(rel, "..") {
		shown = "$HOME/" + rel
	}
	switch filepath.Base(shell) {
	case "fish":
		return fmt.Sprintf("%s is not on your PATH; to add it for good, run:\n  fish_add_path %s", dir, shown)
	case "zsh":
		return fmt.Sprintf("%s is not on your PATH; add this line to ~/.zshrc, then open a new terminal:\n  export PATH=\"%s:$PATH\"", dir, shown)
	case "bash":
		return fmt.Sprintf("%s is not on your PATH; add this line to ~/.bashrc, then open a new terminal:\n  export PATH=\"%s:$PATH\"", dir, shown)
	}
	return fmt.Sprintf("%s is not on your PATH; add this line to ~/.profile (or your shell's start-up file), then log in again:\n  export PATH=\"%s:$PATH\"", dir, shown)
}
