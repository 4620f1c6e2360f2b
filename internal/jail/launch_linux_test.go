//go:build linux

package jail_test

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/agentjail/agentjail/internal/jail"
)

// The test binary is its own launcher: run with these variables set, it
// confines itself and becomes the shell (see TestMain).
const (
	envProfile = "JAIL_TEST_PROFILE"
	envCommand = "JAIL_TEST_COMMAND"
)

func TestMain(m *testing.M) {
	if p := os.Getenv(envProfile); p != "" {
		err := jail.Launch(p, os.Getenv(envCommand))
		os.Stderr.WriteString("launch: " + err.Error() + "\n")
		os.Exit(jail.ExitCannotConfine)
	}
	os.Exit(m.Run())
}

// home is a throwaway home with a canary key, a start-up file and a
// guard folder. It lives under a folder of its own, not right in the
// temporary folder: the folders above a guarded place lose the right to
// make entries, and the commands here make theirs in TMPDIR.
type home struct {
	dir, key, rc, guard, work, tmp string
}

func newHome(t *testing.T) home {
	t.Helper()
	if jail.Probe().Off != "" {
		t.Skip(jail.Probe().Off)
	}
	root := t.TempDir()
	h := home{dir: filepath.Join(root, "home")}
	h.key = filepath.Join(h.dir, ".ssh", "id_ed25519")
	h.rc = filepath.Join(h.dir, ".bashrc")
	h.guard = filepath.Join(h.dir, ".agentjail")
	h.work = filepath.Join(h.dir, "work")
	h.tmp = filepath.Join(root, "tmp")
	for _, d := range []string{filepath.Dir(h.key), h.guard, h.work, h.tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write(t, h.key, "CANARY-KEY-7731")
	write(t, h.rc, "# rc\n")
	write(t, filepath.Join(h.guard, "config.yaml"), "fail_mode: open\n")
	write(t, filepath.Join(h.work, "main.go"), "package main\n")
	return h
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (h home) profile() jail.Profile {
	return jail.Profile{
		NoRead:  []string{filepath.Join(h.dir, ".ssh")},
		NoWrite: []string{h.rc, h.guard, filepath.Join(h.dir, ".ssh"), filepath.Join(h.dir, ".zshrc")},
		Make:    []string{filepath.Join(h.dir, ".cache")},
	}
}

// run runs command confined by p and returns its output and exit code.
func run(t *testing.T, h home, p jail.Profile, command string) (string, int) {
	t.Helper()
	dir := t.TempDir()
	path, err := jail.Save(dir, p, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = h.work
	cmd.Env = append(os.Environ(), envProfile+"="+path, envCommand+"="+command, "HOME="+h.dir, "TMPDIR="+h.tmp, "SHELL=/bin/bash")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func TestLaunchKeepsCredentialsUnread(t *testing.T) {
	h := newHome(t)
	for _, tc := range []struct{ name, command string }{
		{"cat", "cat ~/.ssh/id_ed25519"},
		{"computed path", `p=$(printf '%s/.%s/id_%s' "$HOME" ssh ed25519); cat "$p"`},
		{"proc root", `cat /proc/$$/root$HOME/.ssh/id_ed25519`},
		{"script on stdin", `echo 'cat ~/.ssh/id_ed25519' | bash`},
		{"python", `python3 -c 'import os;print(open(os.path.join(os.environ["HOME"],".ssh","id_ed25519")).read())'`},
		{"link made now", `ln -s ~/.ssh/id_ed25519 "$TMPDIR/k" && cat "$TMPDIR/k"`},
		{"hard link", `ln ~/.ssh/id_ed25519 "$TMPDIR/h"; cat "$TMPDIR/h"`},
		{"copy", `cp ~/.ssh/id_ed25519 "$TMPDIR/c"; cat "$TMPDIR/c"`},
		{"recursive grep", `grep -r CANARY ~`},
		{"archive", `tar cf "$TMPDIR/a.tar" -C ~ .ssh; tar xf "$TMPDIR/a.tar" -C "$TMPDIR"; cat "$TMPDIR"/.ssh/*`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := run(t, h, h.profile(), tc.command)
			if strings.Contains(out, "CANARY-KEY") {
				t.Errorf("%s read the key:\n%s", tc.command, out)
			}
		})
	}
}

func TestLaunchKeepsGuardsUnchanged(t *testing.T) {
	h := newHome(t)
	for _, tc := range []struct{ name, command string }{
		{"append", `echo evil >> ~/.bashrc`},
		{"python append", `python3 -c 'open(__import__("os").path.expanduser("~/.bash"+"rc"),"a").write("evil")'`},
		{"replace", `echo evil > "$TMPDIR/x"; mv "$TMPDIR/x" ~/.bashrc`},
		{"remove and make", `rm -f ~/.bashrc; echo evil > ~/.bashrc`},
		{"move folder", `mv ~/.agentjail ~/.aj-old; mkdir ~/.agentjail`},
		{"guard file", `echo 'fail_mode: open # evil' > ~/.agentjail/config.yaml`},
		{"new file in guard", `echo evil > ~/.agentjail/policies.rego`},
		{"missing start-up file", `echo evil > ~/.zshrc`},
		{"authorized keys", `echo evil >> ~/.ssh/authorized_keys`},
		{"truncate", `truncate -s 0 ~/.bashrc`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshot(t, h.dir)
			out, _ := run(t, h, h.profile(), tc.command)
			if after := snapshot(t, h.dir); after != before {
				t.Errorf("%s changed a guarded place:\n%s\nbefore:\n%s\nafter:\n%s", tc.command, out, before, after)
			}
		})
	}
}

// snapshot lists the home's guarded places and their contents.
func snapshot(t *testing.T, dir string) string {
	var b strings.Builder
	for _, rel := range []string{".bashrc", ".zshrc", ".agentjail", ".aj-old", ".ssh"} {
		filepath.Walk(filepath.Join(dir, rel), func(p string, fi os.FileInfo, err error) error {
			if err != nil {
				return nil
			}
			b.WriteString(p)
			if !fi.IsDir() {
				c, _ := os.ReadFile(p)
				b.WriteString(" " + string(c))
			}
			b.WriteString("\n")
			return nil
		})
	}
	return b.String()
}

func TestLaunchEverydayWorkRuns(t *testing.T) {
	h := newHome(t)
	for _, tc := range []struct{ name, command, want string }{
		{"list home", `ls -a ~ | grep -c work`, "1"},
		{"read a start-up file", `head -1 ~/.bashrc`, "# rc"},
		{"write in the project", `echo hi > out.txt && cat out.txt && rm out.txt && echo gone`, "hi\ngone"},
		{"make folders in the project", `mkdir -p a/b/c && touch a/b/c/x && ls a/b/c && rm -r a`, "x"},
		{"temporary files", `f=$(mktemp) && echo t > "$f" && cat "$f" && rm "$f"`, "t"},
		{"rename in the project", `echo 1 > a && mv a b && cat b && rm b`, "1"},
		{"list credential names", `ls ~/.ssh`, "id_ed25519"},
		{"exit code", `exit 7`, ""},
		{"nothing new right in the home (the cost)", `touch ~/new 2>/dev/null || echo refused`, "refused"},
		{"a cache folder made for the call", `mkdir -p ~/.cache/tool && echo c > ~/.cache/tool/x && cat ~/.cache/tool/x`, "c"},
		{"pipes and subshells", `echo abc | (tr a-z A-Z)`, "ABC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code := run(t, h, h.profile(), tc.command)
			if tc.name == "exit code" {
				if code != 7 {
					t.Errorf("exit %d, want 7 (%s)", code, out)
				}
				return
			}
			if strings.TrimSpace(out) != tc.want || code != 0 {
				t.Errorf("%s: exit %d, output %q, want %q", tc.command, code, out, tc.want)
			}
		})
	}
}

func TestLaunchGrantsReachOnlyWhatTheyName(t *testing.T) {
	h := newHome(t)
	p := h.profile()
	p.Read = []string{filepath.Join(h.dir, ".ssh")}
	if out, _ := run(t, h, p, "cat ~/.ssh/id_ed25519"); !strings.Contains(out, "CANARY-KEY") {
		t.Errorf("a read grant of ~/.ssh did not let the key be read: %s", out)
	}
	if out, _ := run(t, h, p, "echo evil >> ~/.bashrc; cat ~/.bashrc"); strings.Contains(out, "evil") {
		t.Errorf("a read grant of ~/.ssh let ~/.bashrc be written: %s", out)
	}
}

func TestLaunchRefusesAChangedProfile(t *testing.T) {
	h := newHome(t)
	dir := t.TempDir()
	path, err := jail.Save(dir, h.profile(), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, jail.Profile{}.Encode(), 0o600)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envProfile+"="+path, envCommand+"=echo RAN")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != jail.ExitCannotConfine || strings.Contains(string(out), "RAN") {
		t.Errorf("a changed profile: %v, %s; want exit %d and nothing run", err, out, jail.ExitCannotConfine)
	}
}

