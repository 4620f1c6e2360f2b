// Command mkpackaging writes what the release's packages and archives
// carry besides the binaries into a folder (make dist gives
// .release/): the systemd units, rendered by the same code that
// `agentjail install` uses but for a binary in /usr/bin, and the shell
// completions of `agentjail completion`.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/systemd"
)

// packagedBinary is where the .deb and .rpm put agentjail.
const packagedBinary = "/usr/bin/agentjail"

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mkpackaging DIR")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "mkpackaging:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	sys := paths.System()
	files := map[string]string{
		// A user's own unit: `agentjail install` writes one of its own in
		// ~/.config/systemd/user, which takes precedence; this one serves
		// `systemctl --user enable --now agentjail` without install.
		"systemd/user/agentjail.service": systemd.Unit(packagedBinary, "%h/"+paths.HomeName),
		// The system unit: `sudo agentjail install --system` makes the
		// service user and writes its own in /etc/systemd/system.
		"systemd/system/agentjail.service": systemd.SystemUnit(systemd.SystemOptions{
			Agentjail: packagedBinary, User: sys.ServiceUser,
			Config: sys.Config, State: sys.State, Log: sys.Log, Run: sys.Run,
		}),
	}
	for name, text := range files {
		if err := writeFile(filepath.Join(dir, name), []byte(text)); err != nil {
			return err
		}
	}
	// The completions come from the program itself (cobra), run by go
	// so that they always match the commands.
	for shell, name := range map[string]string{"bash": "agentjail.bash", "zsh": "_agentjail", "fish": "agentjail.fish"} {
		out, err := exec.Command("go", "run", "./cmd/agentjail", "completion", shell).Output()
		if err != nil {
			return fmt.Errorf("agentjail completion %s: %w", shell, err)
		}
		if err := writeFile(filepath.Join(dir, "completions", name), out); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
