package input

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentjail/agentjail/internal/shell"
)

func TestGitRemotes(t *testing.T) {
	repo := t.TempDir()
	sub := filepath.Join(repo, "src", "app")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = git@github.com:dev/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[remote \"up\"]\n\turl = https://github.com/acme/app\n"
	if err := os.WriteFile(filepath.Join(repo, ".git", "config"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	// A worktree: .git is a file naming its git directory, whose
	// commondir holds the config.
	wt := t.TempDir()
	gd := filepath.Join(repo, ".git", "worktrees", "w")
	if err := os.MkdirAll(gd, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gd, "commondir"), []byte("../..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+gd+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{ReadFile: os.ReadFile}
	want := map[string]string{"origin": "git@github.com:dev/app.git", "up": "https://github.com/acme/app"}
	tests := []struct {
		name string
		cmds []shell.Command
		want map[string]string
	}{
		{"subfolder", []shell.Command{{Name: "git", Args: []string{"remote", "set-url", "origin", "x"}, Cwd: sub}}, want},
		{"worktree", []shell.Command{{Name: "git", Args: []string{"remote", "-v"}, Cwd: wt}}, want},
		{"no remote command", []shell.Command{{Name: "git", Args: []string{"push"}, Cwd: sub}}, nil},
		{"no repository", []shell.Command{{Name: "git", Args: []string{"remote", "-v"}, Cwd: t.TempDir()}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := gitRemotes(tc.cmds, env); !maps.Equal(got, tc.want) {
				t.Errorf("gitRemotes = %v, want %v", got, tc.want)
			}
		})
	}
}
