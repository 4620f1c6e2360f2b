package installer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A settings file that is a symlink (a dotfiles manager's) is written
// where the link leads, backed up there, restored there on uninstall,
// and stays a link throughout; chains and relative links too.
func TestSymlinkedSettingsRoundTrip(t *testing.T) {
	const original = "{\n  \"model\": \"opus\"\n}\n"
	tests := []struct {
		name string
		// link makes ~/.claude/settings.json a link and returns the file
		// it finally leads to.
		link func(t *testing.T, home, settings string) string
		// exists: the final file is there before install
		exists bool
	}{
		{"absolute link into a dotfiles repo", func(t *testing.T, home, settings string) string {
			target := filepath.Join(home, "dotfiles", "claude", "settings.json")
			write(t, target, original)
			os.Symlink(target, settings)
			return target
		}, true},
		{"relative link", func(t *testing.T, home, settings string) string {
			target := filepath.Join(home, "dotfiles", "settings.json")
			write(t, target, original)
			os.Symlink("../dotfiles/settings.json", settings)
			return target
		}, true},
		{"chain of two links", func(t *testing.T, home, settings string) string {
			target := filepath.Join(home, "real", "settings.json")
			write(t, target, original)
			middle := filepath.Join(home, "dotfiles", "settings.json")
			os.MkdirAll(filepath.Dir(middle), 0o755)
			os.Symlink(target, middle)
			os.Symlink(middle, settings)
			return target
		}, true},
		{"link to a file not written yet", func(t *testing.T, home, settings string) string {
			target := filepath.Join(home, "dotfiles", "settings.json")
			os.MkdirAll(filepath.Dir(target), 0o755)
			os.Symlink(target, settings)
			return target
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := agentOptions(t)
			settings := o.SettingsPath()
			os.MkdirAll(filepath.Dir(settings), 0o755)
			target := tt.link(t, o.UserHome, settings)
			linkBefore, _ := os.Readlink(settings)

			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(settings); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the link is gone: %v %v", fi, err)
			}
			if got, _ := os.Readlink(settings); got != linkBefore {
				t.Errorf("the link now points to %q, was %q", got, linkBefore)
			}
			if !HasHook([]byte(read(t, target))) {
				t.Fatalf("no hook where the link leads:\n%s", read(t, target))
			}
			if tt.exists && read(t, target+".agentjail-backup") != original {
				t.Errorf("no backup beside %s", target)
			}
			if !strings.Contains(o.Out.(*bytes.Buffer).String(), "written to "+target+", where the link leads; the link stays") {
				t.Errorf("install did not say where it wrote:\n%s", o.Out)
			}

			if err := Uninstall(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(settings); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("uninstall replaced the link: %v %v", fi, err)
			}
			want := "<missing>"
			if tt.exists {
				want = original
			}
			if got := read(t, target); got != want {
				t.Errorf("after uninstall %s is\n%q\nwant\n%q", target, got, want)
			}
			if _, err := os.Stat(target + ".agentjail-backup"); err == nil {
				t.Errorf("the backup stayed after a byte-for-byte restore")
			}
		})
	}
}

func TestSymlinkLoopRefused(t *testing.T) {
	o := agentOptions(t)
	settings := o.SettingsPath()
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.Symlink(settings, settings)
	if err := Install(context.Background(), o); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("err %v", err)
	}
}

// A settings file its owner made read-only is refused, saying why, and
// left exactly as it was; a writable one beside it is fine.
func TestReadOnlySettingsRefused(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root writes read-only files")
	}
	const original = "{\"model\": \"opus\"}\n"
	tests := []struct {
		name    string
		mode    os.FileMode
		wantErr string
	}{
		{"read-only", 0o444, "is read-only (mode 0444), so agentjail leaves it as it is: make it writable (chmod u+w"},
		{"read-only for its owner only", 0o464, "is read-only (mode 0464)"},
		{"writable", 0o644, ""},
		{"writable, private", 0o600, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := agentOptions(t)
			settings := o.SettingsPath()
			write(t, settings, original)
			os.Chmod(settings, tt.mode)
			err := Install(context.Background(), o)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if fi, _ := os.Stat(settings); fi.Mode().Perm() != tt.mode {
					t.Errorf("mode %v, want %v", fi.Mode().Perm(), tt.mode)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err %v, want %q", err, tt.wantErr)
			}
			if read(t, settings) != original {
				t.Errorf("the file changed")
			}
			if _, err := os.Stat(settings + ".agentjail-backup"); err == nil {
				t.Errorf("a backup was written for a refused file")
			}
		})
	}
}

