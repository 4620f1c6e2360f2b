package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	bundle := `{"type": "bundle", "objects": [
	 {"type": "x-mitre-collection", "x_mitre_version": "18.1"},
	 {"type": "attack-pattern", "name": "Unix  Shell", "x_mitre_platforms": ["macOS", "Linux"],
	  "kill_chain_phases": [{"kill_chain_name": "mitre-attack", "phase_name": "execution"}],
	  "external_references": [{"source_name": "mitre-attack", "external_id": "T1059.004"}]},
	 {"type": "attack-pattern", "name": "Old", "revoked": true,
	  "external_references": [{"source_name": "mitre-attack", "external_id": "T1000"}]},
	 {"type": "attack-pattern", "name": "Older", "x_mitre_deprecated": true,
	  "external_references": [{"source_name": "mitre-attack", "external_id": "T1001"}]},
	 {"type": "attack-pattern", "name": "Credentials In Files", "x_mitre_platforms": ["Linux"],
	  "kill_chain_phases": [{"kill_chain_name": "mitre-attack", "phase_name": "credential-access"}],
	  "external_references": [{"source_name": "mitre-attack", "external_id": "T1552.001"}]}
	]}`
	if err := os.WriteFile(filepath.Join(dir, "b.json"), []byte(bundle), 0o600); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(&out, "", []string{dir}); err != nil {
		t.Fatal(err)
	}
	want := "# MITRE ATT&CK Enterprise v18.1: id, name, platforms, tactics (tools/mkattack)\n" +
		"T1059.004\tUnix Shell\tLinux,macOS\texecution\n" +
		"T1552.001\tCredentials In Files\tLinux\tcredential-access\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}
