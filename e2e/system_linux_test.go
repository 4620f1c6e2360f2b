package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// System mode is tested as root, as it is installed: `agentjail install
// --system` for real, with a throwaway service user and a throwaway
// unprivileged agent user, inside a private mount namespace whose tmpfs
// mounts hide every place the install writes (/etc/agentjail, the
// agents' machine-wide folders, the libexec folder, /run/agentjail ...),
// so nothing it does reaches the machine. TestSystemMode sets the stage
// (the users, the mount points) and runs TestSystemModeInside again in
// `unshare -m`; its cleanups remove the users and any mount point it
// made, whatever happened inside.

const (
	insideSystem  = "AGENTJAIL_E2E_SYSTEM"      // "service-user agent-user": run the inside test
	requireSystem = "AGENTJAIL_REQUIRE_SYSTEM"  // set by CI: the system test must run, not skip
	toolsMount    = "/opt/agentjail-test-tools" // the repo's .tools, bound where any user may reach it
)

// systemMounts are the folders the inside test covers with tmpfs.
var systemMounts = []string{
	"/etc/agentjail", "/etc/claude-code", "/etc/codex", "/etc/gemini-cli", "/etc/github-copilot", "/etc/cursor",
	"/usr/local/libexec", "/usr/local/bin", "/run/agentjail", "/var/lib/agentjail", "/var/log/agentjail",
	"/home", "/etc/systemd/user", toolsMount,
}

