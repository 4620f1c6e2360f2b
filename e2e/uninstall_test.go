package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A config.yaml with an error does not keep uninstall from doing its
// work: it warns and goes on; --dry-run changes nothing; --purge
// removes everything.
func TestUninstallWithABrokenConfig(t *testing.T) {
	for _, purge := range []bool{false, true} {
		name := "uninstall"
		if purge {
			name = "uninstall --purge"
		}
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			settings := filepath.Join(e.home, ".claude", "settings.json")
			os.MkdirAll(filepath.Dir(settings), 0o755)
			const original = "{\n  \"model\": \"opus\"\n}\n"
			os.WriteFile(settings, []byte(original), 0o644)
			defer e.cli("uninstall", "--purge")
			if r := e.cli("install"); r.code != 0 {
				t.Fatal(r)
			}
			pid := daemonPID(t, e)
			os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte("fail_mode: [closed\n"), 0o600)

			before := tree(t, e.home)
			wired := read(settings)
			args := []string{"uninstall", "--dry-run"}
			if purge {
				args = append(args, "--purge")
			}
			r := e.cli(args...)
			if r.code != 0 || !strings.Contains(r.stderr, "warning: config.yaml has an error (line 1: not valid YAML") || !strings.Contains(r.stderr, "uninstall goes on") ||
				!strings.Contains(r.stdout, "would stop and unregister the daemon") {
				t.Errorf("uninstall --dry-run with a broken config: %+v", r)
			}
			if after := tree(t, e.home); after != before || read(settings) != wired {
				t.Errorf("--dry-run changed HOME:\n%s\nbefore:\n%s", after, before)
			}
			if syscall.Kill(pid, 0) != nil {
				t.Errorf("--dry-run stopped the daemon")
			}

			if purge {
				r = e.cli("uninstall", "--purge")
			} else {
				r = e.cli("uninstall")
			}
			if r.code != 0 || !strings.Contains(r.stderr, "uninstall goes on") {
				t.Fatalf("uninstall with a broken config: %+v", r)
			}
			if got := read(settings); got != original {
				t.Errorf("settings not restored:\n%s", got)
			}
			waitFor(t, "the daemon to exit", func() bool { return syscall.Kill(pid, 0) != nil })
			_, err := os.Stat(e.ajHome)
			if purge != os.IsNotExist(err) {
				t.Errorf("purge %v, but %s: %v", purge, e.ajHome, err)
			}
			if !purge && read(filepath.Join(e.ajHome, "config.yaml")) != "fail_mode: [closed\n" {
				t.Errorf("uninstall changed the user's config.yaml")
			}
		})
	}
}

