package input

import (
	"testing"

	"github.com/agentjail/agentjail/internal/shell"
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
