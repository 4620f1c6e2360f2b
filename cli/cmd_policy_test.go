package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/policies"
)

// policy export writes the pack into a new or empty folder, and refuses
// every folder where it could overwrite a file or load the pack twice,
// changing nothing there.
func TestPolicyExport(t *testing.T) {
	home := throwawayHome(t)
	policiesDir := filepath.Join(home, ".agentjail", "policies")
	extra := filepath.Join(home, "team-policies")
	os.MkdirAll(policiesDir, 0o700)
	os.MkdirAll(extra, 0o700)
	os.WriteFile(filepath.Join(home, ".agentjail", "config.yaml"), []byte("policy_dirs: ["+extra+"]\n"), 0o600)
	full := filepath.Join(home, "full")
	os.MkdirAll(full, 0o700)
	os.WriteFile(filepath.Join(full, "lib.rego"), []byte("mine"), 0o600)
	file := filepath.Join(home, "a-file")
	os.WriteFile(file, []byte("mine"), 0o600)
	link := filepath.Join(home, "link")
	os.Symlink(policiesDir, link)

	tests := []struct {
		name, dir string
		code      int
		want      string
	}{
		{"the policies folder", policiesDir, ExitUsage, "is a folder agentjail loads policies from"},
		{"a link to it", link, ExitUsage, "is a folder agentjail loads policies from"},
		{"a policy_dirs folder", extra, ExitUsage, "is a folder agentjail loads policies from"},
		{"a folder with a file", full, ExitUsage, "is not empty"},
		{"a file", file, ExitUsage, "is not a folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, "policy", "export", tt.dir)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d (want %d), stderr %q, want %q", code, tt.code, errOut, tt.want)
			}
		})
	}
	if entries, _ := os.ReadDir(policiesDir); len(entries) != 0 {
		t.Errorf("the policies folder was written: %v", entries)
	}
	if b, _ := os.ReadFile(filepath.Join(full, "lib.rego")); string(b) != "mine" {
		t.Errorf("a user's file was overwritten: %q", b)
	}

	pack, err := policyset.PackSources(policies.FS, false)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(home, "pack", "new")
	stdout, errOut, code := runCLI(t, "policy", "export", out)
	entries, _ := os.ReadDir(out)
	if code != 0 || len(entries) != len(pack)+1 || !strings.Contains(stdout, "opa test --v0-compatible "+policiesDir+" "+out) {
		t.Fatalf("exit %d, %d files for a pack of %d, stdout %q, stderr %q", code, len(entries), len(pack), stdout, errOut)
	}
	// The agents' facts, as plain opa test loads them: data.agentjail.agents.
	var agentsDoc struct{ Folders []string }
	if b, err := os.ReadFile(filepath.Join(out, "agentjail", "agents", "data.json")); err != nil || json.Unmarshal(b, &agentsDoc) != nil || !slices.Contains(agentsDoc.Folders, ".claude") {
		t.Errorf("agentjail/agents/data.json: %v, folders %v", err, agentsDoc.Folders)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(out, e.Name()))
		if !strings.Contains(string(b), "\nimport rego.v1\n") || strings.HasSuffix(e.Name(), "_test.rego") {
			t.Errorf("%s: a test, or without import rego.v1", e.Name())
		}
	}
	if _, errOut, code := runCLI(t, "policy", "export", out); code != ExitUsage || !strings.Contains(errOut, "is not empty") {
		t.Errorf("a second export into the same folder: exit %d, %q", code, errOut)
	}
}
