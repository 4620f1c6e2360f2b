package installer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO where an agent's settings or Codex's files should be must not
// block the check the daemon's health and status run, nor install: it is
// refused, not read (a read would wait for a writer forever).
func TestPlantedFIFOsAreNotRead(t *testing.T) {
	o := agentOptions(t, "claude-code", "codex")
	for _, p := range []string{
		filepath.Join(o.UserHome, ".claude", "settings.json"),
		filepath.Join(o.UserHome, ".codex", "hooks.json"),
		filepath.Join(o.UserHome, ".codex", "config.toml"),
	} {
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("no FIFOs here: %v", err)
		}
	}
	done := make(chan []AgentState, 1)
	go func() { done <- Agents(o) }()
	select {
	case agents := <-done:
		for _, a := range agents {
			if a.Wired {
				t.Errorf("%s is wired through a FIFO: %+v", a.Name, a)
			}
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Agents blocked on a FIFO")
	}

	errc := make(chan error, 1)
	go func() { errc <- Install(context.Background(), o) }()
	select {
	case err := <-errc:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("install through a FIFO: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("install blocked on a FIFO")
	}
}
