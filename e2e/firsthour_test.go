package e2e

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// A new user's first hour, through the real binaries in a throwaway HOME:
// what the README tells them to type works as typed.

// withEnv runs a built binary with extra environment (PATH, SHELL ...)
// over the env's own.
func (e *env) withEnv(extra []string, name string, args ...string) result {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, name), args...)
	cmd.Env = append(e.environ(), extra...)
	cmd.Dir = e.home
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Run()
	if ctx.Err() != nil {
		e.t.Fatalf("%s %v did not finish in 30s", name, args)
	}
	return result{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
}

func TestTryWithTheCommandsOwnFlags(t *testing.T) {
	e := newEnv(t)
	e.start()
	tests := []struct {
		name    string
		args    []string
		verdict string
	}{
		{"its own help's example", []string{"rm", "-rf", "~"}, "verdict:  deny"},
		{"ls -la", []string{"ls", "-la"}, "verdict:  allow"},
		{"force push", []string{"git", "push", "--force", "origin", "main"}, "verdict:  deny"},
		{"a file tool with a path", []string{"--tool", "Read", "~/.aws/credentials"}, "verdict:  deny"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.cli(append([]string{"try"}, tt.args...)...)
			if r.code != 0 || !strings.HasPrefix(r.stdout, tt.verdict) || strings.Contains(r.stdout, "\x1b[") {
				t.Errorf("%+v", r)
			}
		})
	}
	if r := e.cli("try", "--tool", "Read"); r.code != 2 || !strings.Contains(r.stderr, "give the path the Read tool is called with") {
		t.Errorf("try --tool Read without a path: %+v", r)
	}
}

// The Quick start's symlinked ~/.claude/settings.json (a dotfiles
// manager's) keeps being a link through install and uninstall, and the
// file it leads to comes back byte for byte.
func TestSymlinkedSettingsThroughInstall(t *testing.T) {
	e := newEnv(t)
	const original = "{\r\n  \"model\": \"opus\"\r\n}\r\n" // CR LF too
	target := filepath.Join(e.home, "dotfiles", "claude", "settings.json")
	os.MkdirAll(filepath.Dir(target), 0o755)
	os.WriteFile(target, []byte(original), 0o644)
	settings := filepath.Join(e.home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.Symlink("../dotfiles/claude/settings.json", settings)
	defer e.cli("uninstall")

	if r := e.cli("install"); r.code != 0 || !strings.Contains(r.stdout, "where the link leads; the link stays") {
		t.Fatalf("install: %+v", r)
	}
	if dest, err := os.Readlink(settings); err != nil || dest != "../dotfiles/claude/settings.json" {
		t.Fatalf("the link is gone: %q %v", dest, err)
	}
	got := read(target)
	if !strings.Contains(got, "agentjail-hook") || strings.Count(got, "\n") != strings.Count(got, "\r\n") {
		t.Errorf("the target, with CR LF on every line:\n%q", got)
	}
	if r := e.hook(bashEvent("cat ~/.ssh/id_rsa")); r.code != 2 {
		t.Errorf("not guarded: %+v", r)
	}
	if r := e.cli("uninstall"); r.code != 0 {
		t.Fatalf("uninstall: %+v", r)
	}
	if dest, err := os.Readlink(settings); err != nil || dest != "../dotfiles/claude/settings.json" {
		t.Errorf("uninstall replaced the link: %q %v", dest, err)
	}
	if got := read(target); got != original {
		t.Errorf("not restored:\n%q", got)
	}
}

// Install puts the agentjail command on PATH through ~/.local/bin, and
// says the exact line to add when that folder is not on PATH; the final
// message always gives a command that works as typed.
func TestInstallPutsTheCommandOnPath(t *testing.T) {
	tests := []struct {
		name      string
		onPath    bool
		shell     string
		wantHint  string
		wantCheck string // how the final line tells to run it
	}{
		{"not on PATH, bash", false, "/bin/bash", "add this line to ~/.bashrc, then open a new terminal:\n  export PATH=\"$HOME/.local/bin:$PATH\"", "check it: {bin} status"},
		{"not on PATH, zsh", false, "/bin/zsh", "add this line to ~/.zshrc", "check it: {bin} status"},
		{"on PATH", true, "/bin/bash", "", "check it: agentjail status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			defer e.cli("uninstall")
			link := filepath.Join(e.home, ".local", "bin", "agentjail")
			path := "/usr/bin:/bin"
			if tt.onPath {
				path = filepath.Dir(link) + ":" + path
			}
			r := e.withEnv([]string{"PATH=" + path, "SHELL=" + tt.shell}, "agentjail", "install")
			if r.code != 0 {
				t.Fatalf("install: %+v", r)
			}
			installed := filepath.Join(e.ajHome, "bin", "agentjail")
			if dest, err := os.Readlink(link); err != nil || dest != installed {
				t.Fatalf("link %q %v", dest, err)
			}
			if tt.wantHint != "" && !strings.Contains(r.stdout, filepath.Dir(link)+" is not on your PATH; "+tt.wantHint) {
				t.Errorf("no PATH hint:\n%s", r.stdout)
			}
			if tt.wantHint == "" && strings.Contains(r.stdout, "not on your PATH") {
				t.Errorf("a hint with the folder on PATH:\n%s", r.stdout)
			}
			if want := strings.ReplaceAll(tt.wantCheck, "{bin}", installed); !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "the agentjail command: "+installed) {
				t.Errorf("want %q and the full path in:\n%s", want, r.stdout)
			}
			// The link runs the installed command.
			if out, err := exec.Command(link, "version").Output(); err != nil || !strings.HasPrefix(string(out), "agentjail ") {
				t.Errorf("the link does not run agentjail: %v %s", err, out)
			}
			if r := e.cli("uninstall"); r.code != 0 {
				t.Fatal(r)
			}
			if _, err := os.Lstat(link); err == nil {
				t.Errorf("uninstall left the link")
			}
			if _, err := os.Stat(filepath.Join(e.home, ".local")); err == nil {
				t.Errorf("uninstall left the ~/.local it created")
			}
		})
	}
	// A program of that name that is not ours is never replaced.
	e := newEnv(t)
	defer e.cli("uninstall")
	mine := filepath.Join(e.home, ".local", "bin", "agentjail")
	os.MkdirAll(filepath.Dir(mine), 0o755)
	os.WriteFile(mine, []byte("#!/bin/sh\necho mine\n"), 0o755)
	r := e.cli("install")
	if r.code != 0 || !strings.Contains(r.stdout, "left "+mine+" alone") {
		t.Fatalf("%+v", r)
	}
	e.cli("uninstall")
	if read(mine) != "#!/bin/sh\necho mine\n" {
		t.Errorf("a foreign file was changed or removed")
	}
}

