//go:build linux

package daemon

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/agents"
)

// A real process tree: an agent program (a script named claude) started
// with or without -p runs a child as the hook would; the walk from the
// child finds the agent and its switch.
func TestHeadlessRunIsReadFromTheAgentProcess(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "claude")
	os.WriteFile(script, []byte("#!/bin/sh\nsleep 30 &\necho $! > \"$PIDFILE\"\nwait\n"), 0o755)
	claude, _ := agents.Named("claude-code")
	codex, _ := agents.Named("codex")
	for _, tc := range []struct {
		name string
		args []string
		want bool
	}{
		{"claude -p", []string{"-p", "Do the task."}, true},
		{"claude --print", []string{"--print", "Do the task."}, true},
		{"claude interactive", []string{"--model", "x"}, false},
		{"a -p after --", []string{"--", "-p"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pidfile := filepath.Join(dir, "pid")
			os.Remove(pidfile)
			cmd := exec.Command(script, tc.args...)
			cmd.Env = append(os.Environ(), "PIDFILE="+pidfile)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { cmd.Process.Kill(); cmd.Wait() }()
			var child int
			for deadline := time.Now().Add(10 * time.Second); child == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				b, _ := os.ReadFile(pidfile)
				child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			if child == 0 {
				t.Fatal("the child never started")
			}
			defer exec.Command("kill", strconv.Itoa(child)).Run()
			if got := headlessRun(child, claude.Facts); got != tc.want {
				t.Errorf("headless %v, want %v (argv of the parent: %q)", got, tc.want, processArgs(parentPID(child)))
			}
			if headlessRun(child, codex.Facts) {
				t.Error("a claude run was taken for another agent's")
			}
		})
	}
	if headlessRun(os.Getpid(), claude.Facts) {
		t.Error("the test process, under no agent, was taken for a headless run")
	}
}