// Uninstall does every part it can: a broken settings file it cannot
// take the hook out of is reported at the end, after the other files
// were restored, and a broken file without our hook is no concern.
func TestUninstallGoesOnPastABrokenFile(t *testing.T) {
	const userOriginal = "{\"model\": \"opus\"}\n"
	tests := []struct {
		name    string
		project string // the project's .claude/settings.local.json after install
		wantErr string
	}{
		{"broken file holding our hook", "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"command\": \"/x/agentjail-hook\"}]}]},,}", "not valid JSON"},
		{"broken file without our hook", "{\"model\": ,}", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := agentOptions(t)
			o.ProjectDir = filepath.Join(o.UserHome, "project")
			write(t, o.SettingsPath(), userOriginal)
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			po := o
			po.Scope = "project"
			write(t, po.SettingsPath(), tt.project)

			err := Uninstall(context.Background(), o)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else if err == nil || !strings.Contains(err.Error(), "uninstall did everything else, but not this") || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), po.SettingsPath()) {
				t.Fatalf("err %v", err)
			}
			// The user file was restored all the same.
			if got := read(t, o.SettingsPath()); got != userOriginal {
				t.Errorf("user settings not restored:\n%s", got)
			}
			if out := o.Out.(*bytes.Buffer).String(); !strings.Contains(out, "stopped and unregistered the daemon") {
				t.Errorf("the service was not stopped:\n%s", out)
			}
		})
	}
}

// --scope project writes the personal, uncommitted settings.local.json,
// never the team's settings.json; uninstall also cleans an entry an
// older install left in settings.json.
func TestProjectScopeUsesLocalSettings(t *testing.T) {
	o := agentOptions(t)
	o.Scope = "project"
	o.ProjectDir = filepath.Join(o.UserHome, "project")
	team := filepath.Join(o.ProjectDir, ".claude", "settings.json")
	const teamText = "{\"permissions\": {\"allow\": [\"Bash(npm test)\"]}}\n"
	write(t, team, teamText)
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(o.ProjectDir, ".claude", "settings.local.json")
	if !HasHook([]byte(read(t, local))) || !strings.Contains(read(t, local), o.Home) {
		t.Fatalf("no hook in %s:\n%s", local, read(t, local))
	}
	if read(t, team) != teamText {
		t.Errorf("the committed settings.json changed:\n%s", read(t, team))
	}
	if !strings.Contains(o.Out.(*bytes.Buffer).String(), "added the agentjail hook to "+local) {
		t.Errorf("install did not name the file:\n%s", o.Out)
	}
	// An older install's entry in the team file goes on uninstall too.
	withOld, _ := AddHook(team, []byte(teamText), o.entry())
	write(t, team, string(withOld))
	if err := Uninstall(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if read(t, local) != "<missing>" || HasHook([]byte(read(t, team))) || !strings.Contains(read(t, team), "Bash(npm test)") {
		t.Errorf("local %q, team %q", read(t, local), read(t, team))
	}
}

// uninstall --purge leaves nothing of ours: the backup of a file it
// could not restore byte for byte, the ~/.claude folder install created.
// Without --purge, such a backup stays (it is the user's only copy of
// the file as it was).
func TestPurgeLeavesNothingOfOurs(t *testing.T) {
	tests := []struct {
		name       string
		before     string // "" for no ~/.claude at all
		editAfter  bool   // the user changes the file after install
		purge      bool
		wantClaude bool // ~/.claude still there
		wantBackup bool
	}{
		{"install created ~/.claude, purge", "", false, true, false, false},
		{"install created ~/.claude, plain uninstall", "", false, false, false, false},
		{"install created ~/.claude, something else uses it since", "", true, true, true, false},
		{"restored byte for byte", "{\"a\": 1}\n", false, false, true, false},
		{"edited since, plain uninstall keeps the backup", "{\"a\": 1}\n", true, false, true, true},
		{"edited since, purge removes the backup", "{\"a\": 1}\n", true, true, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := agentOptions(t)
			claudeDir := filepath.Join(o.UserHome, ".claude")
			settings := o.SettingsPath()
			if tt.before != "" {
				write(t, settings, tt.before)
			}
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if tt.editAfter {
				if tt.before == "" {
					write(t, filepath.Join(claudeDir, "projects", "x.jsonl"), "{}\n") // Claude Code's own use
				} else {
					cur := read(t, settings)
					write(t, settings, strings.Replace(cur, "{", "{\n  \"theme\": \"dark\",", 1))
				}
			}
			o.Purge = tt.purge
			if err := Uninstall(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(claudeDir); (err == nil) != tt.wantClaude {
				t.Errorf("~/.claude there: %v, want %v", err == nil, tt.wantClaude)
			}
			if _, err := os.Stat(settings + ".agentjail-backup"); (err == nil) != tt.wantBackup {
				t.Errorf("backup there: %v, want %v\n%s", err == nil, tt.wantBackup, o.Out)
			}
			if tt.purge {
				if _, err := os.Stat(o.Home); err == nil {
					t.Errorf("%s still there", o.Home)
				}
			}
			if HasHook([]byte(read(t, settings))) {
				t.Errorf("hook still in settings")
			}
		})
	}
}
