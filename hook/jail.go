package hook

import (
	"fmt"
	"io"
	"os"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/internal/jail"
	"github.com/agentjail/agentjail/internal/wire"
)

// JailArg is the hook's first argument when it runs as the launcher of a
// confined call: agentjail-hook jail PROFILE COMMAND.
const JailArg = jail.LaunchArg

// launchJailed is the launcher: it confines itself by the profile and
// becomes the shell running the command. It returns only when it cannot,
// and then the command does not run.
func launchJailed(args []string, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintf(stderr, "agentjail: usage: agentjail-hook %s PROFILE COMMAND (the hook writes this line; it is not typed)\n", JailArg)
		return jail.ExitCannotConfine
	}
	err := jail.Launch(args[0], args[1])
	fmt.Fprintf(stderr, "agentjail: this call was not run because it could not be confined: %v\n", err)
	return jail.ExitCannotConfine
}

// confined is ans for a call the daemon gave a profile, rewritten so
// that the agent runs its command under the launcher; ans itself when
// the agent cannot rewrite a call (it is judged, not confined) or the
// hook cannot name itself.
func confined(a agent.Adapter, event map[string]any, d *wire.Decision, ans agent.Answer) agent.Answer {
	c, ok := a.(agent.Confiner)
	if !ok || d.Jail == "" {
		return ans
	}
	self, err := os.Executable()
	if err != nil {
		return ans
	}
	wrap := func(command string) string { return jail.Command(self, d.Jail, command) }
	if rewritten, ok := c.Confine(event, d, wrap); ok {
		return rewritten
	}
	return ans
}
