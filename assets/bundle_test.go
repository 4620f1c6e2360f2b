package assets

import (
	"os"
	"testing"

	"howett.net/plist"
)

func TestInfoPlist(t *testing.T) {
	b, err := os.ReadFile("Info.plist")
	if err != nil {
		t.Fatal(err)
	}
	var info map[string]any
	if _, err := plist.Unmarshal(b, &info); err != nil {
		t.Fatalf("Info.plist does not parse: %v", err)
	}
	for key, want := range map[string]any{
		"CFBundleIdentifier":         "dev.agentjail.AgentJail",
		"CFBundleName":               "AgentJail",
		"CFBundleExecutable":         "agentjail",
		"CFBundlePackageType":        "APPL",
		"CFBundleIconFile":           "AppIcon",
		"CFBundleShortVersionString": "__VERSION__", // filled by `make app`
		"CFBundleVersion":            "__VERSION__",
		"LSMinimumSystemVersion":     "12.0",
		"LSUIElement":                true,
	} {
		if info[key] != want {
			t.Errorf("%s = %#v, want %#v", key, info[key], want)
		}
	}
	icns, err := os.ReadFile("AppIcon.icns")
	if err != nil || len(icns) < 8 || string(icns[:4]) != "icns" {
		t.Errorf("AppIcon.icns is missing or not an icns file")
	}
}
