package e2e

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLogsCommand(t *testing.T) {
	e := newEnv(t)
	e.start()
	e.hook(bashEvent("ls ./src"))
	e.hook(bashEvent("cat ~/.ssh/id_rsa"))
	waitFor(t, "two logged decisions", func() bool { return strings.Count(e.cli("logs").stdout, "\n") >= 3 })

	r := e.cli("logs")
	if !strings.Contains(r.stdout, "cat ~/.ssh/id_rsa") || !strings.Contains(r.stdout, "secrets.credentials") || strings.Contains(r.stdout, "\x1b[") ||
		!strings.Contains(r.stdout, "  AGENT ") || strings.Count(r.stdout, "  claude-code  ") != 2 {
		t.Errorf("logs (not a terminal: no colours):\n%s", r.stdout)
	}
	r = e.cli("logs", "--verdict", "deny", "--json")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var rec struct{ Verdict, Tool, Summary string }
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &rec) != nil || rec.Verdict != "deny" || rec.Tool != "Bash" {
		t.Errorf("logs --verdict deny --json:\n%s", r.stdout)
	}
	if r := e.cli("logs", "--tool", "Read"); strings.Contains(r.stdout, "cat ~/.ssh") {
		t.Errorf("--tool Read shows Bash calls:\n%s", r.stdout)
	}
	if r := e.cli("logs", "--since", "1h", "-n", "1"); strings.Count(r.stdout, "\n") != 2 {
		t.Errorf("-n 1:\n%s", r.stdout)
	}

	// -f prints decisions made after it started.
	cmd := exec.Command(filepath.Join(bin, "agentjail"), "logs", "-f", "-n", "0")
	cmd.Env = e.environ()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lineCh := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lineCh <- sc.Text()
		}
	}()
	time.Sleep(300 * time.Millisecond)
	e.hook(bashEvent("rm -rf ~"))
	deadline := time.After(10 * time.Second)
	for {
		select {
		case line := <-lineCh:
			if strings.Contains(line, "rm -rf ~") && strings.Contains(line, "fs.rm_catastrophic") {
				return
			}
		case <-deadline:
			t.Fatal("logs -f did not show the new decision")
		}
	}
}
