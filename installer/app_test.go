package installer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"howett.net/plist"

	"github.com/agentjail/agentjail/assets"
	"github.com/agentjail/agentjail/internal/service"
	"github.com/agentjail/agentjail/launchd"
)

// fakeBinaries writes stand-ins for the two binaries into dir.
func fakeBinaries(t *testing.T, dir, tag string) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	for _, name := range Binaries {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n# "+name+" "+tag+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func readInfo(t *testing.T, app string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(app, "Contents", "Info.plist"))
	if err != nil {
		t.Fatal(err)
	}
	var info map[string]any
	if _, err := plist.Unmarshal(b, &info); err != nil {
		t.Fatalf("Info.plist does not parse: %v", err)
	}
	return info
}

func TestWriteAppAssemblesFromTheInstalledBinaries(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "home", ".agentjail", "bin")
	fakeBinaries(t, bin, "v1")
	app := AppPath(filepath.Join(root, "home"))

	wrote, err := WriteApp(app, filepath.Join(root, "checkout", "bin"), bin, "1.2.3")
	if err != nil || !wrote {
		t.Fatalf("WriteApp: %v %v", wrote, err)
	}
	info := readInfo(t, app)
	for key, want := range map[string]any{
		"CFBundleIdentifier":         BundleID,
		"CFBundleExecutable":         "agentjail",
		"CFBundleIconFile":           "AppIcon",
		"CFBundlePackageType":        "APPL",
		"CFBundleShortVersionString": "1.2.3",
		"LSUIElement":                true,
	} {
		if info[key] != want {
			t.Errorf("%s = %#v, want %#v", key, info[key], want)
		}
	}
	// CFBundleExecutable names the executable the LaunchAgent runs, and it
	// is the installed agentjail, the same build.
	exe := filepath.Join(app, "Contents", "MacOS", info["CFBundleExecutable"].(string))
	if exe != AppExecutable(app) {
		t.Errorf("executable %s, AppExecutable %s", exe, AppExecutable(app))
	}
	for _, name := range Binaries {
		got, err := os.ReadFile(filepath.Join(app, "Contents", "MacOS", name))
		want, _ := os.ReadFile(filepath.Join(bin, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s in the app differs from the installed one (%v)", name, err)
		}
	}
	if fi, err := os.Stat(exe); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("the executable is not executable: %v %v", fi, err)
	}
	icon, err := os.ReadFile(filepath.Join(app, "Contents", "Resources", info["CFBundleIconFile"].(string)+".icns"))
	if err != nil || !bytes.Equal(icon, assets.AppIconICNS) {
		t.Errorf("the icon is missing or not ours: %v", err)
	}

	// Again with the same binaries: nothing to do.
	if wrote, err := WriteApp(app, "", bin, "1.2.3"); err != nil || wrote {
		t.Errorf("second WriteApp: wrote %v, %v", wrote, err)
	}
	// A new build replaces the app's executable, and leaves no temp folder.
	fakeBinaries(t, bin, "v2")
	if wrote, err := WriteApp(app, "", bin, "1.2.4"); err != nil || !wrote {
		t.Fatalf("WriteApp after an upgrade: %v %v", wrote, err)
	}
	if got, _ := os.ReadFile(AppExecutable(app)); !strings.Contains(string(got), "v2") {
		t.Errorf("the app still runs the old build: %q", got)
	}
	if readInfo(t, app)["CFBundleVersion"] != "1.2.4" {
		t.Errorf("version not updated")
	}
	entries, _ := os.ReadDir(filepath.Dir(app))
	if len(entries) != 1 {
		t.Errorf("left beside the app: %v", entries)
	}
}

func TestWriteAppCopiesTheBundleItCameFrom(t *testing.T) {
	root := t.TempDir()
	// A bundle as `make app` leaves it, signed: the copy keeps every file.
	src := filepath.Join(root, "checkout", "AgentJail.app")
	macos := filepath.Join(src, "Contents", "MacOS")
	fakeBinaries(t, macos, "bundle")
	os.WriteFile(filepath.Join(src, "Contents", "Info.plist"), InfoPlist("9.9"), 0o644)
	os.MkdirAll(filepath.Join(src, "Contents", "_CodeSignature"), 0o755)
	os.WriteFile(filepath.Join(src, "Contents", "_CodeSignature", "CodeResources"), []byte("signature"), 0o644)

	app := AppPath(filepath.Join(root, "home"))
	if wrote, err := WriteApp(app, macos, filepath.Join(root, "home", ".agentjail", "bin"), "ignored"); err != nil || !wrote {
		t.Fatalf("WriteApp: %v %v", wrote, err)
	}
	if b, err := os.ReadFile(filepath.Join(app, "Contents", "_CodeSignature", "CodeResources")); err != nil || string(b) != "signature" {
		t.Errorf("the signature was not copied: %q %v", b, err)
	}
	if v := readInfo(t, app)["CFBundleVersion"]; v != "9.9" {
		t.Errorf("Info.plist is not the bundle's: version %v", v)
	}
	// Installing from the installed app itself (the menu's install) is a
	// no-op, not a copy onto itself.
	if wrote, err := WriteApp(app, filepath.Join(app, "Contents", "MacOS"), "", ""); err != nil || wrote {
		t.Errorf("WriteApp from itself: %v %v", wrote, err)
	}
	if !IsOurApp(app) {
		t.Errorf("the app is gone after installing from itself")
	}
}

