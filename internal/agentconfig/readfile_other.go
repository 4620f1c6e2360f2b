//go:build !unix

package agentconfig

import "os"

// openNonblock opens path; the platforms without O_NONBLOCK have no FIFOs
// in the file system.
func openNonblock(path string) (*os.File, error) { return os.Open(path) }
