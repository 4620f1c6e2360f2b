//go:build unix

package service

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/agentjail/agentjail/internal/privatefile"
)

// StartDetached starts the daemon binary agentjail as a detached daemon
// for home (see DetachedArgs): a new session, so it outlives whoever
// started it and no terminal or agent signal reaches it; stdin from
// /dev/null and output appended to log (never through a symlink); no
// other descriptor inherited (Go opens every file close-on-exec). It
// returns once the process has started.
func StartDetached(agentjail, home, log string) error {
	out, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE|privatefile.NoFollow, 0o600)
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := exec.Command(agentjail, DetachedArgs...)
	cmd.Env = append(os.Environ(), "AGENTJAIL_HOME="+home, "AGENTJAIL_MODE="+ModeDetached)
	cmd.Dir = "/" // hold no project folder open
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s run: %w", agentjail, err)
	}
	return cmd.Process.Release()
}
