//go:build unix

package service

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/agentjail/agentjail/internal/privatefile"
)

// lockHeld reports whether a process holds the daemon's lock at path,
// and the pid and state (wire.LockStarting, wire.LockServing, or "" from
// an older daemon) the daemon wrote into it. It never creates the file.
func lockHeld(path string) (held bool, pid int, state string) {
	f, err := os.OpenFile(path, os.O_RDONLY|privatefile.NoFollow|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false, 0, ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false, 0, ""
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return false, 0, ""
	}
	var buf [64]byte
	n, _ := f.Read(buf[:])
	fields := strings.Fields(string(buf[:n]))
	if len(fields) > 0 {
		pid, _ = strconv.Atoi(fields[0])
	}
	if len(fields) > 2 {
		state = fields[2]
	}
	return true, pid, state
}