// --for and --scope narrow an uninstall, which then leaves the daemon
// guarding the rest; --for all is every agent, and stops it, as --help
// says; --purge is all or nothing, so a narrowed one is refused and
// changes nothing.
func TestUninstallNarrowed(t *testing.T) {
	e := newEnv(t)
	user := filepath.Join(e.home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(user), 0o755)
	os.WriteFile(user, []byte("{}\n"), 0o644)
	project := filepath.Join(e.home, "project")
	local := filepath.Join(project, ".claude", "settings.local.json")
	os.MkdirAll(project, 0o755)
	defer e.cli("uninstall", "--purge")
	if r := e.cli("install"); r.code != 0 {
		t.Fatal(r)
	}
	if r := e.runIn(project, "", "agentjail", "install", "--scope", "project"); r.code != 0 {
		t.Fatal(r)
	}
	pid := daemonPID(t, e)
	if !strings.Contains(read(local), "agentjail-hook") || !strings.Contains(read(user), "agentjail-hook") {
		t.Fatalf("not wired: %q %q", read(local), read(user))
	}

	help := e.cli("uninstall", "--help").stdout
	for _, want := range []string{"--for all is every agent: the same as no\n--for, so the daemon stops", "--scope user|project", "refuses --for naming some agents\nand --scope"} {
		if !strings.Contains(help, want) {
			t.Errorf("uninstall --help does not say %q:\n%s", want, help)
		}
	}

	// A narrowed --purge: refused, nothing changed.
	before := tree(t, e.home)
	for _, args := range [][]string{{"--for", "claude-code", "--purge"}, {"--scope", "project", "--purge"}, {"--scope", "user", "--purge"}} {
		r := e.runIn(project, "", "agentjail", append([]string{"uninstall"}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "--purge removes agentjail as a whole") {
			t.Errorf("uninstall %v: %+v", args, r)
		}
	}
	if after := tree(t, e.home); after != before {
		t.Errorf("a refused purge changed HOME:\n%s\nbefore:\n%s", after, before)
	}
	if r := e.cli("uninstall", "--scope", "team"); r.code != 2 || !strings.Contains(r.stderr, "--scope must be user or project") {
		t.Errorf("--scope team: %+v", r)
	}

	// --scope project: this project's file alone; the daemon stays.
	r := e.runIn(project, "", "agentjail", "uninstall", "--scope", "project")
	if r.code != 0 || !strings.Contains(r.stdout, "the daemon keeps running") {
		t.Errorf("uninstall --scope project: %+v", r)
	}
	if _, err := os.Stat(local); !os.IsNotExist(err) {
		t.Errorf("the project's settings.local.json install created is still there: %q", read(local))
	}
	if !strings.Contains(read(user), "agentjail-hook") {
		t.Errorf("--scope project unwired the user's settings:\n%s", read(user))
	}
	// Again: nothing left to remove, and it says so.
	if r := e.runIn(project, "", "agentjail", "uninstall", "--scope", "project"); r.code != 0 || !strings.Contains(r.stdout, "no agentjail hook to remove in") {
		t.Errorf("uninstall --scope project again: %+v", r)
	}
	if r := e.cli("status"); r.code == 3 || syscall.Kill(pid, 0) != nil {
		t.Fatalf("the daemon stopped on a narrowed uninstall: %+v", r)
	}

	// --for claude-code: unwired; the daemon stays for the others.
	if r := e.cli("uninstall", "--for", "claude-code"); r.code != 0 || !strings.Contains(r.stdout, "the daemon keeps running") {
		t.Errorf("uninstall --for claude-code: %+v", r)
	}
	if read(user) != "{}\n" {
		t.Errorf("user settings after --for claude-code:\n%s", read(user))
	}
	if syscall.Kill(pid, 0) != nil {
		t.Fatalf("the daemon stopped on uninstall --for claude-code")
	}

	// --for all: every agent, and the daemon stops, as --help says.
	if r := e.cli("uninstall", "--for", "all"); r.code != 0 || !strings.Contains(r.stdout, "stopped and unregistered the daemon") {
		t.Errorf("uninstall --for all: %+v", r)
	}
	waitFor(t, "the daemon to exit", func() bool { return syscall.Kill(pid, 0) != nil })
	if _, err := os.Stat(filepath.Join(e.ajHome, "bin", "agentjail-hook")); err != nil {
		t.Errorf("uninstall without --purge removed the binaries: %v", err)
	}
}

// install --scope project writes only personal files into the project
// (settings.local.json, and the backup of one that was there): it checks
// that git ignores them and, where it would commit them, says what to
// add; outside a git work tree it says nothing of git.
func TestInstallProjectScopeChecksGitignore(t *testing.T) {
	e := newEnv(t)
	defer e.cli("uninstall", "--purge")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = e.environ()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	install := func(dir string) result {
		t.Helper()
		r := e.runIn(dir, "", "agentjail", "install", "--scope", "project")
		if r.code != 0 {
			t.Fatal(r)
		}
		return r
	}

	bare := filepath.Join(e.home, "bare")
	os.MkdirAll(filepath.Join(bare, ".claude"), 0o755)
	os.WriteFile(filepath.Join(bare, ".claude", "settings.local.json"), []byte("{}\n"), 0o644)
	git(bare, "init", "-q")
	r := install(bare)
	want := "warning: git would commit .claude/settings.local.json and .claude/settings.local.json.agentjail-backup, which is personal"
	if !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "\n  .claude/settings.local.json\n  .claude/settings.local.json.agentjail-backup\n") {
		t.Errorf("install into a project whose git would commit the files:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(bare, ".gitignore")); !os.IsNotExist(err) {
		t.Errorf("install wrote the project's .gitignore")
	}
	// Ignored in part: only the rest is named.
	os.WriteFile(filepath.Join(bare, ".gitignore"), []byte(".claude/settings.local.json\n"), 0o644)
	if r := install(bare); !strings.Contains(r.stdout, "warning: git would commit .claude/settings.local.json.agentjail-backup, which") {
		t.Errorf("the backup alone is not ignored:\n%s", r.stdout)
	}
	// All ignored: said so.
	os.WriteFile(filepath.Join(bare, ".gitignore"), []byte(".claude/settings.local.json*\n"), 0o644)
	if r := install(bare); strings.Contains(r.stdout, "warning: git") || !strings.Contains(r.stdout, "git ignores .claude/settings.local.json and .claude/settings.local.json.agentjail-backup: personal") {
		t.Errorf("install where git ignores the files:\n%s", r.stdout)
	}

	// Not a git work tree: nothing to say of git.
	plain := filepath.Join(e.home, "plain")
	os.MkdirAll(plain, 0o755)
	if r := install(plain); strings.Contains(r.stdout, "git ") {
		t.Errorf("install outside git spoke of git:\n%s", r.stdout)
	}
}
