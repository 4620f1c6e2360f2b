// Package cli is the agentjail command: run, status, try, reload, policy
// test and version. cmd/agentjail only calls Main.
package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/agentjail/agentjail/internal/version"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// Version is this build's version (internal/version): a release's, a
// go install's module version, or "dev".
var Version = version.String()

// Exit codes of the agentjail command. (agentjail-hook has its own two:
// 0 and 2, see package hook.)
const (
	ExitOK          = 0 // success; for status: running and healthy
	ExitError       = 1 // the command failed; the message says why and what to do
	ExitUsage       = 2 // bad flags or arguments
	ExitNotRunning  = 3 // the daemon could not be reached
	ExitDegraded    = 4 // status: running, but with policy, config or evaluation errors, fail-opens, or a hook Codex would skip
	ExitTestsFailed = 5 // policy test: at least one test failed or errored
)

// exitError carries an exit code through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func exitWith(code int, format string, args ...any) error {
	return &exitError{code: code, err: fmt.Errorf(format, args...)}
}

// Main runs the command with args (without the program name) and returns
// the exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if openedAsApp(args) && inAppBundle() {
		// Opened as AgentJail.app (Finder, open, login item): be the
		// menu-bar daemon, or quit quietly if one already runs.
		args = []string{"run", "--" + openedAppFlag}
	}
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "agentjail:", ee.err)
		}
		return ee.code
	}
	// cobra's own errors are about flags and arguments.
	fmt.Fprintln(stderr, "agentjail:", err)
	fmt.Fprintln(stderr, "Run 'agentjail --help' for usage.")
	return ExitUsage
}

// openedAppFlag is `run`'s hidden flag for an app opened by hand.
const openedAppFlag = "opened-app"

// openedAsApp reports whether args are what macOS passes an app it opens:
// nothing, or a process serial number (-psn_0_12345) on older systems.
func openedAsApp(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-psn_") {
			return false
		}
	}
	return true
}

// inAppBundle reports whether this binary runs from a macOS app bundle.
func inAppBundle() bool {
	self, err := os.Executable()
	return err == nil && strings.Contains(self, ".app/Contents/MacOS/")
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "agentjail",
		Short: "A local policy guard for AI coding agents",
		Long: `agentjail checks every tool call a coding agent makes (shell commands,
file reads and writes) against Rego policies before it runs, and answers
allow, ask or deny. The agent's hook (agentjail-hook) asks the daemon
(agentjail run) over a private Unix socket.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version, as most commands have it; the same line as `version`.
		Version: Version,
	}
	root.SetVersionTemplate(versionLine() + "\n")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(
		newRunCmd(),
		newInstallCmd(),
		newUninstallCmd(),
		newStatusCmd(),
		newTryCmd(),
		newLogsCmd(),
		newAuditCmd(),
		newReloadCmd(),
		newTrayCmd(),
		newPendingCmd(),
		newApproveCmd(),
		newDenyCmd(),
		newGrantsCmd(),
		newPolicyCmd(),
		newVersionCmd(),
	)
	return root
}
