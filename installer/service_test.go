package installer

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
)

// helperEnv makes the test binary a stand-in process: with a path, it
// takes the flock on that file and writes its pid there as the daemon
// does; then it says "ready" and prints the name of every SIGTERM or
// SIGWINCH it gets, exiting after a SIGTERM. Run as `agentjail run` it
// stands in for a daemon; under any other name, for whatever process
// reused a stale pid.
const helperEnv = "AGENTJAIL_TEST_HELPER"

func TestMain(m *testing.M) {
	if v, ok := os.LookupEnv(helperEnv); ok {
		helper(v)
		return
	}
	os.Exit(m.Run())
}

func helper(lockPath string) {
	if lockPath != "" {
		f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
		if err == nil {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		}
		if err != nil {
			fmt.Println("lock:", err)
			os.Exit(1)
		}
		f.Truncate(0)
		fmt.Fprintf(f, "%d now\n", os.Getpid())
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGWINCH)
	fmt.Println("ready")
	timeout := time.After(time.Minute)
	for {
		select {
		case s := <-sigs:
			if s == syscall.SIGTERM {
				fmt.Println("TERM")
				os.Exit(0)
			}
			fmt.Println("WINCH")
		case <-timeout:
			os.Exit(0)
		}
	}
}

// process is a helper the test watches.
type process struct {
	cmd    *exec.Cmd
	lines  chan string
	exited chan struct{}
}

// startHelper runs a copy of the test binary named name with args,
// holding the lock at lockPath ("" for none).
func startHelper(t *testing.T, name, lockPath string, args ...string) *process {
	t.Helper()
	self, _ := os.Executable()
	bin := filepath.Join(t.TempDir(), name)
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), helperEnv+"="+lockPath)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, lines: make(chan string, 16), exited: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); <-p.exited })
	if line := p.next(t); line != "ready" {
		t.Fatalf("%s: %q", name, line)
	}
	return p
}

func (p *process) next(t *testing.T) string {
	t.Helper()
	select {
	case l := <-p.lines:
		return l
	case <-p.exited:
		return "(exited)"
	case <-time.After(30 * time.Second):
		t.Fatal("the helper said nothing for 30s (a hang guard, not a timing check)")
		return ""
	}
}

// signalled reports whether p got a SIGTERM. It sends a SIGWINCH and reads
// what p printed up to it: Linux delivers a pending SIGTERM (15) before a
// SIGWINCH (28), so a SIGTERM sent earlier is always printed first.
func (p *process) signalled(t *testing.T) bool {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGWINCH); err != nil {
		return true // gone
	}
	return p.next(t) != "WINCH"
}

// A lock file naming a pid is trusted only when that pid holds the lock
// now and is `agentjail run`: a stale lock whose pid was reused by some
// other process never gets it killed by install, uninstall or stop.
func TestStaleLocksKillNothing(t *testing.T) {
	namePid := func(lockPath string, p *process) {
		os.WriteFile(lockPath, []byte(strconv.Itoa(p.cmd.Process.Pid)+" then\n"), 0o600)
	}
	tests := []struct {
		name string
		// setup returns the process the lock file names.
		setup func(t *testing.T, lockPath string) *process
		stop  bool // whether stopDetached must stop it
	}{
		{"stale lock, nobody holds it, pid reused", func(t *testing.T, lockPath string) *process {
			p := startHelper(t, "sleep", "", "60")
			namePid(lockPath, p)
			return p
		}, false},
		{"stale lock, nobody holds it, pid reused by agentjail run", func(t *testing.T, lockPath string) *process {
			p := startHelper(t, "agentjail", "", "run")
			namePid(lockPath, p)
			return p
		}, false},
		{"lock held by another process, file names an unrelated one", func(t *testing.T, lockPath string) *process {
			startHelper(t, "agentjail", lockPath, "run")
			p := startHelper(t, "sleep", "", "60")
			namePid(lockPath, p)
			return p
		}, false},
		{"the holder is not agentjail", func(t *testing.T, lockPath string) *process {
			return startHelper(t, "sleeper", lockPath, "run")
		}, false},
		{"the holder is agentjail but not `run`", func(t *testing.T, lockPath string) *process {
			return startHelper(t, "agentjail", lockPath, "status")
		}, false},
		{"the holder is `agentjail run`", func(t *testing.T, lockPath string) *process {
			return startHelper(t, "agentjail", lockPath, "run", "--headless")
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			socket := filepath.Join(t.TempDir(), "agentjail.sock")
			p := tt.setup(t, paths.SocketLock(socket))
			stopDetached(ServiceOptions{Socket: socket})
			if got := p.signalled(t); got != tt.stop {
				t.Errorf("pid %d (%s %v) signalled: %v, want %v", p.cmd.Process.Pid, filepath.Base(p.cmd.Path), p.cmd.Args[1:], got, tt.stop)
			}
		})
	}
}

// A lock file planted as a symlink is not opened through it.
func TestLockSymlinkIsNotFollowed(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	socket := filepath.Join(dir, "agentjail.sock")
	p := startHelper(t, "agentjail", victim, "run") // holds the victim's lock
	os.Symlink(victim, paths.SocketLock(socket))
	if !lockFree(paths.SocketLock(socket)) {
		t.Error("the lock was judged through a symlink")
	}
	stopDetached(ServiceOptions{Socket: socket})
	if p.signalled(t) {
		t.Error("the daemon holding the symlink's target was signalled")
	}
}

func TestIsDaemonCommand(t *testing.T) {
	tests := []struct {
		name string
		exe  string
		args []string
		want bool
	}{
		{"installed daemon", "/home/u/.agentjail/bin/agentjail", []string{"/home/u/.agentjail/bin/agentjail", "run", "--headless"}, true},
		{"binary replaced by an upgrade", "/home/u/.agentjail/bin/agentjail (deleted)", []string{"agentjail", "run"}, true},
		{"versioned file behind a link", "/opt/agentjail-1.2", []string{"/usr/local/bin/agentjail", "run"}, true},
		{"another subcommand", "/bin/agentjail", []string{"agentjail", "status"}, false},
		{"no subcommand", "/bin/agentjail", []string{"agentjail"}, false},
		{"a program named like it", "/bin/agentjail-hook", []string{"agentjail-hook", "run"}, false},
		{"an unrelated program", "/usr/bin/sleep", []string{"sleep", "60"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isDaemonCommand(tt.exe, tt.args); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
