package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A home inside the system temp folder (a container's or a CI image's
// HOME=/tmp/home) is still a home: deleting another project of it asks,
// as it does in a home anywhere else, while scratch folders in the temp
// folder outside the home stay free to delete.
func TestHomeInsideTheTempFolder(t *testing.T) {
	e := newEnv(t)
	// The daemon's temp folder is the folder the home was made in, and
	// that folder is itself in the system's temp folder, so both ways a
	// path is temp (the configured one and /tmp) hold the home.
	tmp := filepath.Dir(e.home)
	t.Setenv("TMPDIR", tmp)
	if !strings.HasPrefix(e.home, "/tmp/") {
		t.Fatalf("the home %s is not under /tmp", e.home)
	}
	project := filepath.Join(e.home, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	e.start()
	event := func(cmd string) string {
		b, _ := json.Marshal(map[string]any{
			"session_id": "s1", "transcript_path": filepath.Join(e.home, "t.jsonl"), "cwd": project,
			"permission_mode": "default", "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": map[string]any{"command": cmd, "description": "x"},
			"tool_use_id": "toolu_1",
		})
		return string(b)
	}
	tests := []struct {
		name, command, verdict, reason string
	}{
		{"another project of the home", "rm -rf ~/src/otherproject", "ask", "~/src/otherproject is outside the project"},
		{"the same, spelled out", "rm -rf " + e.home + "/src/otherproject", "ask", "outside the project"},
		{"find -delete in the home", "find ~/Downloads -name '*.part' -delete", "ask", "outside the project"},
		{"a repository's history in the home", "rm -rf ~/src/otherproject/.git", "ask", "history"},
		{"the home itself", "rm -rf ~", "deny", "would delete"},
		{"a glob in TMPDIR that matches the home", "rm -rf " + tmp + "/*", "deny", "would delete"},
		{"find -delete over the folder that holds the home", "find " + tmp + " -name '*.log' -delete", "ask", "outside the project"},
		{"scratch in /tmp, outside the home", "rm -rf /tmp/build-123", "", ""},
		{"scratch in TMPDIR, outside the home", "rm -rf " + tmp + "/build-123", "", ""},
		{"a glob in TMPDIR that misses the home", "rm -rf " + tmp + "/build-*", "", ""},
		{"a build folder of the project", "rm -rf build", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectDecision(t, e.runIn(project, event(tt.command), "agentjail-hook"), tt.verdict, tt.reason)
		})
	}
}