func TestLaunchCannotSignalOrReachOutside(t *testing.T) {
	h := newHome(t)
	if !jail.Probe().Scoped {
		t.Skip("this kernel's Landlock has no scopes (ABI 6)")
	}
	outside := exec.Command("sleep", "60")
	if err := outside.Start(); err != nil {
		t.Fatal(err)
	}
	defer outside.Process.Kill()
	pid := strconv.Itoa(outside.Process.Pid)
	run(t, h, h.profile(), "kill -9 "+pid+"; kill -TERM "+pid)
	if err := outside.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("a confined call signalled a process outside the jail: %v", err)
	}
	if out, code := run(t, h, h.profile(), "sleep 30 & kill $! && wait $!; echo $?"); code != 0 || strings.TrimSpace(out) != "143" {
		t.Errorf("a confined call could not signal its own child: exit %d, %q", code, out)
	}

	name := "agentjail-test-" + pid
	listenUnix(t, "@"+name)
	dial := `python3 -c 'import socket;s=socket.socket(socket.AF_UNIX);s.connect("\0` + name + `");print(s.recv(9).decode())'`
	if out, _ := exec.Command("bash", "-c", dial).CombinedOutput(); !strings.Contains(string(out), "REACHED") {
		t.Fatalf("the dial does not work even unconfined by files: %s", out)
	}
	if out, _ := run(t, h, h.profile(), dial); strings.Contains(out, "REACHED") {
		t.Errorf("a confined call reached an abstract socket made outside the jail")
	}
}

