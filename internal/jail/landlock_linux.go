//go:build linux

package jail

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The rights each Landlock ABI handles.
func handledBy(abi int) Access {
	h := Execute | WriteFile | ReadFile | ReadDir | removeAny | makeAny
	if abi >= 2 {
		h |= Refer
	}
	if abi >= 3 {
		h |= Truncate
	}
	if abi >= 5 {
		h |= IoctlDev
	}
	return h
}

// landlockABI is the running kernel's Landlock ABI, 0 without Landlock
// (not built in, or not among the enabled security modules).
func landlockABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// Probe says what confinement this kernel gives a call.
func Probe() Support {
	abi := landlockABI()
	if abi < 1 {
		return Support{Off: "this kernel has no Landlock (it needs Linux 5.13 or later with landlock among its security modules, lsm=...,landlock)"}
	}
	return Support{Mechanism: "landlock", ABI: abi, Scoped: abi >= 6}
}

// rulesetAttr is struct landlock_ruleset_attr up to the scoped field
// (ABI 6); older kernels are given the part they know.
type rulesetAttr struct {
	handledFS  uint64
	handledNet uint64
	scoped     uint64
}

// restrict confines the calling thread (and what it executes) to rules.
// The caller has locked its OS thread and executes right after: Landlock
// binds the thread that asks, and execve keeps that thread's domain.
func restrict(rules []Rule, abi int) error {
	handled := handledBy(abi)
	attr := rulesetAttr{handledFS: uint64(handled)}
	size := unsafe.Sizeof(uint64(0)) * 2
	if abi >= 6 {
		// No signal to a process outside the jail (the daemon, the
		// agent, the tray), no abstract socket made outside it (the
		// daemon's approvals channel).
		attr.scoped = unix.LANDLOCK_SCOPE_SIGNAL | unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
		size = unsafe.Sizeof(attr)
	}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_create_ruleset: %w", errno)
	}
	ruleset := int(fd)
	defer unix.Close(ruleset)
	for _, r := range rules {
		access := r.Access & handled
		if access == 0 {
			continue
		}
		if err := addRule(ruleset, r.Path, access); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(no_new_privs): %w", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", errno)
	}
	return nil
}

func addRule(ruleset int, path string, access Access) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		// Gone since the plan, or not ours to open: it gets no rights,
		// which only denies more.
		return nil
	}
	defer unix.Close(fd)
	attr := unix.LandlockPathBeneathAttr{Allowed_access: uint64(access), Parent_fd: int32(fd)}
	// The kernel's struct is packed: 12 bytes, not Go's 16.
	_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_add_rule %s: %w", path, errno)
	}
	return nil
}

// Confine applies p to the calling goroutine's thread, which stays
// locked: the caller's next step must be to execute the program to run.
func Confine(p Profile) error {
	s := Probe()
	if s.Off != "" {
		return fmt.Errorf("cannot confine: %s", s.Off)
	}
	runtime.LockOSThread()
	return restrict(Plan(p), s.ABI)
}

func launch(p Profile, shell, command string) error {
	if len(p.Hide) > 0 || p.Apart {
		if err := enterHidden(p.Hide); err != nil {
			return err
		}
	}
	if err := Confine(p); err != nil {
		return err
	}
	return execShell(shell, command)
}
