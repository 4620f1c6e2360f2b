package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// status says when the installed hook is another version than the
// daemon, and nothing when they agree or no hook is installed.
func TestHookVersionProblem(t *testing.T) {
	home := t.TempDir()
	t.Setenv("AGENTJAIL_HOME", home)
	ctx := context.Background()
	if p := hookVersionProblem(ctx, false, "1.2.0"); p != nil {
		t.Errorf("no hook installed: %+v", p)
	}
	hook := filepath.Join(home, "bin", "agentjail-hook")
	os.MkdirAll(filepath.Dir(hook), 0o700)
	os.WriteFile(hook, []byte("#!/bin/sh\necho 'agentjail-hook 1.1.0 (commit 0123456789ab, go1.26.8, linux/amd64)'\n"), 0o700)
	p := hookVersionProblem(ctx, false, "1.2.0")
	if p == nil || p.Kind != "version" || !strings.Contains(p.Message, "1.1.0") || !strings.Contains(p.Message, "1.2.0") || !strings.Contains(p.Fix, "agentjail install") {
		t.Errorf("a 1.1.0 hook beside a 1.2.0 daemon: %+v", p)
	}
	if p := hookVersionProblem(ctx, false, "1.1.0"); p != nil {
		t.Errorf("the same version: %+v", p)
	}
	os.WriteFile(hook, []byte("#!/bin/sh\nexit 3\n"), 0o700)
	if p := hookVersionProblem(ctx, false, "1.1.0"); p == nil || !strings.Contains(p.Message, "unknown") {
		t.Errorf("a hook that does not say its version: %+v", p)
	}
}