func TestSystemMode(t *testing.T) {
	if testing.Short() {
		t.Skip("-short leaves system mode out: it needs root and a mount namespace")
	}
	if os.Getuid() != 0 || exec.Command("unshare", "-m", "true").Run() != nil {
		if os.Getenv(requireSystem) != "" {
			t.Fatal("system mode's test must run here: it needs root and `unshare -m`")
		}
		t.Skip("system mode's test needs root and `unshare -m` (CI runs it as root)")
	}
	suffix := randomSuffix(t)
	svc, agent := "ajsvc"+suffix, "ajag"+suffix
	// The service user is made by install itself; these only make sure
	// neither outlives the test.
	t.Cleanup(func() { dropUser(svc) })
	if out, err := exec.Command("useradd", "--no-create-home", "--home-dir", "/home/"+agent, "--shell", "/bin/sh", "--user-group", agent).CombinedOutput(); err != nil {
		t.Fatalf("useradd %s: %v\n%s", agent, err, out)
	}
	t.Cleanup(func() { dropUser(agent) })
	for _, dir := range systemMounts {
		made, err := mkdirMissing(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			for i := len(made) - 1; i >= 0; i-- {
				os.Remove(made[i])
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "unshare", "-m", "--propagation", "private",
		os.Args[0], "-test.run", "^TestSystemModeInside$", "-test.v", "-test.count=1", "-test.timeout=11m")
	cmd.Env = append(os.Environ(), builtBinaries+"="+bin, insideSystem+"="+svc+" "+agent)
	out, err := cmd.CombinedOutput()
	t.Logf("inside the namespace:\n%s", out)
	if err != nil || !bytes.Contains(out, []byte("--- PASS: TestSystemModeInside")) {
		t.Fatalf("system mode's test failed inside its namespace: %v", err)
	}
	// Nothing install wrote may be visible out here.
	for _, p := range []string{"/usr/local/libexec/agentjail", "/etc/claude-code/managed-settings.d", "/etc/agentjail/config.yaml", "/usr/local/bin/agentjail"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is left on the machine", p)
		}
	}
	if _, err := user.Lookup(svc); err == nil {
		t.Errorf("uninstall --system left the service user %s", svc)
	}
}

// dropUser removes a throwaway user, first ending whatever still runs
// as it (a daemon a failed test left running).
func dropUser(name string) {
	if u, err := user.Lookup(name); err == nil {
		uid, _ := strconv.Atoi(u.Uid)
		killUser(uid)
	}
	exec.Command("userdel", name).Run()
	exec.Command("groupdel", name).Run()
}

// killUser kills every process of uid and waits (a second at most) until
// none is left, reading the process table itself.
func killUser(uid int) {
	for i := 0; i < 50; i++ {
		left := false
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			pid, err := strconv.Atoi(d.Name())
			if err != nil {
				continue
			}
			if fi, err := os.Stat("/proc/" + d.Name()); err == nil && int(fi.Sys().(*syscall.Stat_t).Uid) == uid {
				syscall.Kill(pid, syscall.SIGKILL)
				left = true
			}
		}
		if !left {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// mkdirMissing makes dir and returns the folders it made, parents first.
func mkdirMissing(dir string) ([]string, error) {
	var made []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		made = append([]string{d}, made...)
	}
	return made, os.MkdirAll(dir, 0o755)
}

func randomSuffix(t *testing.T) string {
	b := make([]byte, 3)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// sysEnv is the stage inside the namespace.
type sysEnv struct {
	t          *testing.T
	svc, agent string
	uid, gid   int
	home       string
	path       string // PATH for the agent's processes
}

func TestSystemModeInside(t *testing.T) {
	names := strings.Fields(os.Getenv(insideSystem))
	if len(names) != 2 {
		t.Skip("run by TestSystemMode inside a mount namespace")
	}
	s := &sysEnv{t: t, svc: names[0], agent: names[1], home: "/home/" + names[1]}
	for _, dir := range systemMounts {
		if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "mode=0755"); err != nil {
			t.Fatalf("mounting a tmpfs on %s: %v", dir, err)
		}
	}
	u, err := user.Lookup(s.agent)
	if err != nil {
		t.Fatal(err)
	}
	s.uid, _ = strconv.Atoi(u.Uid)
	s.gid, _ = strconv.Atoi(u.Gid)
	// A private home (0700), as many systems make them: the daemon may
	// only search it, by the ACL entry install adds.
	mustDo(t, os.MkdirAll(filepath.Join(s.home, ".aws"), 0o700))
	mustDo(t, os.WriteFile(filepath.Join(s.home, ".aws", "credentials"), []byte("[default]\naws_secret_access_key = x\n"), 0o600))
	mustDo(t, filepath.Walk(s.home, func(p string, _ fs.FileInfo, _ error) error { return os.Lchown(p, s.uid, s.gid) }))
	mustDo(t, os.Chmod(s.home, 0o700))
	s.bindTools()

	// Machine-wide files that were there before install: the admin's
	// own managed settings stay untouched (ours is a drop-in), and one
	// install edits comes back byte for byte at uninstall.
	adminClaude := []byte("{\n  \"permissions\": {\"deny\": [\"WebFetch\"]}\n}\n")
	mustDo(t, os.WriteFile("/etc/claude-code/managed-settings.json", adminClaude, 0o644))
	before := []byte("{\n  // the admin's own\n  \"ui\": {\"theme\": \"GitHub\"}\n}\n")
	mustDo(t, os.WriteFile("/etc/gemini-cli/settings.json", before, 0o644))

	// The agent's user had a user-mode install: install --system takes
	// it out, so no agent runs two hooks and no second daemon answers.
	userPID := s.userModeInstall()

	out := s.root(filepath.Join(bin, "agentjail"), "install", "--system", "--service-user", s.svc, "--user", s.agent)
	if b, _ := os.ReadFile(filepath.Join(s.home, ".claude", "settings.json")); bytes.Contains(b, []byte("agentjail-hook")) {
		t.Errorf("install --system left the user-mode hook in ~/.claude/settings.json:\n%s\n%s", b, out)
	}
	// It stops once its lock is released; give it a moment to exit.
	for i := 0; i < 100 && syscall.Kill(userPID, 0) == nil; i++ {
		time.Sleep(50 * time.Millisecond)
	}
	if syscall.Kill(userPID, 0) == nil {
		t.Errorf("install --system left the user-mode daemon (pid %d) running:\n%s", userPID, out)
	}
	if !strings.Contains(out, "the system daemon runs as "+s.svc) {
		t.Fatalf("install --system did not start the daemon:\n%s", out)
	}
	t.Logf("install --system:\n%s", out)
	s.checkLayout()
	pid := s.daemonPID()

	t.Run("a user-level install or uninstall says system mode is in force", func(t *testing.T) {
		for _, verb := range []string{"install", "uninstall"} {
			r := s.asAgent(nil, "/usr/local/bin/agentjail", verb, "--for", "claude-code")
			if r.code == 0 || !strings.Contains(r.stderr, "runs agentjail in system mode") || !strings.Contains(r.stderr, "sudo agentjail uninstall --system") {
				t.Errorf("%s as the agent's user: exit %d\n%s\n%s", verb, r.code, r.stdout, r.stderr)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(s.home, ".claude", "settings.json")); bytes.Contains(b, []byte("agentjail-hook")) {
			t.Errorf("a refused user install wrote a hook:\n%s", b)
		}
		if _, err := os.Stat(filepath.Join(s.home, ".agentjail", "agentjail.sock")); err == nil {
			t.Errorf("a refused user install started a user-mode daemon")
		}
		if s.daemonPID() != pid {
			t.Errorf("the system daemon changed (was pid %d)", pid)
		}
	})
	t.Run("hook judges the agent's calls as its user's", func(t *testing.T) {
		s.expectHook(t, "cat ~/.aws/credentials", "deny")
		s.expectHook(t, "ls -la", "allow")
		// Nothing in the agent's environment moves the system hook.
		s.expectHookEnv(t, "cat ~/.aws/credentials", "deny", "AGENTJAIL_SOCKET=/tmp/elsewhere.sock", "AGENTJAIL_HOME=/tmp/elsewhere")
		s.expectDecisionUID(t)
	})
	t.Run("the agent's user cannot stop, starve or edit the guard", func(t *testing.T) {
		p := strconv.Itoa(pid)
		for _, attack := range []string{
			"kill -9 " + p, "kill -STOP " + p, "kill -TERM " + p,
			"prlimit --pid " + p + " --nofile=3:3", "renice -n 19 -p " + p,
			"rm -f /run/agentjail/agentjail.sock", "mv /run/agentjail/agentjail.sock /tmp/x.sock",
			"rm -f /usr/local/libexec/agentjail/agentjail-hook",
			"echo 'exit 0' > /usr/local/libexec/agentjail/agentjail-hook",
			"echo '{}' > /etc/claude-code/managed-settings.d/50-agentjail.json",
			"rm -f /etc/claude-code/managed-settings.d/50-agentjail.json",
			"echo '{\"disableAllHooks\": true}' > /etc/claude-code/managed-settings.d/99-off.json",
			"echo 'fail_mode: open' >> /etc/agentjail/config.yaml",
			"echo 'package agentjail' > /etc/agentjail/policies/planted.rego",
			"echo '' > /etc/codex/requirements.toml",
			"rm -rf /etc/github-copilot/policy.d",
			"ln -sf /dev/null /run/agentjail/agentjail.sock",
			// The classes rules cannot close in user mode, from the
			// agent's seat: a folder link, a glob, unknown writers.
			"ln -s /etc/agentjail ~/aj && echo 'fail_mode: open' >> ~/aj/config.yaml",
			"rm -f /etc/agentjai[l]/config.yaml",
			"echo 'fail_mode: open' | tee -a /etc/agentjail/config.yaml",
			"dd if=/dev/null of=/etc/agentjail/config.yaml",
			"cp /bin/true /usr/local/libexec/agentjail/agentjail-hook",
			"truncate -s 0 /etc/codex/requirements.toml",
			"chmod 777 /run/agentjail",
			"kill -9 -1; kill -0 " + p,
		} {
			switch res := s.asAgent(nil, "sh", "-c", attack); res.code {
			case 0:
				t.Errorf("the agent's user could run %q: the OS must refuse it", attack)
			case 127:
				t.Errorf("%q was not tried: its program is missing here (%s)", attack, res.stderr)
			}
		}
		if s.daemonPID() != pid {
			t.Errorf("the daemon changed (was pid %d)", pid)
		}
		// Its own process stays un-frozen and still answers.
		s.expectHook(t, "cat ~/.aws/credentials", "deny")
		s.expectHook(t, "echo still-judged", "allow")
	})
	t.Run("what the daemon cannot read is judged as unknown", func(t *testing.T) {
		// A folder only the agent's user may enter: the service user
		// cannot read the script there, so it is not judged harmless.
		s.asAgentOK(t, "sh", "-c", "mkdir -m 700 ~/private && printf 'cat ~/.aws/credentials\\n' > ~/private/run.sh")
		s.expectHook(t, "bash ~/private/run.sh", "ask")
		s.expectHook(t, "~/private/run.sh", "ask")
		// The same script where the daemon may read it is judged by what it runs.
		s.asAgentOK(t, "sh", "-c", "mkdir -p ~/open && chmod 755 ~/open && cp ~/private/run.sh ~/open/ && chmod 644 ~/open/run.sh && chmod 755 ~/private/run.sh")
		s.expectHook(t, "bash ~/open/run.sh", "deny")
	})
	t.Run("a fork bomb under the user's limits never makes the hook allow", func(t *testing.T) {
		// The user's own process limit, filled by a fork bomb: the hook
		// either cannot start (the agent's onFailure blocks then) or
		// answers deny; it never lets the key read through.
		bomb := exec.Command("prlimit", "--nproc=40", "--", "sh", "-c", "b() { b | b & }; b")
		bomb.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(s.uid), Gid: uint32(s.gid), Groups: []uint32{}}, Setsid: true}
		mustDo(t, bomb.Start())
		defer func() {
			killUser(s.uid)
			bomb.Wait()
		}()
		time.Sleep(300 * time.Millisecond)
		event, _ := json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "cat ~/.aws/credentials"}, "cwd": s.home})
		for i := 0; i < 5; i++ {
			r := s.asAgentEnvLimited(event, "/usr/local/libexec/agentjail/agentjail-hook", "--system")
			if r.code == 0 && !strings.Contains(r.stdout, `"deny"`) {
				t.Fatalf("under a fork bomb the hook let a key read through: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
		}
		killUser(s.uid)
	})
	t.Run("a user's own policy may tighten, never loosen", func(t *testing.T) {
		dir := filepath.Join(s.home, ".agentjail", "policies")
		s.asAgentOK(t, "mkdir", "-p", dir)
		s.asAgentOK(t, "sh", "-c", `printf 'package agentjail\n\ndeny contains "no tighten-me here" if {\n\tinput.tool_input.command == "echo tighten-me"\n}\n' > `+dir+`/tight.rego`)
		s.asAgentOK(t, "sh", "-c", `printf 'package agentjail\n\nallow contains "let me" if {\n\tcontains(input.tool_input.command, ".aws")\n}\n' > `+dir+`/loose.rego`)
		time.Sleep(1200 * time.Millisecond) // the folder is looked at once a second at most
		s.expectHook(t, "echo tighten-me", "deny")
		s.expectHook(t, "cat ~/.aws/credentials", "deny")
		s.expectHook(t, "echo other", "allow")
		st := s.asAgent(nil, "/usr/local/bin/agentjail", "status", "--json")
		if !strings.Contains(st.stdout, "loose.rego") || !strings.Contains(st.stdout, "allow") {
			t.Errorf("status does not show the refused loose.rego with its reason:\n%s", st.stdout)
		}
		// The refusal degrades the user's health, as in user mode.
		if txt := s.asAgent(nil, "/usr/local/bin/agentjail", "status"); txt.code != 4 || !strings.Contains(txt.stdout, "in your own policies") || strings.Contains(txt.stdout, "health: ok") {
			t.Errorf("status with a refused policy (exit %d):\n%s", txt.code, txt.stdout)
		}
		s.asAgentOK(t, "rm", "-f", dir+"/loose.rego", dir+"/tight.rego")
	})
	t.Run("a held call is answered by its own user in a terminal", func(t *testing.T) { s.approvals(t) })
	t.Run("real Claude Code is guarded by the managed hook", func(t *testing.T) {
		s.claude(t)
	})
	t.Run("real Codex CLI is guarded by its machine-wide hook", func(t *testing.T) { s.codex(t) })
	t.Run("real Gemini CLI is guarded by its machine-wide hook", func(t *testing.T) { s.gemini(t) })
	t.Run("real Copilot CLI is guarded by its machine-wide hook", func(t *testing.T) { s.copilot(t) })
	t.Run("fails closed when the daemon cannot answer", func(t *testing.T) {
		mustDo(t, syscall.Kill(pid, syscall.SIGSTOP))
		defer syscall.Kill(pid, syscall.SIGCONT)
		s.expectHook(t, "ls", "deny")
	})
	syscall.Kill(pid, syscall.SIGCONT)

	out = s.root(filepath.Join("/usr/local/libexec/agentjail", "agentjail"), "uninstall", "--system", "--service-user", s.svc)
	t.Logf("uninstall --system:\n%s", out)
	if got, _ := os.ReadFile("/etc/gemini-cli/settings.json"); !bytes.Equal(got, before) {
		t.Errorf("uninstall did not restore /etc/gemini-cli/settings.json byte for byte:\n%s", got)
	}
	if got, _ := os.ReadFile("/etc/claude-code/managed-settings.json"); !bytes.Equal(got, adminClaude) {
		t.Errorf("the admin's managed-settings.json changed:\n%s", got)
	}
	for _, p := range []string{"/usr/local/libexec/agentjail/agentjail-hook", "/etc/codex/requirements.toml", "/etc/claude-code/managed-settings.d/50-agentjail.json", "/etc/cursor/hooks.json", "/run/agentjail/agentjail.sock", "/usr/local/bin/agentjail"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("uninstall --system left %s", p)
		}
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("the daemon (pid %d) still runs after uninstall", pid)
	}
	if _, err := syscall.Getxattr(s.home, "system.posix_acl_access", make([]byte, 256)); !errors.Is(err, syscall.ENODATA) {
		t.Errorf("the home keeps an ACL after uninstall (%v)", err)
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// userModeInstall installs user mode as the agent's user (binaries
// copied where that user may run them) and returns its daemon's pid.
func (s *sysEnv) userModeInstall() int {
	t := s.t
	src := filepath.Join(s.home, "src")
	s.asAgentOK(t, "mkdir", "-p", src, filepath.Join(s.home, ".claude"))
	for _, name := range []string{"agentjail", "agentjail-hook"} {
		b, err := os.ReadFile(filepath.Join(bin, name))
		mustDo(t, err)
		mustDo(t, os.WriteFile(filepath.Join(src, name), b, 0o755))
		mustDo(t, os.Chown(filepath.Join(src, name), s.uid, s.gid))
	}
	r := s.asAgentEnv(nil, []string{"AGENTJAIL_SERVICE=detached"}, filepath.Join(src, "agentjail"), "install", "--for", "claude-code")
	if r.code != 0 {
		t.Fatalf("user-mode install as the agent: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	st := s.asAgent(nil, filepath.Join(s.home, ".agentjail", "bin", "agentjail"), "status", "--json")
	var rep struct {
		Daemon struct {
			PID int `json:"pid"`
		} `json:"daemon"`
	}
	if json.Unmarshal([]byte(st.stdout), &rep); rep.Daemon.PID == 0 {
		t.Fatalf("the user-mode daemon does not answer:\n%s\n%s", st.stdout, st.stderr)
	}
	return rep.Daemon.PID
}

// bindTools makes the repo's .tools (the agent CLIs, maybe Node) reach-
// able to the agent user whatever the checkout's own folders allow, and
// builds the agent's PATH from it.
func (s *sysEnv) bindTools() {
	tools, _ := filepath.Abs("../.tools")
	if _, err := os.Stat(tools); err == nil {
		mustDo(s.t, syscall.Mount(tools, toolsMount, "", syscall.MS_BIND|syscall.MS_REC, ""))
	}
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if rest, ok := strings.CutPrefix(d, tools); ok {
			d = toolsMount + rest
		}
		if strings.HasPrefix(d, "/root") || strings.HasPrefix(d, "/tmp") {
			continue
		}
		dirs = append(dirs, d)
	}
	s.path = strings.Join(append(dirs, "/usr/local/bin", "/usr/bin", "/bin"), ":")
}

type sysResult struct {
	stdout, stderr string
	code           int
}

// asAgent runs a program as the agent's user, in its home, with stdin.
func (s *sysEnv) asAgent(stdin []byte, name string, args ...string) sysResult {
	return s.asAgentEnv(stdin, nil, name, args...)
}

func (s *sysEnv) asAgentEnv(stdin []byte, extra []string, name string, args ...string) sysResult {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = s.home
	cmd.Env = append([]string{"HOME=" + s.home, "USER=" + s.agent, "LOGNAME=" + s.agent, "PATH=" + s.path, "NO_COLOR=1"}, extra...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(s.uid), Gid: uint32(s.gid), Groups: []uint32{}}}
	cmd.Stdin = bytes.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
	}
	return sysResult{o.String(), e.String(), code}
}

