//go:build unix

package realpath

import (
	"io/fs"
	"syscall"
)

func fileID(fi fs.FileInfo) (ID, uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ID{}, 0, false
	}
	return ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, uint64(st.Nlink), true //nolint:unconvert // Dev is int32 on darwin
}
