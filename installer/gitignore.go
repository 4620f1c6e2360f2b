package installer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// With --scope project, install writes into the project only Claude
// Code's .claude/settings.local.json (and, when one was there, its
// backup beside it). Both are personal: the hook command holds this
// user's home path, which means nothing on a teammate's machine. They
// belong out of the repository; the team's committed .claude/settings.json
// is never written. gitAdvice checks that git ignores them and, where it
// would not, says what to add.

// personalProjectFiles are the files of the project, relative to it,
// that an install with --scope project writes or has written.
func personalProjectFiles(o Options) []string {
	var out []string
	local := o.SettingsPath()
	for _, p := range []string{local, local + backupSuffix} {
		if rel, err := filepath.Rel(o.ProjectDir, p); err == nil && !strings.HasPrefix(rel, "..") {
			if _, err := os.Lstat(p); err == nil || p == local {
				out = append(out, filepath.ToSlash(rel))
			}
		}
	}
	return out
}

// gitAdvice says whether git keeps the project's personal files out of
// commits. Outside a git work tree, or without git, there is nothing to
// check and it says nothing.
func gitAdvice(ctx context.Context, o Options, out io.Writer) {
	if o.Scope != "project" {
		return
	}
	files := personalProjectFiles(o)
	var committed []string
	for _, f := range files {
		ignored, err := gitIgnores(ctx, o.ProjectDir, f)
		if err != nil {
			return // not a git work tree, or no git: nothing to commit it
		}
		if !ignored {
			committed = append(committed, f)
		}
	}
	if len(committed) == 0 {
		fmt.Fprintf(out, "git ignores %s: personal (the hook holds your home's path), it stays out of commits; the team's .claude/settings.json is not written\n", strings.Join(files, " and "))
		return
	}
	fmt.Fprintf(out, "warning: git would commit %s, which is personal (the hook holds your home's path) and belongs out of the repository; add these lines to %s (or to %s, to keep the rule to yourself):\n",
		strings.Join(committed, " and "), filepath.Join(o.ProjectDir, ".gitignore"), filepath.Join(o.ProjectDir, ".git", "info", "exclude"))
	for _, f := range committed {
		fmt.Fprintf(out, "  %s\n", f)
	}
}

// gitIgnores reports whether git ignores the path rel of the work tree
// at dir. A file git already tracks is not ignored: it is committed.
func gitIgnores(ctx context.Context, dir, rel string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "check-ignore", "-q", "--", rel)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return false, nil
	}
	return false, fmt.Errorf("git check-ignore in %s: %w", dir, err)
}
