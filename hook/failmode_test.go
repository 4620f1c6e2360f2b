package hook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/wire"
)

// stdinThatFails fails the test if the hook reads it.
type stdinThatFails struct{ t *testing.T }

func (s stdinThatFails) Read([]byte) (int, error) {
	s.t.Error("--help read stdin")
	return 0, os.ErrClosed
}

func TestHelpRecordsNothing(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "-help"} {
		t.Run(arg, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("AGENTJAIL_HOME", home)
			var out, errb bytes.Buffer
			code := Main(context.Background(), []string{arg}, stdinThatFails{t}, &out, &errb)
			if code != ExitOK || !strings.Contains(out.String(), "Usage: agentjail-hook") || errb.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
			}
			if _, err := os.Stat(paths.FailLog()); !os.IsNotExist(err) {
				t.Errorf("--help recorded a failure")
			}
		})
	}
}

// With no daemon, the fail mode is closed when the flag or the daemon's
// state file (config.yaml's fail_mode) says so; a state file the hook
// cannot trust, or cannot read, leaves the flag to decide.
func TestFailModeFromStateFile(t *testing.T) {
	tests := []struct {
		name       string
		flag       bool
		state      string      // "" writes no file
		mode       os.FileMode // of the state file
		symlink    bool
		wantClosed bool
		why        string
	}{
		{"no state file: open", false, "", 0o600, false, false, ""},
		{"config open: open", false, `{"fail_mode":"open"}`, 0o600, false, false, ""},
		{"config closed: closed without the flag", false, `{"fail_mode":"closed"}`, 0o600, false, true, "config.yaml sets fail_mode: closed"},
		{"flag closed wins over config open", true, `{"fail_mode":"open"}`, 0o600, false, true, "--fail-closed"},
		{"corrupt file: the flag decides", false, `{"fail_mode":`, 0o600, false, false, ""},
		{"a file others can write is not trusted", false, `{"fail_mode":"closed"}`, 0o622, false, false, ""},
		{"a symlink is not followed", false, `{"fail_mode":"closed"}`, 0o600, true, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			state := filepath.Join(dir, "hook.json")
			if tt.state != "" {
				target := state
				if tt.symlink {
					target = filepath.Join(dir, "elsewhere.json")
					os.Symlink(target, state)
				}
				os.WriteFile(target, []byte(tt.state), tt.mode)
				os.Chmod(target, tt.mode)
			}
			opts := Options{
				Timeout:    time.Second,
				FailClosed: tt.flag,
				Client:     &wire.Client{Socket: filepath.Join(dir, "none.sock")},
				State:      state,
				AutoStart:  "-",
			}
			stdout, stderr, code, recs := run(t, opts, strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`))
			closed := code == ExitBlock
			if closed != tt.wantClosed {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			if closed && (!strings.Contains(stdout, `"deny"`) || !strings.Contains(stderr, tt.why)) {
				t.Errorf("stdout %q, stderr %q, want the reason to name %q", stdout, stderr, tt.why)
			}
			if len(recs) != 1 || (recs[0].Mode == "closed") != tt.wantClosed {
				t.Errorf("records %+v", recs)
			}
		})
	}
}

// The advice for an unreachable daemon says what fixes it on this
// machine, never just `agentjail run`.
func TestAdviceWhenNoDaemon(t *testing.T) {
	tests := []struct {
		name  string
		setup func(home, ajHome string)
		want  string
	}{
		{"never installed", func(string, string) {}, "agentjail is not installed here"},
		{"installed, detached", func(_, aj string) {
			os.MkdirAll(filepath.Join(aj, "bin"), 0o700)
			os.WriteFile(filepath.Join(aj, "bin", "agentjail"), []byte("#!/bin/sh\n"), 0o755)
		}, "start it with `agentjail install`"},
		{"installed with systemd", func(h, aj string) {
			os.MkdirAll(filepath.Join(aj, "bin"), 0o700)
			os.WriteFile(filepath.Join(aj, "bin", "agentjail"), []byte("#!/bin/sh\n"), 0o755)
			os.MkdirAll(filepath.Join(h, ".config", "systemd", "user"), 0o700)
			os.WriteFile(filepath.Join(h, ".config", "systemd", "user", "agentjail.service"), nil, 0o644)
		}, "systemctl --user start agentjail"},
		{"installed with launchd", func(h, aj string) {
			os.MkdirAll(filepath.Join(aj, "bin"), 0o700)
			os.WriteFile(filepath.Join(aj, "bin", "agentjail"), []byte("#!/bin/sh\n"), 0o755)
			os.MkdirAll(filepath.Join(h, "Library", "LaunchAgents"), 0o700)
			os.WriteFile(filepath.Join(h, "Library", "LaunchAgents", "dev.agentjail.agent.plist"), nil, 0o644)
		}, "launchctl kickstart gui/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			aj := filepath.Join(home, ".agentjail")
			os.MkdirAll(aj, 0o700)
			t.Setenv("HOME", home)
			t.Setenv("AGENTJAIL_HOME", aj)
			tt.setup(home, aj)
			opts := Options{Timeout: time.Second, Client: &wire.Client{Socket: filepath.Join(aj, "agentjail.sock")}, AutoStart: "-"}
			_, stderr, code, _ := run(t, opts, strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`))
			if code != ExitOK || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q, want %q", code, stderr, tt.want)
			}
			if strings.Contains(stderr, "start it with `agentjail run`") {
				t.Errorf("advises a foreground daemon: %q", stderr)
			}
		})
	}
}