// asAgentEnvLimited runs the hook as the agent's user under the same
// process limit as the fork bomb, so the user's process count counts.
func (s *sysEnv) asAgentEnvLimited(stdin []byte, name string, args ...string) sysResult {
	return s.asAgentEnv(stdin, nil, "prlimit", append([]string{"--nproc=40", "--", name}, args...)...)
}

func (s *sysEnv) asAgentOK(t *testing.T, name string, args ...string) {
	t.Helper()
	if r := s.asAgent(nil, name, args...); r.code != 0 {
		t.Fatalf("%s %v as the agent: exit %d: %s", name, args, r.code, r.stderr)
	}
}

// root runs a program as root and fails the test unless it succeeds.
func (s *sysEnv) root(name string, args ...string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = []string{"HOME=/root", "PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "AGENTJAIL_SERVICE=detached", "NO_COLOR=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// checkLayout checks what decides whether a call is guarded belongs to
// root, and the socket is reachable by every user.
func (s *sysEnv) checkLayout() {
	t := s.t
	for _, p := range []string{"/usr/local/libexec/agentjail/agentjail-hook", "/usr/local/libexec/agentjail/agentjail", "/etc/agentjail/config.yaml", "/etc/claude-code/managed-settings.d/50-agentjail.json", "/etc/codex/requirements.toml", "/etc/gemini-cli/settings.json", "/etc/cursor/hooks.json"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Errorf("install --system did not write %s: %v", p, err)
			continue
		}
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != 0 || fi.Mode().Perm()&0o022 != 0 {
			t.Errorf("%s is uid %d, mode %v: it must be root's and writable by root alone", p, st.Uid, fi.Mode().Perm())
		}
		if b, _ := os.ReadFile(p); strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".toml") {
			if !bytes.Contains(b, []byte("agentjail-hook --system")) {
				t.Errorf("%s does not run the system hook:\n%s", p, b)
			}
		}
	}
	if _, err := syscall.Getxattr(s.home, "system.posix_acl_access", make([]byte, 256)); err != nil {
		t.Errorf("install did not give the service user leave to search %s: %v", s.home, err)
	}
	fi, err := os.Stat("/run/agentjail/agentjail.sock")
	if err != nil || fi.Mode().Perm() != 0o666 {
		t.Errorf("the socket: %v, %v; want mode 0666", fi, err)
	}
}

