package policyset_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/policies"
)

// A config.yaml save that changes only settings reuses the compiled
// policies, so it is in force as soon as it is read; a change to a
// policy file, or to what the policies read (protected_paths), compiles
// again.
func TestSettingsOnlyReloadReusesThePolicies(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	cfg := filepath.Join(home, "config.yaml")
	os.WriteFile(cfg, []byte("fail_mode: open\n"), 0o600)
	d, err := policyset.New(ctx, policyset.Options{Pack: policies.FS, Home: home, UserHome: "/home/tester"})
	if err != nil {
		t.Fatal(err)
	}
	first := d.EngineOf()
	os.WriteFile(cfg, []byte("fail_mode: closed\nhook_timeout: 3s\n"), 0o600)
	if !d.Load(ctx) || d.Config().FailMode != "closed" {
		t.Fatalf("the new settings are not in force: %+v", d.Config())
	}
	if d.EngineOf() != first {
		t.Errorf("a settings-only change compiled the policies again")
	}
	os.WriteFile(cfg, []byte("fail_mode: closed\nhook_timeout: 3s\nprotected_paths: [~/secret]\n"), 0o600)
	d.Load(ctx)
	second := d.EngineOf()
	if second == first {
		t.Errorf("protected_paths changed what the policies read, but the old engine was kept")
	}
	os.MkdirAll(filepath.Join(home, "policies"), 0o700)
	os.WriteFile(filepath.Join(home, "policies", "mine.rego"), []byte("package agentjail\n\ndeny contains \"no\" if input.tool_input.command == \"x\"\n"), 0o600)
	d.Load(ctx)
	if d.EngineOf() == second {
		t.Errorf("a new policy file was not compiled")
	}
}
