//go:build unix

package agentconfig

import (
	"os"
	"syscall"
)

// openNonblock opens path without waiting for a writer (a FIFO) or a
// device to become ready.
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
