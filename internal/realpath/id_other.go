//go:build !unix

package realpath

import "io/fs"

// fileID: no (device, inode) here; identity falls back to names.
func fileID(fs.FileInfo) (ID, uint64, bool) { return ID{}, 0, false }
