//go:build !unix

package wire

import "io/fs"

func ownerOf(fs.FileInfo) (int, bool) { return 0, false }

// NoFollow is not available here.
const NoFollow = 0

// nonBlock is not needed here.
const nonBlock = 0
