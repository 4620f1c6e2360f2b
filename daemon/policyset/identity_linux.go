package policyset

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// ownCmdline is this process's command line as the process table shows
// it to pgrep -f and pkill -f: /proc/self/cmdline, its NUL-separated
// words joined by spaces.
func ownCmdline() string {
	b, err := os.ReadFile("/proc/self/cmdline")
	if err != nil || len(b) == 0 {
		return strings.Join(os.Args, " ")
	}
	return string(bytes.ReplaceAll(bytes.TrimRight(b, "\x00"), []byte{0}, []byte{' '}))
}

// ownCgroup is this process's cgroup v2 folder, from /proc/self/cgroup's
// "0::" line; "" where there is none.
func ownCgroup() string {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "0::"); ok && strings.HasPrefix(rest, "/") {
			return filepath.Join("/sys/fs/cgroup", rest)
		}
	}
	return ""
}
