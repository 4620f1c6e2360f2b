package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's commented config.yaml loads as pasted, every key of it
// read (none left at its default by a typo).
func TestReadmeConfigExampleLoads(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- config-example -->\n```yaml\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no config example (<!-- config-example --> then a yaml block)")
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(block), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatalf("the README's config example is refused: %v\n%s", err, block)
	}
	def := Default()
	if c.FailMode != "closed" || c.HookTimeout != def.HookTimeout || len(c.ProtectedPaths) != 1 || len(c.AllowedPaths) != 1 ||
		len(c.DisabledRules) != 1 || c.DisabledRules[0] != "git.force_push" || !c.Notifications {
		t.Errorf("the README's config example read as %+v", c)
	}
}