// uninstall --purge leaves nothing of ours in HOME: the tree is what it
// was before install.
func TestPurgeLeavesTheHomeAsItWas(t *testing.T) {
	e := newEnv(t)
	os.MkdirAll(filepath.Join(e.home, "project"), 0o755)
	before := tree(t, e.home)
	if r := e.cli("install"); r.code != 0 {
		t.Fatal(r)
	}
	if r := e.cli("uninstall", "--purge"); r.code != 0 {
		t.Fatal(r)
	}
	if after := tree(t, e.home); after != before {
		t.Errorf("HOME after install and uninstall --purge:\n%s\nbefore:\n%s", after, before)
	}
}

// tree lists every path under root, one a line.
func tree(t *testing.T, root string) string {
	t.Helper()
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != root {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, rel)
		}
		return nil
	})
	sort.Strings(paths)
	return strings.Join(paths, "\n")
}

// Every Rego block of the README and of docs/policies.md, saved as the
// user would save it (a test as a _test.rego), loads in a real daemon
// with no load error, the tests pass under `agentjail policy test`, and
// a file mixing the two syntaxes is refused with words that say so.
func TestReadmePoliciesLoadAsPasted(t *testing.T) {
	rego := regexp.MustCompile("(?s)```rego\n(.*?)```")
	var blocks []string
	seen := map[string]bool{}
	var policiesPage [][]string
	for _, page := range []string{"../README.md", "../docs/policies.md"} {
		doc, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		found := rego.FindAllStringSubmatch(string(doc), -1)
		if len(found) < 2 {
			t.Fatalf("%s: %d rego blocks", page, len(found))
		}
		if page == "../docs/policies.md" {
			policiesPage = found
		}
		for _, b := range found {
			if !seen[b[1]] {
				seen[b[1]] = true
				blocks = append(blocks, b[1])
			}
		}
	}
	e := newEnv(t)
	tests := 0
	for i, b := range blocks {
		name := "readme" + string(rune('a'+i))
		if strings.Contains(b, "\ntest_") {
			name += "_test"
			tests++
		}
		e.writePolicy(name+".rego", b)
	}
	if tests == 0 {
		t.Fatal("no test among the pages' rego blocks")
	}
	e.start()
	r := e.cli("status")
	if r.code != 0 || strings.Contains(r.stdout, "policy errors") {
		t.Errorf("status with the documented policies: %+v", r)
	}
	// The documented rules decide, as the pages say.
	if r := e.cli("try", "npm", "publish"); !strings.Contains(r.stdout, "team.publish") {
		t.Errorf("the documented ask rule did not fire: %+v", r)
	}
	// The documented tests pass.
	if r := e.cli("policy", "test"); r.code != 0 || !strings.Contains(r.stdout, "test_publish_is_asked: PASS") || !strings.Contains(r.stdout, "test_npm_test_is_not_asked: PASS") {
		t.Errorf("the documented tests under agentjail policy test: %+v", r)
	}
	blocks = []string{policiesPage[0][1], policiesPage[1][1]}
	// The two pasted into one file: refused, and said why.
	e.writePolicy("mixed.rego", blocks[0]+"\n"+strings.TrimPrefix(blocks[1], "package agentjail\n"))
	waitFor(t, "the mixed file to be reported", func() bool {
		return strings.Contains(e.cli("status").stdout, "this file mixes Rego v0 and v1")
	})
	if r := e.cli("try", "ls"); !strings.Contains(r.stderr, "warning: 1 policy load error;") || !strings.Contains(r.stderr, "mixed.rego") {
		t.Errorf("try did not warn about the file that did not load: %+v", r)
	}
}

// config.yaml mistakes are reported in its own terms wherever they show.
func TestConfigErrorsInOurWords(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"typo of a key", "eval_timout: 1s\n", `unknown key "eval_timout" (did you mean eval_timeout?)`},
		{"not a bool", "notifications: maybe\n", `notifications must be true or false, not "maybe"`},
		{"a rule id with a typo", "disabled_rules: [git.force_psuh]\n", `disabled_rules: no rule has the id "git.force_psuh" (did you mean git.force_push?), so it disables nothing`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			os.MkdirAll(e.ajHome, 0o700)
			os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte(tt.yaml), 0o600)
			e.start()
			r := e.cli("status")
			if r.code != 4 || !strings.Contains(r.stdout, tt.want) || strings.Contains(r.stdout, "strconv") || strings.Contains(r.stdout, "decoding failed") {
				t.Errorf("status: %+v", r)
			}
			if r := e.cli("try", "ls"); !strings.Contains(r.stderr, tt.want) {
				t.Errorf("try: %+v", r)
			}
		})
	}
}
