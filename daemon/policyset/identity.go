package policyset

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/service"
)

// identity is what this process is to the policies (input.agentjail.daemon),
// read again at every load: its parent changes when whoever started it
// exits, and it is cheap (a few system calls and one small file).
var identity atomic.Pointer[input.Daemon]

// serving is set once this process is the daemon (Options.Serving): only
// then is its own command line one a pattern could find it by. `agentjail
// try --offline` must decide as the daemon would, not by its own
// arguments.
var serving atomic.Bool

// ownIdentity is the current identity, read once if no load has read it.
func ownIdentity() *input.Daemon {
	if id := identity.Load(); id != nil {
		return id
	}
	return refreshIdentity()
}

// refreshIdentity reads this process's identity and keeps it.
func refreshIdentity() *input.Daemon {
	real := ""
	if serving.Load() {
		real = ownCmdline()
	}
	id := &input.Daemon{PID: daemonPID, PPID: os.Getppid(), Cmdlines: daemonCmdlines(real)}
	id.PGID, id.SID = processGroup()
	id.Cgroup = ownCgroup()
	identity.Store(id)
	return id
}

// daemonCmdlines are the command lines a pattern may be matched against
// to find this daemon: the real one, and the ones it is started with by
// the installers (systemd's ExecStart and launchd's ProgramArguments run
// `PATH run`) and by the hook (service.DetachedArgs), for its own
// executable and for the bare name.
func daemonCmdlines(real string) []string {
	out := []string{}
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	add(real)
	exes := []string{"agentjail"}
	if exe, err := os.Executable(); err == nil {
		exes = append(exes, exe)
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exes = append(exes, resolved)
		}
	}
	if len(os.Args) > 0 && serving.Load() {
		exes = append(exes, os.Args[0])
	}
	for _, exe := range exes {
		add(exe + " run")
		add(exe + " " + strings.Join(service.DetachedArgs, " "))
	}
	return out
}
