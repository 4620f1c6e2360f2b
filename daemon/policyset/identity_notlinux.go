//go:build !linux

package policyset

import (
	"os"
	"strings"
)

// ownCmdline is this process's command line: ps shows the arguments it
// was started with.
func ownCmdline() string { return strings.Join(os.Args, " ") }

// ownCgroup: cgroups are Linux's.
func ownCgroup() string { return "" }
