//go:build unix

package service

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agentjail/agentjail/internal/privatefile"
)

// lockHeld reports whether a process holds the daemon's lock at path,
// and what the daemon wrote into it. It never creates the file.
func lockHeld(path string) (held bool, h holder) {
	f, err := os.OpenFile(path, os.O_RDONLY|privatefile.NoFollow|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false, h
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false, h
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return false, h
	}
	var buf [96]byte
	n, _ := f.Read(buf[:])
	fields := strings.Fields(string(buf[:n]))
	if len(fields) > 0 {
		h.pid, _ = strconv.Atoi(fields[0])
	}
	if len(fields) > 1 {
		// RFC3339 parses the fractional seconds a daemon writes too.
		h.since, _ = time.Parse(time.RFC3339, fields[1])
	}
	if len(fields) > 2 {
		h.state = fields[2]
	}
	return true, h
}