func (s *sysEnv) daemonPID() int {
	r := s.asAgent(nil, "/usr/local/bin/agentjail", "status", "--json")
	var rep struct {
		Daemon struct {
			PID  int    `json:"pid"`
			Mode string `json:"mode"`
		} `json:"daemon"`
	}
	err := json.Unmarshal([]byte(r.stdout), &rep)
	st := rep.Daemon
	if err != nil || st.PID == 0 {
		s.t.Fatalf("status as the agent: %v (exit %d)\n%s\n%s", err, r.code, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(st.Mode, "system") {
		s.t.Errorf("status says mode %q; want the system daemon", st.Mode)
	}
	return st.PID
}

func (s *sysEnv) expectHook(t *testing.T, command, verdict string) {
	t.Helper()
	s.expectHookEnv(t, command, verdict)
}

// expectHookEnv runs the installed hook as Claude Code would (the
// command line in managed-settings.json), as the agent's user.
func (s *sysEnv) expectHookEnv(t *testing.T, command, verdict string, extra ...string) {
	t.Helper()
	event, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": command}, "cwd": s.home, "session_id": "sys-test"})
	r := s.asAgentEnv(event, extra, "/usr/local/libexec/agentjail/agentjail-hook", "--system")
	got := "allow"
	switch {
	case r.code == 2:
		got = "deny"
	case strings.Contains(r.stdout, `"ask"`):
		got = "ask"
	case r.code != 0:
		got = fmt.Sprintf("exit %d", r.code)
	}
	if got != verdict {
		t.Errorf("hook on %q: %s, want %s\nstdout: %s\nstderr: %s", command, got, verdict, r.stdout, r.stderr)
	}
}

// expectDecisionUID: the decision log records whose call each was.
func (s *sysEnv) expectDecisionUID(t *testing.T) {
	b, err := os.ReadFile("/var/log/agentjail/decisions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(fmt.Sprintf(`"uid":%d`, s.uid))) {
		t.Errorf("no decision records the agent's uid %d:\n%s", s.uid, b)
	}
}

// claude drives the real Claude Code CLI as the agent's user against the
// fake model API: the managed hook blocks a key read with our reason and
// lets a harmless command run, and nothing the user can set turns it off.
func (s *sysEnv) claude(t *testing.T) {
	claudeAt := claudeBinary(t)
	tools, _ := filepath.Abs("../.tools")
	if rest, ok := strings.CutPrefix(claudeAt, tools); ok {
		claudeAt = toolsMount + rest
	}
	api := startFakeAPI(t)
	work := filepath.Join(s.home, "work")
	s.asAgentOK(t, "mkdir", "-p", work, filepath.Join(s.home, "tmp"), filepath.Join(s.home, ".claude"), filepath.Join(s.home, "moved", ".claude"))
	s.asAgentOK(t, "sh", "-c", "echo '{}' > ~/.claude.json; echo '{}' > ~/moved/.claude.json; echo hello > work/README.md")
	run := func(input map[string]any, extra ...string) string {
		t.Helper()
		api.script("Bash", input)
		env := append([]string{
			"ANTHROPIC_BASE_URL=" + api.url, "ANTHROPIC_API_KEY=sk-ant-fake", "TMPDIR=" + filepath.Join(s.home, "tmp"),
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		}, extra...)
		r := s.asAgentEnv(nil, env, "sh", "-c", "cd work && exec "+claudeAt+" -p 'Do the task.' --output-format json --permission-mode default")
		results := api.received()
		if len(results) == 0 {
			t.Fatalf("the model got no tool result back; claude (exit %d) said:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		return results[0].Content
	}
	readKey := map[string]any{"command": "cat ~/.aws/credentials", "description": "Read credentials"}
	blocked := func(what, got string) {
		t.Helper()
		if !strings.Contains(got, "holds private keys, credentials or tokens") || strings.Contains(got, "aws_secret_access_key") {
			t.Errorf("%s: the key read was not blocked by agentjail; tool result:\n%s", what, got)
		}
	}
	blocked("managed hook", run(readKey))
	if got := run(map[string]any{"command": "cat README.md", "description": "Read the readme"}); !strings.Contains(got, "hello") {
		t.Errorf("a harmless command did not run; tool result:\n%s", got)
	}
	// The agent's own switches, from its seat.
	s.asAgentOK(t, "sh", "-c", `echo '{"disableAllHooks": true, "hooks": {"PreToolUse": []}}' > ~/.claude/settings.json`)
	blocked("user settings disableAllHooks", run(readKey))
	blocked("CLAUDE_CODE_SIMPLE=1", run(readKey, "CLAUDE_CODE_SIMPLE=1"))
	blocked("HOME moved", run(readKey, "HOME="+filepath.Join(s.home, "moved"), "CLAUDE_CONFIG_DIR="+filepath.Join(s.home, "moved", ".claude")))
}
