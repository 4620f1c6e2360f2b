package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/installer"
	"github.com/agentjail/agentjail/internal/wire"
)

// status shows the configuration in force, and times in the one style
// every command uses; off a terminal it writes no colour.
func TestStatusShowsTheConfigInForce(t *testing.T) {
	on := true
	loaded := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	tests := []struct {
		name string
		st   wire.Status
		want []string
		not  []string
	}{
		{"tuned", wire.Status{
			FailMode: "closed", HookTimeout: "4s", Notifications: &on, LoadedAt: loaded.Format(time.RFC3339),
			DisabledRules: []string{"git.force_push", "priv.sudo"}, ProtectedPaths: []string{"/srv/vault"},
			PolicyDirs: []string{"/h/.agentjail/policies", "/opt/rego"},
		}, []string{
			"config:    fail mode closed, hook timeout 4s, notifications on\n",
			"  disabled rules:  git.force_push, priv.sudo\n",
			"  protected paths: /srv/vault\n",
			"  allowed paths:   none\n",
			"  policy folders:  /h/.agentjail/policies, /opt/rego\n",
			"loaded " + loaded.Local().Format(timeLayout) + "\n",
		}, []string{"\x1b["}},
		{"a daemon too old to say", wire.Status{LoadedAt: "2026-03-04T05:06:07Z"}, nil, []string{"config:", "disabled rules"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := tt.st
			st.StartedAt = time.Now().UTC().Format(time.RFC3339)
			var out bytes.Buffer
			printStatus(&out, statusReport{Running: true, Healthy: true, Daemon: &st}, nil)
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("want %q in:\n%s", w, out.String())
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out.String(), n) {
					t.Errorf("%q in:\n%s", n, out.String())
				}
			}
		})
	}
}

func TestColours(t *testing.T) {
	c := colours{on: true}
	if got := c.paint(verdictColour(wire.Deny), "deny"); got != "\x1b[31mdeny\x1b[0m" {
		t.Errorf("deny %q", got)
	}
	if got := c.paint(verdictColour(wire.Ask), "ask"); got != "\x1b[33mask\x1b[0m" {
		t.Errorf("ask %q", got)
	}
	if got := c.paint(verdictColour(wire.Allow), "allow"); got != "\x1b[32mallow\x1b[0m" {
		t.Errorf("allow %q", got)
	}
	if got := (colours{}).paint(red, "deny"); got != "deny" {
		t.Errorf("off %q", got)
	}
	// A buffer is no terminal, whatever NO_COLOR says.
	t.Setenv("NO_COLOR", "")
	if coloursFor(&bytes.Buffer{}).on {
		t.Error("colour into a buffer")
	}
}

func TestVersionAndHelp(t *testing.T) {
	throwawayHome(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"--version", []string{"--version"}, "agentjail " + Version + " ("},
		{"version", []string{"version"}, "agentjail " + Version + " ("},
		{"reload --help says what it does", []string{"reload", "--help"}, "Ask the running daemon to read config.yaml and every policy file again now"},
		{"try --help says the command takes its own flags", []string{"try", "--help"}, "flags included (try rm -rf ~, try ls -la)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.args...)
			if code != 0 || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
		})
	}
	a, _, _ := runCLI(t, "--version")
	b, _, _ := runCLI(t, "version")
	if a != b {
		t.Errorf("--version %q, version %q", a, b)
	}
}

// The Codex hook check shows on its own line with the method used; a
// problem makes health degraded and is listed with its fix.
func TestStatusShowsCodexHook(t *testing.T) {
	tests := []struct {
		name    string
		check   installer.CodexCheck
		healthy bool
		want    []string
		not     []string
	}{
		{"trusted, by Codex", installer.CodexCheck{Wired: true, Method: installer.CodexByAppServer}, true,
			[]string{"codex hook: trusted (checked with codex app-server)\n", "health: ok\n"}, []string{"codex: "}},
		{"untrusted, by config.toml", installer.CodexCheck{Wired: true, Method: installer.CodexByConfig, Fallback: "no codex program on PATH", Problem: "Codex skips agentjail's hook: run `agentjail install --for codex`"}, false,
			[]string{"codex hook: not run by Codex (checked with config.toml, as no codex program on PATH)\n", "health: degraded\n", "  codex: Codex skips agentjail's hook: run `agentjail install --for codex`\n"}, []string{"health: ok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := wire.Status{StartedAt: time.Now().UTC().Format(time.RFC3339)}
			check := tt.check
			var out bytes.Buffer
			printStatus(&out, statusReport{Running: true, Healthy: tt.healthy, Daemon: &st, Codex: &check}, nil)
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("want %q in:\n%s", w, out.String())
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out.String(), n) {
					t.Errorf("%q in:\n%s", n, out.String())
				}
			}
		})
	}
}
