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
			[]string{"codex hook: trusted (checked with codex app-server, which status starts for this and which writes its own state in ~/.codex)\n", "health: ok\n"}, []string{"codex: "}},
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

// The decision counters say the period they cover, since a restart
// (install does one) starts them again.
func TestStatusSaysWhatTheDecisionsCover(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	tests := []struct {
		name  string
		since time.Duration
		field bool // the daemon sends decisions_since
		want  string
	}{
		{"seconds", 40 * time.Second, true, "since the daemon started 40 seconds ago"},
		{"one minute", 90 * time.Second, true, "since the daemon started 1 minute ago"},
		{"minutes", 3*time.Minute + 20*time.Second, true, "since the daemon started 3 minutes ago"},
		{"hours", 5 * time.Hour, true, "since the daemon started 5 hours ago"},
		{"days", 50 * time.Hour, true, "since the daemon started 2 days ago"},
		{"a daemon older than the field", 3 * time.Minute, false, "since the daemon started 3 minutes ago"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := wire.Status{StartedAt: now.Add(-tt.since).Format(time.RFC3339)}
			if tt.field {
				st.DecisionsSince = st.StartedAt
			}
			if got := decisionsPeriod(&st, now); !strings.HasPrefix(got, tt.want+" (") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	st := wire.Status{StartedAt: time.Now().UTC().Format(time.RFC3339), Decisions: map[wire.Verdict]int64{wire.Allow: 4, wire.Ask: 1, wire.Deny: 2}}
	var out bytes.Buffer
	printStatus(&out, statusReport{Running: true, Healthy: true, Daemon: &st}, nil)
	if want := "\ndecisions: 4 allow, 1 ask, 2 deny since the daemon started "; !strings.Contains(out.String(), want) {
		t.Errorf("want %q in:\n%s", want, out.String())
	}
}

// The notifications line says whether the last one reached the desktop,
// or why not, and when.
func TestStatusSaysWhetherNotificationsWork(t *testing.T) {
	now := time.Now()
	at := now.Add(-2 * time.Minute).UTC().Format(time.RFC3339)
	off, on := false, true
	tests := []struct {
		name string
		st   wire.Status
		want string
	}{
		{"a daemon too old to say", wire.Status{}, ""},
		{"headless", wire.Status{Tray: "headless by flag"}, "none sent (headless by flag)"},
		{"switched off", wire.Status{Tray: "running", Notifications: &off, Notify: &wire.NotifyStatus{State: wire.NotifyNone}}, "off (notifications: false in config.yaml)"},
		{"none yet", wire.Status{Tray: "running", Notifications: &on, Notify: &wire.NotifyStatus{State: wire.NotifyNone}}, "none sent since the daemon started"},
		{"delivered", wire.Status{Tray: "running", Notifications: &on, Notify: &wire.NotifyStatus{State: wire.NotifyDelivered, At: at}},
			"the last one was delivered at " + localTime(at) + " (2 minutes ago)"},
		{"failed", wire.Status{Tray: "running", Notifications: &on, Notify: &wire.NotifyStatus{State: wire.NotifyFailed, At: at, Error: "no notification service"}},
			"the last one failed at " + localTime(at) + " (2 minutes ago): no notification service"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := notifyLine(&tt.st, now); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
