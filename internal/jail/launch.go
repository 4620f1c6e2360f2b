package jail

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// ExitCannotConfine is the launcher's exit code when it cannot confine
// the call it was given: the command does not run (126 is the shell's
// "found but cannot be run").
const ExitCannotConfine = 126

// shells the launcher runs a command with: the one the agent ran it with
// when that is one of these, else the user's.
var shells = map[string]bool{"bash": true, "zsh": true, "sh": true, "dash": true, "ksh": true, "mksh": true, "ash": true}

// Launch confines this process by the profile at profilePath and then
// becomes the shell running command. It returns only on failure, before
// anything of the command ran.
func Launch(profilePath, command string) error {
	p, err := Load(profilePath)
	if err != nil {
		return err
	}
	for _, dir := range p.Make {
		// Only where its folder is there: a cache folder, never a tree.
		if _, err := os.Stat(filepath.Dir(dir)); err == nil {
			os.Mkdir(dir, 0o755)
		}
	}
	for _, n := range p.Notes {
		os.Stderr.WriteString(n + "\n")
	}
	return launch(p, Shell(), command)
}

// Shell is the shell a confined command runs in: the agent's own when
// the launcher's parent is a shell (the agent ran the rewritten command
// in it), else $SHELL, else /bin/sh.
func Shell() string {
	if exe, err := os.Readlink("/proc/" + strconv.Itoa(os.Getppid()) + "/exe"); err == nil && shells[filepath.Base(exe)] {
		return exe
	}
	if s := os.Getenv("SHELL"); filepath.IsAbs(s) && shells[filepath.Base(s)] {
		return s
	}
	return "/bin/sh"
}

func execShell(shell, command string) error {
	if err := syscall.Exec(shell, []string{filepath.Base(shell), "-c", command}, os.Environ()); err != nil {
		return fmt.Errorf("run %s: %w", shell, err)
	}
	return nil
}
