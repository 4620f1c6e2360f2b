package installer

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPathHint(t *testing.T) {
	const home = "/home/u"
	dir := "/home/u/.local/bin"
	tests := []struct {
		name, path, shell string
		want              string // "" when no hint is due
	}{
		{"on PATH", "/usr/bin:/home/u/.local/bin:/bin", "/bin/bash", ""},
		{"on PATH with a trailing slash", "/usr/bin:/home/u/.local/bin/", "/bin/bash", ""},
		{"on PATH as ~", "~/.local/bin:/usr/bin", "/bin/bash", ""},
		{"on PATH as $HOME", "$HOME/.local/bin:/usr/bin", "/bin/bash", ""},
		{"missing, bash", "/usr/bin:/bin", "/bin/bash", "add this line to ~/.bashrc, then open a new terminal:\n  export PATH=\"$HOME/.local/bin:$PATH\""},
		{"missing, zsh", "/usr/bin:/bin", "/usr/bin/zsh", "add this line to ~/.zshrc, then open a new terminal:\n  export PATH=\"$HOME/.local/bin:$PATH\""},
		{"missing, fish", "/usr/bin", "/usr/bin/fish", "run:\n  fish_add_path $HOME/.local/bin"},
		{"missing, unknown shell", "/usr/bin", "", "add this line to ~/.profile (or your shell's start-up file), then log in again:\n  export PATH=\"$HOME/.local/bin:$PATH\""},
		{"a folder that only starts the same", "/home/u/.local/bin2:/home/u/.local", "/bin/bash", "export PATH="},
		{"empty PATH", "", "/bin/bash", "is not on your PATH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PathHint(dir, tt.path, tt.shell, home)
			if tt.want == "" {
				if got != "" {
					t.Errorf("hint %q for a folder on PATH", got)
				}
				return
			}
			if !strings.Contains(got, tt.want) || !strings.HasPrefix(got, dir+" is not on your PATH") {
				t.Errorf("got %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

// The link goes in ~/.local/bin (made if need be, and removed again once
// empty); a file there that is not our link is never replaced or removed.
func TestCommandLink(t *testing.T) {
	tests := []struct {
		name    string
		before  func(t *testing.T, o Options) // what is there before install
		ours    bool                          // install made or kept our link
		keptDir bool                          // ~/.local/bin stays after uninstall
	}{
		{"no ~/.local at all", func(*testing.T, Options) {}, true, false},
		{"~/.local/bin with other programs", func(t *testing.T, o Options) { write(t, filepath.Join(o.LinkDir(), "other"), "x") }, true, true},
		{"our link already", func(t *testing.T, o Options) {
			os.MkdirAll(o.LinkDir(), 0o755)
			os.Symlink(o.installedCommand(), o.LinkPath())
		}, true, true},
		{"a foreign program of that name", func(t *testing.T, o Options) { write(t, o.LinkPath(), "#!/bin/sh\necho mine\n") }, false, true},
		{"a foreign link of that name", func(t *testing.T, o Options) {
			os.MkdirAll(o.LinkDir(), 0o755)
			os.Symlink("/opt/agentjail/bin/agentjail", o.LinkPath())
		}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := agentOptions(t)
			o.Out = &bytes.Buffer{}
			tt.before(t, o)
			before, _ := os.Lstat(o.LinkPath())
			created, err := linkCommand(o)
			if err != nil {
				t.Fatal(err)
			}
			if got := o.linkState() == linkOurs; got != tt.ours {
				t.Fatalf("ours %v, want %v:\n%s", got, tt.ours, o.Out)
			}
			if !tt.ours {
				after, _ := os.Lstat(o.LinkPath())
				if !os.SameFile(before, after) || !strings.Contains(o.Out.(*bytes.Buffer).String(), "left "+o.LinkPath()+" alone") {
					t.Errorf("a foreign file was touched or not mentioned:\n%s", o.Out)
				}
			}
			unlinkCommand(o, false)
			removeEmptyDirs(created)
			_, err = os.Lstat(o.LinkPath())
			if tt.ours && err == nil {
				t.Errorf("our link stayed after uninstall")
			}
			if !tt.ours && err != nil {
				t.Errorf("uninstall removed a foreign file")
			}
			if _, err := os.Stat(o.LinkDir()); (err == nil) != tt.keptDir {
				t.Errorf("~/.local/bin there: %v, want %v", err == nil, tt.keptDir)
			}
		})
	}
}