func TestOnlyOurAppIsReplacedOrRemoved(t *testing.T) {
	foreign := func(t *testing.T, dir string) string {
		app := filepath.Join(dir, AppBundleName)
		os.MkdirAll(filepath.Join(app, "Contents"), 0o755)
		os.WriteFile(filepath.Join(app, "Contents", "Info.plist"), bytes.ReplaceAll(InfoPlist("1"), []byte(BundleID), []byte("com.example.Other")), 0o644)
		return app
	}
	tests := []struct {
		name   string
		make   func(t *testing.T, dir string) string
		ours   bool
		remove bool
	}{
		{"ours", func(t *testing.T, dir string) string {
			app := filepath.Join(dir, AppBundleName)
			bin := filepath.Join(dir, "bin")
			fakeBinaries(t, bin, "x")
			if _, err := WriteApp(app, "", bin, "1"); err != nil {
				t.Fatal(err)
			}
			return app
		}, true, true},
		{"another app by that name", foreign, false, false},
		{"a folder without Info.plist", func(t *testing.T, dir string) string {
			app := filepath.Join(dir, AppBundleName)
			os.MkdirAll(filepath.Join(app, "Contents", "MacOS"), 0o755)
			return app
		}, false, false},
		{"a file", func(t *testing.T, dir string) string {
			app := filepath.Join(dir, AppBundleName)
			os.WriteFile(app, []byte("x"), 0o644)
			return app
		}, false, false},
		{"a symlink to our app", func(t *testing.T, dir string) string {
			real := filepath.Join(dir, "elsewhere")
			bin := filepath.Join(dir, "bin")
			fakeBinaries(t, bin, "x")
			WriteApp(filepath.Join(real, AppBundleName), "", bin, "1")
			app := filepath.Join(dir, AppBundleName)
			os.Symlink(filepath.Join(real, AppBundleName), app)
			return app
		}, false, false},
		{"nothing", func(t *testing.T, dir string) string { return filepath.Join(dir, AppBundleName) }, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			app := tt.make(t, dir)
			if got := IsOurApp(app); got != tt.ours {
				t.Errorf("IsOurApp = %v", got)
			}
			_, statErr := os.Lstat(app)
			if !tt.ours && statErr == nil {
				bin := filepath.Join(dir, "bin2")
				fakeBinaries(t, bin, "y")
				if _, err := WriteApp(app, "", bin, "1"); err == nil || !strings.Contains(err.Error(), "move it away") {
					t.Errorf("WriteApp over it: %v", err)
				}
			}
			removed, err := RemoveApp(app)
			if err != nil || removed != tt.remove {
				t.Errorf("RemoveApp = %v, %v", removed, err)
			}
			_, err = os.Lstat(app)
			if gone := os.IsNotExist(err); gone != (tt.remove || statErr != nil) {
				t.Errorf("after RemoveApp, gone = %v", gone)
			}
		})
	}
}

