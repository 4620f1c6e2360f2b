package shell

import (
	"strings"
	"testing"
)

// testWrappers are rows in the shape of the pack's wrappers table
// (policies/wrappers.rego); the pack's own rows are checked by the
// policy case tables (policies/cases/wrappers.txt).
var testWrappers = map[string]Wrapper{
	"sudo":        {Value: []string{"u", "user", "g", "C", "D", "p", "r", "t", "T", "U", "h"}},
	"env":         {Value: []string{"u", "unset", "C", "chdir", "S", "split-string"}},
	"command":     {None: []string{"v", "V"}},
	"eval":        {String: true},
	"nohup":       {},
	"nice":        {Value: []string{"n", "adjustment"}},
	"timeout":     {Skip: 1, Value: []string{"s", "signal", "k", "kill-after"}},
	"ionice":      {Value: []string{"c", "n", "p", "pid"}, None: []string{"p", "pid"}},
	"watch":       {Value: []string{"n", "interval"}, String: true, Argv: []string{"x", "exec"}},
	"flock":       {Skip: 1, Value: []string{"w", "timeout"}, Command: []string{"c", "command"}},
	"taskset":     {Skip: 1, None: []string{"p", "pid"}},
	"su":          {Value: []string{"s", "shell"}, Command: []string{"c", "command"}, Skip: -1},
	"runuser":     {Value: []string{"u", "user"}, Command: []string{"c"}, Argv: []string{"u", "user"}, Skip: -1},
	"sg":          {Skip: 1, String: true},
	"setarch":     {Skip: 1},
	"bwrap":       {Value: []string{"chdir", "tmpfs"}, Pair: []string{"bind", "ro-bind"}},
	"busybox":     {Emit: "all"},
	"ip":          {Words: []string{"netns", "exec"}, Skip: 1},
	"tmux":        {Verbs: []string{"new", "send-keys"}, Value: []string{"L", "s", "t"}, Env: []string{"e"}, String: true},
	"chroot":      {Skip: 1, Value: []string{"userspec"}, Emit: "options"},
	"systemd-run": {Value: []string{"p", "property", "u", "unit", "on-calendar"}, Emit: "options"},
}

// TestWrappers: each field of a wrapper row finds the command it runs,
// or that it runs none.
func TestWrappers(t *testing.T) {
	rmHome := "rm wrappers=%s paths=/home/dev"
	tests := []struct {
		name    string
		command string
		want    []string
	}{
		{"value option", `nice -n 10 rm -rf ~`, []string{strings.Replace(rmHome, "%s", "nice", 1)}},
		{"attached value", `nice -n10 rm -rf ~`, []string{strings.Replace(rmHome, "%s", "nice", 1)}},
		{"skip an operand", `taskset -c 0 rm -rf ~`, []string{strings.Replace(rmHome, "%s", "taskset", 1)}},
		{"skip a mask", `taskset 0x3 rm -rf ~`, []string{strings.Replace(rmHome, "%s", "taskset", 1)}},
		{"none: acts on a process", `taskset -p 0x3 1234`, []string{"taskset paths=/home/dev/project/0x3,/home/dev/project/1234"}},
		{"none: ionice -p", `ionice -c 3 -p 99`, []string{"ionice paths=/home/dev/project/3,/home/dev/project/99"}},
		{"options after the skipped operand", `setarch x86_64 -R rm -rf ~`, []string{strings.Replace(rmHome, "%s", "setarch", 1)}},
		{"command option after the lock file", `flock /tmp/l -c "rm -rf ~"`, []string{"flock", `rm via="flock -c" paths=/home/dev`}},
		{"flock runs argv", `flock -w 5 /tmp/l rm -rf ~`, []string{strings.Replace(rmHome, "%s", "flock", 1)}},
		{"su -c among its operands", `su - root -c "rm -rf ~"`, []string{"su", `rm via="su -c" paths=/home/dev`}},
		{"su alone runs no operand", `su root`, []string{"su paths=/home/dev/project/root"}},
		{"runuser -u runs argv", `runuser -u bob -- rm -rf ~`, []string{strings.Replace(rmHome, "%s", "runuser", 1)}},
		{"string operands", `sg wheel "rm -rf ~"`, []string{"sg", `rm via="sg" paths=/home/dev`}},
		{"watch -x runs argv", `watch -x rm -rf ~`, []string{strings.Replace(rmHome, "%s", "watch", 1)}},
		{"pair of values", `bwrap --bind / / --tmpfs /tmp rm -rf ~`, []string{strings.Replace(rmHome, "%s", "bwrap", 1)}},
		{"words before the command", `ip netns exec blue rm -rf ~`, []string{strings.Replace(rmHome, "%s", "ip", 1)}},
		{"verb after options", `tmux -L x new -d -s w "rm -rf ~"`, []string{"tmux", `rm via="tmux" paths=/home/dev`}},
		{"other verbs run nothing", `tmux attach -t w`, []string{"tmux paths=/home/dev/project/attach,/home/dev/project/w"}},
		{"other words are no wrapper", `ip addr show`, []string{"ip paths=/home/dev/project/addr,/home/dev/project/show"}},
		{"emit: judged itself too", `chroot /srv/root rm -rf ~`, []string{"chroot", strings.Replace(rmHome, "%s", "chroot", 1)}},
		{"emit keeps its options", `systemd-run --on-calendar daily -p Nice=5 rm -rf ~`, []string{"systemd-run", strings.Replace(rmHome, "%s", "systemd-run", 1)}},
		{"nested", `sudo -u root timeout 5 nice rm -rf ~`, []string{strings.Replace(rmHome, "%s", "sudo,timeout,nice", 1)}},
		{"sudo -e edits", `sudo -e /etc/hosts`, []string{"sudoedit wrappers=sudo paths=/etc/hosts"}},
		{"emit all: with what it runs", `busybox rm -rf ~`, []string{"busybox", strings.Replace(rmHome, "%s", "busybox", 1)}},
		{"nothing to run", `nice`, []string{"nice"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.command, testEnv)
			if r.Error != "" {
				t.Fatalf("parse error: %s", r.Error)
			}
			var got []string
			for _, c := range r.Commands {
				got = append(got, summary(c))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("%s\ngot:\n  %s\nwant:\n  %s", tt.command, strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
	// Without the pack's table nothing is a wrapper but the mechanism.
	r := Parse(`nice rm -rf ~`, Env{Cwd: "/home/dev/project", Home: "/home/dev"})
	if len(r.Commands) != 1 || r.Commands[0].Name != "nice" {
		t.Errorf("nice without a table: got %+v", r.Commands)
	}
}
