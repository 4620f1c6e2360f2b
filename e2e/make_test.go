package e2e

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// makeDry prints what make would run for a target on a system (UNAME_S
// stands in for uname -s), without running it.
func makeDry(t *testing.T, args ...string) string {
	t.Helper()
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make is not installed")
	}
	out, err := exec.Command(mk, append([]string{"-C", "..", "-n"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("make -n %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// buildLines are the go build commands of a recipe that build pkg.
func buildLines(out, pkg string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, " build ") && slices.Contains(strings.Fields(l), pkg) {
			lines = append(lines, l)
		}
	}
	return lines
}

func TestMakeRecipesPerPlatform(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		agentjail string // CGO_ENABLED=… for ./cmd/agentjail
		hook      string // and for ./cmd/agentjail-hook
		want      []string
		wantNot   []string
	}{
		{name: "build on macOS", args: []string{"build", "UNAME_S=Darwin"}, agentjail: "CGO_ENABLED=1", hook: "CGO_ENABLED=0"},
		{name: "build on Linux", args: []string{"build", "UNAME_S=Linux"}, agentjail: "CGO_ENABLED=0", hook: "CGO_ENABLED=0"},
		{
			name: "app on macOS", args: []string{"app", "UNAME_S=Darwin"}, agentjail: "CGO_ENABLED=1", hook: "CGO_ENABLED=0",
			want:    []string{"AgentJail.app/Contents/MacOS/", "assets/Info.plist > AgentJail.app/Contents/Info.plist", "AppIcon.icns AgentJail.app/Contents/Resources/"},
			wantNot: []string{"codesign", "tray-less"},
		},
		{
			name: "app on macOS, signed", args: []string{"app", "UNAME_S=Darwin", "CODESIGN_IDENTITY=Developer ID Application: Dev (ABC)"}, agentjail: "CGO_ENABLED=1", hook: "CGO_ENABLED=0",
			want: []string{`codesign --force --options runtime --sign "Developer ID Application: Dev (ABC)" AgentJail.app`},
		},
		{
			name: "install on macOS installs from the app", args: []string{"install", "UNAME_S=Darwin"}, agentjail: "CGO_ENABLED=1", hook: "CGO_ENABLED=0",
			want: []string{"AgentJail.app/Contents/MacOS/agentjail install"},
		},
		{
			name: "install on Linux", args: []string{"install", "UNAME_S=Linux"}, agentjail: "CGO_ENABLED=0", hook: "CGO_ENABLED=0",
			want: []string{"bin/agentjail install"}, wantNot: []string{"AgentJail.app"},
		},
		{
			name: "tray-less app on Linux when asked", args: []string{"app", "UNAME_S=Linux", "TRAYLESS=1"}, agentjail: "CGO_ENABLED=0", hook: "CGO_ENABLED=0",
			want:    []string{"WITHOUT the menu bar", "AgentJail-trayless.app/Contents/MacOS/", "AgentJail (tray-less)", "GOOS=darwin"},
			wantNot: []string{"rm -rf AgentJail.app", "-o AgentJail.app/"},
		},
		{
			name: "test vets and builds for darwin without cgo", args: []string{"test", "UNAME_S=Linux"},
			want: []string{"GOOS=darwin CGO_ENABLED=0 go vet ./...", "GOOS=darwin CGO_ENABLED=0 go build -o /dev/null ./...",
				"AGENTJAIL_ATTACK_FIGURES=", "grep -E '^attacks(:|\\[)' bin/attack-figures.txt"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := makeDry(t, tt.args...)
			for pkg, want := range map[string]string{"./cmd/agentjail": tt.agentjail, "./cmd/agentjail-hook": tt.hook} {
				if want == "" {
					continue
				}
				lines := buildLines(out, pkg)
				if len(lines) == 0 {
					t.Errorf("no build of %s in:\n%s", pkg, out)
				}
				for _, l := range lines {
					if !strings.Contains(l, want) {
						t.Errorf("%s is built without %s: %s", pkg, want, l)
					}
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in:\n%s", w, out)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(out, w) {
					t.Errorf("unexpected %q in:\n%s", w, out)
				}
			}
		})
	}
}

// On Linux, make app refuses: it cannot link Cocoa, and a bundle without
// the menu bar must never pass for the real one.
func TestMakeAppRefusesOffMac(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	dry := makeDry(t, "app", "UNAME_S=Linux")
	if strings.Contains(dry, "go build") {
		t.Errorf("make -n app on Linux would build:\n%s", dry)
	}
	cmd := exec.Command("make", "-C", "..", "--no-print-directory", "app", "UNAME_S=Linux")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("make app on Linux did not fail: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "must be built on a Mac") || !strings.Contains(string(out), "TRAYLESS=1") {
		t.Errorf("make app on Linux says:\n%s", out)
	}
	if strings.Contains(string(out), "go build") {
		t.Errorf("make app on Linux built something:\n%s", out)
	}
}

// The darwin build with cgo links the systray tray (Cocoa); without cgo
// it gets the tray-less stand-in.
func TestDarwinTrayFileSets(t *testing.T) {
	tests := []struct {
		name    string
		cgo     string
		want    []string
		wantNot []string
	}{
		{"darwin with cgo has the menu bar", "1", []string{"tray_systray.go", "tray_darwin.go"}, []string{"tray_none.go"}},
		{"darwin without cgo has none", "0", []string{"tray_none.go"}, []string{"tray_systray.go", "tray_darwin.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("go", "list", "-f", "{{join .GoFiles \" \"}}", "../app")
			cmd.Env = append(cmd.Environ(), "GOOS=darwin", "GOARCH=arm64", "CGO_ENABLED="+tt.cgo)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go list: %v\n%s", err, out)
			}
			files := strings.Fields(string(out))
			for _, f := range tt.want {
				if !slices.Contains(files, f) {
					t.Errorf("%s missing from %v", f, files)
				}
			}
			for _, f := range tt.wantNot {
				if slices.Contains(files, f) {
					t.Errorf("%s in %v", f, files)
				}
			}
		})
	}
}