func TestPlanForDarwinAndLinux(t *testing.T) {
	root := t.TempDir()
	o := Options{
		Home: filepath.Join(root, "u", ".agentjail"), UserHome: filepath.Join(root, "u"),
		SourceDir: filepath.Join(root, "src", "bin"), Scope: "user",
	}
	app := filepath.Join(root, "u", "Applications", "AgentJail.app")
	tests := []struct {
		name    string
		goos    string
		mode    string
		want    []Step // Kind and Path
		service string // in the service step's description
	}{
		{"darwin", "darwin", "", []Step{
			{Kind: StepBinary, Path: filepath.Join(o.Home, "bin", "agentjail")},
			{Kind: StepBinary, Path: filepath.Join(o.Home, "bin", "agentjail-hook")},
			{Kind: StepApp, Path: app},
			{Kind: StepSettings, Path: filepath.Join(root, "u", ".claude", "settings.json")},
			{Kind: StepService, Path: filepath.Join(root, "u", "Library", "LaunchAgents", "dev.agentjail.agent.plist")},
		}, app + "/Contents/MacOS/agentjail run"},
		{"linux", "linux", "", []Step{
			{Kind: StepBinary, Path: filepath.Join(o.Home, "bin", "agentjail")},
			{Kind: StepBinary, Path: filepath.Join(o.Home, "bin", "agentjail-hook")},
			{Kind: StepSettings, Path: filepath.Join(root, "u", ".claude", "settings.json")},
			{Kind: StepService, Path: filepath.Join(root, "u", ".config", "systemd", "user", "agentjail.service")},
		}, filepath.Join(o.Home, "bin", "agentjail") + " run"},
		{"darwin detached", "darwin", service.ModeDetached, []Step{
			{Kind: StepBinary, Path: filepath.Join(o.Home, "bin", "agentjail")},
			{Kind: StepBinary, Path: filepath.Join(o.Home, "bin", "agentjail-hook")},
			{Kind: StepApp, Path: app},
			{Kind: StepSettings, Path: filepath.Join(root, "u", ".claude", "settings.json")},
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oo := o
			oo.ServiceMode = tt.mode
			steps := PlanFor(tt.goos, oo)
			var got []Step
			for _, s := range steps {
				got = append(got, Step{Kind: s.Kind, Path: s.Path})
				if s.Kind == StepService && !strings.Contains(s.What, tt.service) {
					t.Errorf("service step %q does not run %q", s.What, tt.service)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("plan\n got %v\nwant %v", got, tt.want)
			}
			// --dry-run lists every step but the settings (shown as a diff).
			text := describePlan(steps)
			for _, s := range tt.want {
				if listed := strings.Contains(text, "would write "+s.Path+" ("); listed != (s.Kind != StepSettings) {
					t.Errorf("%s listed %v in:\n%s", s.Path, listed, text)
				}
			}
		})
	}
	// From a bundle, the plan says the app is a copy of it.
	bundle := filepath.Join(root, "dl", "AgentJail.app")
	os.MkdirAll(filepath.Join(bundle, "Contents", "MacOS"), 0o755)
	os.WriteFile(filepath.Join(bundle, "Contents", "Info.plist"), InfoPlist("1"), 0o644)
	o.SourceDir = filepath.Join(bundle, "Contents", "MacOS")
	if s := PlanFor("darwin", o)[2]; s.Kind != StepApp || s.What != "AgentJail.app, copy of "+bundle {
		t.Errorf("app step from a bundle: %+v", s)
	}
}

// The LaunchAgent install writes on macOS runs the installed app's
// executable in the GUI session, parsed back from the plist.
func TestLaunchAgentRunsTheApp(t *testing.T) {
	root := t.TempDir()
	so := ServiceOptions{
		Agentjail: filepath.Join(root, ".agentjail", "bin", "agentjail"),
		Home:      filepath.Join(root, ".agentjail"), UserHome: root,
		Log: filepath.Join(root, ".agentjail", "agentjail.log"),
	}
	parse := func() map[string]any {
		b, err := launchd.Plist(launchAgent(so))
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		if _, err := plist.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		return back
	}
	// Before the app is there, the bare binary (never a missing path).
	if got := parse()["ProgramArguments"]; !reflect.DeepEqual(got, []any{so.Agentjail, "run"}) {
		t.Errorf("without the app: %v", got)
	}
	bin := filepath.Join(root, ".agentjail", "bin")
	fakeBinaries(t, bin, "x")
	if _, err := WriteApp(AppPath(root), "", bin, "1"); err != nil {
		t.Fatal(err)
	}
	back := parse()
	for key, want := range map[string]any{
		"ProgramArguments":            []any{filepath.Join(root, "Applications", "AgentJail.app", "Contents", "MacOS", "agentjail"), "run"},
		"LimitLoadToSessionType":      "Aqua",
		"ProcessType":                 "Interactive",
		"KeepAlive":                   true,
		"RunAtLoad":                   true,
		"AssociatedBundleIdentifiers": []any{BundleID},
		"EnvironmentVariables":        map[string]any{"AGENTJAIL_HOME": so.Home},
	} {
		if !reflect.DeepEqual(back[key], want) {
			t.Errorf("%s = %#v, want %#v", key, back[key], want)
		}
	}
}

// Install --dry-run on this system lists the binaries it would write and
// changes nothing.
func TestInstallDryRunListsThePlan(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "src")
	fakeBinaries(t, src, "x")
	var out bytes.Buffer
	o := Options{Home: filepath.Join(root, ".agentjail"), UserHome: root, SourceDir: src, Scope: "user", DryRun: true, ServiceMode: service.ModeDetached, Out: &out, Socket: filepath.Join(root, "s.sock")}
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	for _, s := range Plan(o) {
		if s.Kind != StepSettings && !strings.Contains(out.String(), "would write "+s.Path) {
			t.Errorf("%s missing from:\n%s", s.Path, out.String())
		}
	}
	if _, err := os.Stat(o.Home); !os.IsNotExist(err) {
		t.Errorf("a dry run created %s", o.Home)
	}
}