// listenUnix serves "REACHED" on a Unix socket at path (abstract when
// it begins with @) until the test ends.
func listenUnix(t *testing.T, path string) {
	t.Helper()
	if !strings.HasPrefix(path, "@") {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for c, err := ln.Accept(); err == nil; c, err = ln.Accept() {
			c.Write([]byte("REACHED"))
			c.Close()
		}
	}()
}

func dialCommand(path string) string {
	return `python3 -c 'import socket,sys;s=socket.socket(socket.AF_UNIX);s.connect(sys.argv[1]);print(s.recv(9).decode())' ` + path
}

func TestLaunchHidesTheSessionBus(t *testing.T) {
	h := newHome(t)
	if ok, why := jail.CanHide(false); !ok {
		t.Skip(why)
	}
	run0 := filepath.Join(h.dir, "run")
	bus, other := filepath.Join(run0, "bus"), filepath.Join(run0, "gnupg.sock")
	listenUnix(t, bus)
	listenUnix(t, other)
	p := h.profile()
	if out, _ := run(t, h, p, dialCommand(bus)); !strings.Contains(out, "REACHED") {
		t.Fatalf("without hiding, a confined call does not reach the socket (the test proves nothing): %s", out)
	}
	p.Hide = []string{bus}
	for _, tc := range []struct{ name, command string }{
		{"by its path", dialCommand(bus)},
		{"through a link made now", `ln -s ` + bus + ` "$TMPDIR/b"; ` + dialCommand(`"$TMPDIR/b"`)},
		{"a hard link made now", `ln ` + bus + ` "$TMPDIR/hb"; ` + dialCommand(`"$TMPDIR/hb"`)},
		{"through /proc", dialCommand(`/proc/$$/root` + bus)},
		{"through the agent's /proc", dialCommand(`/proc/$PPID/root` + bus)},
		{"after unmounting it", `umount ` + bus + ` 2>&1; umount -l ` + bus + ` 2>&1; ` + dialCommand(bus)},
		{"in a namespace of its own", `unshare -rm sh -c 'umount ` + bus + `; ` + strings.ReplaceAll(dialCommand(bus), `'`, `'\''`) + `'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if out, _ := run(t, h, p, tc.command); strings.Contains(out, "REACHED") {
				t.Errorf("%s reached a hidden socket:\n%s", tc.command, out)
			}
		})
	}
	if out, code := run(t, h, p, dialCommand(other)); code != 0 || !strings.Contains(out, "REACHED") {
		t.Errorf("a socket beside the hidden one was hidden too: exit %d, %s", code, out)
	}
	if _, code := run(t, h, p, "exit 7"); code != 7 {
		t.Errorf("with a hidden socket, exit %d, want 7", code)
	}
	if out, _ := run(t, h, p, "cat ~/.ssh/id_ed25519"); strings.Contains(out, "CANARY-KEY") {
		t.Errorf("with a hidden socket, the key was read: %s", out)
	}
	if out, code := run(t, h, p, `echo ${AGENTJAIL_JAIL_STAGE:-none}`); code != 0 || strings.TrimSpace(out) != "none" {
		t.Errorf("the launcher's stage leaked into the command: exit %d, %q", code, out)
	}
}

func TestLaunchFailsClosedWhenTheStageIsForged(t *testing.T) {
	h := newHome(t)
	p := h.profile()
	p.Hide = []string{filepath.Join(h.dir, "bus")}
	t.Setenv("AGENTJAIL_JAIL_STAGE", "inner")
	if out, code := run(t, h, p, "echo RAN"); code != jail.ExitCannotConfine || strings.Contains(out, "RAN") {
		t.Errorf("a forged inner stage: exit %d, %s; want %d and nothing run", code, out, jail.ExitCannotConfine)
	}
}
