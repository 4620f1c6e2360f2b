package shell

import (
	"strings"
	"testing"
)

func TestRunnerTool(t *testing.T) {
	roles := &Roles{
		Programs: map[string]ProgramRoles{"node": {Value: []string{"r", "require"}, Code: []string{"e"}}},
		Runners:  map[string][]string{"npx": {}, "node": {}, "pnpm": {"dlx", "exec"}, "npm": {"exec"}},
	}
	tests := []struct {
		name    string
		program string
		args    []string
		want    int // -1: no tool
	}{
		{"npx, tool first", "npx", []string{"@scope/tool", "--flag"}, 0},
		{"npx, options first", "npx", []string{"-y", "--quiet", "tool", "x"}, 2},
		{"pnpm dlx", "pnpm", []string{"dlx", "tool", "x"}, 1},
		{"pnpm, options before its word", "pnpm", []string{"--silent", "exec", "tool"}, 2},
		{"pnpm runs a tool directly", "pnpm", []string{"tool", "x"}, 0},
		{"npm exec --", "npm", []string{"exec", "--", "tool", "--bare"}, 2},
		{"node skips an option's value", "node", []string{"-r", "./hook.js", "cli.js", "--bare"}, 2},
		{"node, value attached", "node", []string{"--require=./hook.js", "cli.js"}, 1},
		{"node with only code", "node", []string{"-e"}, -1},
		{"not a runner", "git", []string{"status"}, -1},
		{"runner with nothing to run", "npx", []string{"--version"}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := roles.RunnerTool(tt.program, tt.args)
			if !ok {
				got = -1
			}
			if got != tt.want {
				t.Errorf("RunnerTool(%s %v) = %d, want %d", tt.program, tt.args, got, tt.want)
			}
		})
	}
	if _, ok := (*Roles)(nil).RunnerTool("npx", []string{"tool"}); ok {
		t.Error("no roles table, yet a runner")
	}
}

// TestRunnerCommand: behind a runner's word (bundle exec, uv run) the
// command it runs is judged as if started directly; a runner without
// its word, or one whose tool is a package, runs no command here.
func TestRunnerCommand(t *testing.T) {
	env := testEnv
	env.Roles = &Roles{
		Programs: map[string]ProgramRoles{"uv": {Text: []string{"with"}}},
		Runners:  map[string][]string{"uv": {"run"}, "bundle": {"exec"}, "pnpm": {"dlx", "exec"}, "npx": nil},
	}
	tests := []struct{ command, want string }{
		{`uv run rm -rf ~`, "uv|rm wrappers=uv paths=/home/dev"},
		{`uv run --with rich rm -rf ~`, "uv|rm wrappers=uv paths=/home/dev"},
		{`bundle exec -- rm -rf ~`, "bundle|rm wrappers=bundle paths=/home/dev"},
		{`pnpm install`, "pnpm paths=/home/dev/project/install"},
		{`npx rimraf dist`, "npx paths=/home/dev/project/rimraf,/home/dev/project/dist"},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range Parse(tt.command, env).Commands {
			got = append(got, summary(c))
		}
		if g := strings.Join(got, "|"); g != tt.want {
			t.Errorf("%s: got %s, want %s", tt.command, g, tt.want)
		}
	}
}
