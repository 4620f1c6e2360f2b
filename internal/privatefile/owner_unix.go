//go:build unix

package privatefile

import (
	"io/fs"
	"syscall"
)

// Owner is the uid that owns the file fi describes; false where the
// system does not say.
func Owner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// NoFollow makes os.OpenFile refuse a symlink in the last part of the
// path: files in agentjail's home are opened with it, so one planted there
// cannot redirect a write.
const NoFollow = syscall.O_NOFOLLOW

// nonBlock keeps an open from waiting on a FIFO planted in our home.
const nonBlock = syscall.O_NONBLOCK
