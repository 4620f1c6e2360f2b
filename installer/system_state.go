package installer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
)

func loadSystemState(home string) systemState {
	if st := loadState(home); st.System != nil {
		return *st.System
	}
	return systemState{}
}

func saveSystemState(home string, sst systemState) error {
	st := loadState(home)
	st.System = &sst
	return saveState(home, st)
}

// systemLinkPath puts the agentjail command on every user's PATH.
const systemLinkPath = "/usr/local/bin/agentjail"

// linkSystemCommand links systemLinkPath to the installed agentjail,
// unless something not ours is there; it reports whether it made it.
func linkSystemCommand(sys paths.SystemLayout) (bool, error) {
	target := sys.Agentjail()
	if cur, err := os.Readlink(systemLinkPath); err == nil {
		if cur == target {
			return false, nil
		}
		return false, fmt.Errorf("it links to %s, not agentjail's", cur)
	}
	if _, err := os.Lstat(systemLinkPath); err == nil {
		return false, errors.New("it is not agentjail's link")
	}
	if err := os.MkdirAll(filepath.Dir(systemLinkPath), 0o755); err != nil {
		return false, err
	}
	return true, os.Symlink(target, systemLinkPath)
}

// removeUserInstall removes the user-mode install of the user name (the
// user who ran sudo): their hooks, their daemon and its service. It runs
// the new agentjail's own uninstall as that user, so their files stay
// theirs; a user with no install is left as they are.
func removeUserInstall(ctx context.Context, o Options, name string) {
	u, err := user.Lookup(name)
	if err != nil {
		return
	}
	if _, err := os.Stat(filepath.Join(u.HomeDir, ".agentjail")); err != nil {
		return
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, paths.System().Agentjail(), "uninstall")
	cmd.Dir = u.HomeDir
	// AGENTJAIL_HOME names the user-mode install: without it, uninstall
	// sees system mode in force and refuses (cli's systemInForce).
	cmd.Env = []string{"HOME=" + u.HomeDir, "USER=" + name, "LOGNAME=" + name, "PATH=/usr/local/bin:/usr/bin:/bin",
		"XDG_RUNTIME_DIR=/run/user/" + u.Uid, "AGENTJAIL_HOME=" + filepath.Join(u.HomeDir, ".agentjail")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	outb, err := cmd.CombinedOutput()
	if err != nil {
		fmt.Fprintf(o.Out, "removing %s's own install did not finish (%v); run `AGENTJAIL_HOME=~/.agentjail agentjail uninstall` as %s:\n%s", name, err, name, outb)
		return
	}
	fmt.Fprintf(o.Out, "removed %s's own (user-mode) install: the system daemon guards them now\n", name)
}

// stopDetachedAndWait stops a detached system daemon and waits (up to
// five seconds) until its process is gone, not only its lock: the
// service user can only be removed once nothing runs as it.
func stopDetachedAndWait(socket string) {
	pid := lockHolder(socket)
	stopDetached(ServiceOptions{Socket: socket})
	for deadline := time.Now().Add(5 * time.Second); pid > 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
	}
}

// systemLogFile is the detached system daemon's own log.
func systemLogFile(sys paths.SystemLayout) string { return sys.DaemonLog() }

// removeCreated removes what install made, deepest first; a folder only
// once empty, a file only if it is still a regular file or our link.
func removeCreated(created []string) {
	for i := len(created) - 1; i >= 0; i-- {
		p := created[i]
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			os.Remove(p) // a folder goes only when empty
			_ = fi
		}
	}
}
