//go:build linux

package jail

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Landlock rules pathname sockets only from a newer ABI than today's
// kernels have, so a confined call could still connect to the session
// bus and, through it, click the menu bar's items or a notification
// server's buttons (dunstctl, makoctl). The launcher covers the bus in a
// mount namespace of the call's own, made in a user namespace so that no
// privilege is needed: /dev/null is bound over each hidden socket, and
// Landlock then keeps the call from unmounting it (a confined process
// may not change the mounts it sees).
//
// Go cannot unshare a user namespace from its running, threaded process,
// so the launcher starts itself again inside new namespaces (the inner
// stage), waits for it and passes its exit status on.

// stageEnv marks the inner stage. Setting it on an outer launcher only
// makes that launcher try to mount without the privilege to, so the call
// fails closed: it can never skip the hiding.
const stageEnv = "AGENTJAIL_JAIL_STAGE"

const stageInner = "inner"

// CanHide reports whether this system lets the launcher hide sockets
// from a call, and why not when it does not. forUsers asks for launchers
// run by other, unprivileged users (a system daemon's, which runs as
// root): only the system's settings are read for them.
func CanHide(forUsers bool) (bool, string) {
	if forUsers || os.Getuid() != 0 {
		for _, s := range []struct{ file, off, why string }{
			{"/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1", "AppArmor keeps unprivileged user namespaces from mounting (kernel.apparmor_restrict_unprivileged_userns=1)"},
			{"/proc/sys/kernel/unprivileged_userns_clone", "0", "unprivileged user namespaces are off (kernel.unprivileged_userns_clone=0)"},
			{"/proc/sys/user/max_user_namespaces", "0", "user namespaces are off (user.max_user_namespaces=0)"},
		} {
			if b, err := os.ReadFile(s.file); err == nil && strings.TrimSpace(string(b)) == s.off {
				return false, s.why
			}
		}
	}
	probe := exec.Command("/bin/sh", "-c", ":")
	probe.SysProcAttr = namespaces()
	if err := probe.Run(); err != nil {
		return false, "this system refuses a user namespace (" + err.Error() + ")"
	}
	return true, ""
}

// namespaces are the new user and mount namespaces of the inner stage,
// with this user's own ids mapped (all of them for root).
func namespaces() *syscall.SysProcAttr {
	uid, gid := os.Getuid(), os.Getgid()
	a := &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		// The inner stage runs as the user, not as root of its
		// namespace, and so keeps the right to mount only as an ambient
		// capability, which it clears before it runs the command.
		AmbientCaps: []uintptr{unix.CAP_SYS_ADMIN},
		// The inner stage dies with the launcher that waits for it.
		Pdeathsig: syscall.SIGKILL,
	}
	if uid == 0 {
		// Root may map every id: files keep their owners' names.
		all := []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 2}}
		a.UidMappings, a.GidMappings = all, all
		a.GidMappingsEnableSetgroups = true
		a.AmbientCaps = nil
	}
	return a
}

// enterHidden makes sure the sockets are hidden from this process before
// it is confined: in the inner stage it covers them; in the outer one it
// runs the inner stage and exits with its status (it returns only on
// failure, before the command ran).
func enterHidden(sockets []string) error {
	if os.Getenv(stageEnv) == stageInner {
		os.Unsetenv(stageEnv)
		if initialUserNamespace() {
			// Forged: mounts made here would be the whole system's.
			return fmt.Errorf("cannot hide the session bus: %s is set outside a namespace of the launcher's", stageEnv)
		}
		if err := hideSockets(sockets); err != nil {
			return err
		}
		if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
			return fmt.Errorf("cannot hide the session bus: clear the ambient capabilities: %w", err)
		}
		return nil
	}
	return runInner()
}

// initialUserNamespace reports whether this process is in the system's
// own user namespace, whose map is the whole range (the inner stage's
// maps one id, or for root one fewer than all).
func initialUserNamespace() bool {
	b, err := os.ReadFile("/proc/self/uid_map")
	return err != nil || strings.Join(strings.Fields(string(b)), " ") == "0 0 4294967295"
}

func hideSockets(sockets []string) error {
	// Nothing bound here may reach the mounts of the rest of the system.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("cannot hide the session bus: make mounts private: %w", err)
	}
	for _, s := range sockets {
		real, err := filepath.EvalSymlinks(s)
		if errors.Is(err, os.ErrNotExist) {
			continue // not there: nothing to reach
		}
		if err != nil {
			return fmt.Errorf("cannot hide %s: %w", s, err)
		}
		fi, err := os.Lstat(real)
		if err != nil {
			return fmt.Errorf("cannot hide %s: %w", s, err)
		}
		if fi.IsDir() {
			return fmt.Errorf("cannot hide %s: a folder, not a socket", s)
		}
		if err := unix.Mount("/dev/null", real, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("cannot hide %s: %w", s, err)
		}
	}
	return nil
}

// runInner runs this launcher again, with the same arguments, in new
// namespaces, and exits as it does.
func runInner() error {
	self := exec.Command("/proc/self/exe", os.Args[1:]...)
	self.Args[0] = os.Args[0]
	self.Env = append(os.Environ(), stageEnv+"="+stageInner)
	self.Stdin, self.Stdout, self.Stderr = os.Stdin, os.Stdout, os.Stderr
	self.SysProcAttr = namespaces()
	// Pdeathsig follows the thread that started the child.
	runtime.LockOSThread()
	// The terminal's signals reach the inner stage by its process group;
	// the ones sent to this launcher alone are passed on.
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTSTP)
	if err := self.Start(); err != nil {
		return fmt.Errorf("cannot hide the session bus: start in a user namespace: %w", err)
	}
	passOn := make(chan os.Signal, 4)
	signal.Notify(passOn, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		for s := range passOn {
			self.Process.Signal(s)
		}
	}()
	err := self.Wait()
	status, ok := self.ProcessState.Sys().(syscall.WaitStatus)
	if !ok {
		return fmt.Errorf("cannot hide the session bus: %v", err)
	}
	if status.Signaled() {
		// Die of the same signal, so that the agent sees what it sent.
		signal.Reset(status.Signal())
		syscall.Kill(os.Getpid(), status.Signal())
		os.Exit(128 + int(status.Signal()))
	}
	os.Exit(status.ExitStatus())
	return nil
}
