//go:build unix

package approval

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUs: the file belongs to the daemon's own user.
func ownedByUs(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
