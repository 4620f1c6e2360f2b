//go:build !unix

package privatefile

import "io/fs"

// Owner cannot tell here.
func Owner(fs.FileInfo) (int, bool) { return 0, false }

// NoFollow is not available here.
const NoFollow = 0

// nonBlock is not needed here.
const nonBlock = 0
