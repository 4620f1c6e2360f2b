//go:build darwin

package jail

import (
	"fmt"
	"os"
	"syscall"
)

// sandboxExec is macOS's own runner of Seatbelt profiles.
const sandboxExec = "/usr/bin/sandbox-exec"

// Probe says what confinement this system gives a call.
func Probe() Support {
	if _, err := os.Stat(sandboxExec); err != nil {
		return Support{Off: sandboxExec + " is missing"}
	}
	return Support{Mechanism: "seatbelt", Scoped: true}
}

// Confine cannot bind the calling process on macOS without cgo: the
// launcher executes sandbox-exec instead (see launch).
func Confine(Profile) error {
	return fmt.Errorf("cannot confine this process on macOS: commands run under %s", sandboxExec)
}

func launch(p Profile, shell, command string) error {
	if s := Probe(); s.Off != "" {
		return fmt.Errorf("cannot confine: %s", s.Off)
	}
	argv := []string{"sandbox-exec", "-p", Seatbelt(p), shell, "-c", command}
	if err := syscall.Exec(sandboxExec, argv, os.Environ()); err != nil {
		return fmt.Errorf("run %s: %w", sandboxExec, err)
	}
	return nil
}

// CanHide: Seatbelt refuses a connection to a socket by its path.
func CanHide(bool) (bool, string) { return true, "" }
