package version

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	Version, Commit, Date = "", "", ""
	if got := Get().Version; got != "dev" {
		t.Errorf("a test binary's version = %q, want dev (go test has no module version)", got)
	}
	Version, Commit, Date = "1.2.0", "0123456789abcdef0123", "2026-12-03T10:00:00Z"
	defer func() { Version, Commit, Date = "", "", "" }()
	got := Line("agentjail")
	if !strings.HasPrefix(got, "agentjail 1.2.0 (commit 0123456789ab, built 2026-12-03T10:00:00Z, go") {
		t.Errorf("Line = %q", got)
	}
}
