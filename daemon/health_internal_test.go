package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/wire"
)

func TestRequestBudgetFollowsTheShorterDeadline(t *testing.T) {
	cfg := config.Default() // hook_timeout 2s
	long := cfg
	long.HookTimeout = 10 * time.Second
	tests := []struct {
		name string
		cfg  config.Config
		hook time.Duration
		want time.Duration
	}{
		{"no hook deadline given: config's", cfg, 0, cfg.RequestBudget()},
		{"the same as config", cfg, 2 * time.Second, cfg.RequestBudget()},
		{"hook longer than config: config's", cfg, 5 * time.Second, cfg.RequestBudget()},
		{"config raised, hook installed with the old 2s", long, 2 * time.Second, config.Config{HookTimeout: 2 * time.Second}.RequestBudget()},
		{"absurdly short hook flag is held to the minimum", long, time.Millisecond, config.Config{HookTimeout: config.MinHookTimeout}.RequestBudget()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := requestBudget(tt.cfg, tt.hook)
			if got != tt.want {
				t.Errorf("budget %v, want %v", got, tt.want)
			}
			if tt.hook > 0 && got >= max(tt.hook, config.MinHookTimeout) {
				t.Errorf("budget %v does not end before the hook's %v", got, tt.hook)
			}
		})
	}
}

func TestParseHookCommand(t *testing.T) {
	tests := []struct {
		name, cmd string
		want      wire.HookFlags
	}{
		{"defaults", "/h/.agentjail/bin/agentjail-hook", wire.HookFlags{Timeout: "2s"}},
		{"both flags", "/h/.agentjail/bin/agentjail-hook --fail-closed --timeout 5s", wire.HookFlags{Timeout: "5s", FailClosed: true}},
		{"single dash and =", "'/my home/bin/agentjail-hook' -timeout=1.5s -fail-closed=true", wire.HookFlags{Timeout: "1.5s", FailClosed: true}},
		{"a path named like a flag is not one", "/opt/--fail-closed-tools/agentjail-hook", wire.HookFlags{Timeout: "2s"}},
		{"a bad duration keeps the default", "agentjail-hook --timeout soon", wire.HookFlags{Timeout: "2s"}},
		{"a system hook fails closed", "/usr/local/bin/agentjail-hook --system --agent codex", wire.HookFlags{Timeout: "2s", FailClosed: true}},
		{"unless its line says otherwise", "/usr/local/bin/agentjail-hook --system --fail-closed=false", wire.HookFlags{Timeout: "2s"}},
		{"a quoted path with a blank", `"/Users/a b/.agentjail/bin/agentjail-hook" --timeout 3s`, wire.HookFlags{Timeout: "3s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := *parseHookCommand(tt.cmd); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestHookFlagsInSettings(t *testing.T) {
	tests := []struct {
		name, settings string
		want           *wire.HookFlags
	}{
		{"ours among others", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"audit.sh --timeout 9s"}]},{"matcher":"*","hooks":[{"type":"command","command":"/x/bin/agentjail-hook --timeout 3s"}]}]}}`, &wire.HookFlags{Timeout: "3s"}},
		{"not installed", `{"hooks":{"PreToolUse":[{"hooks":[{"command":"audit.sh --fail-closed"}]}]}}`, nil},
		{"not JSON", `{"hooks":`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := hookFlagsIn([]byte(tt.settings))
			if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestHookProblems(t *testing.T) {
	open := config.Default()
	closed := open
	closed.FailMode = "closed"
	slow := open
	slow.HookTimeout = 5 * time.Second
	tests := []struct {
		name  string
		cfg   config.Config
		hook  *wire.HookFlags
		kinds string
	}{
		{"nothing known", closed, nil, ""},
		{"as installed", open, &wire.HookFlags{Timeout: "2s"}, ""},
		{"closed in both", closed, &wire.HookFlags{Timeout: "2s", FailClosed: true}, ""},
		{"config closed, hook not", closed, &wire.HookFlags{Timeout: "2s"}, "fail_mode"},
		{"hook closed, config open", open, &wire.HookFlags{Timeout: "2s", FailClosed: true}, "fail_mode"},
		{"timeout raised", slow, &wire.HookFlags{Timeout: "2s"}, "hook_timeout"},
		{"both", closed, &wire.HookFlags{Timeout: "3s"}, "hook_timeout fail_mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var kinds []string
			for _, p := range hookProblems(tt.cfg, tt.hook, "/h") {
				kinds = append(kinds, p.Kind)
				if !strings.Contains(p.Fix, "agentjail install") {
					t.Errorf("%s: the fix does not say what to run: %q", p.Kind, p.Fix)
				}
			}
			if got := strings.Join(kinds, " "); got != tt.kinds {
				t.Errorf("problems %q, want %q", got, tt.kinds)
			}
		})
	}
}

func TestRecentFailOpens(t *testing.T) {
	now := time.Now()
	line := func(ago time.Duration, mode string) string {
		return fmt.Sprintf(`{"time":%q,"mode":%q,"error":"e%s"}`+"\n", now.Add(-ago).UTC().Format(time.RFC3339), mode, ago)
	}
	tests := []struct {
		name, log string
		want      int
	}{
		{"none", "", 0},
		{"only old ones", line(2*time.Hour, "open") + line(61*time.Minute, "open"), 0},
		{"a recent one", line(2*time.Hour, "open") + line(5*time.Minute, "open"), 1},
		{"blocked and asked calls are not fail-opens", line(time.Minute, "closed") + line(time.Minute, "ask"), 0},
		{"garbage lines are skipped", "not json\n" + line(time.Minute, "open") + "{\n", 1},
		{"a huge log is read from its end", strings.Repeat(line(3*time.Hour, "open"), 20000) + line(time.Minute, "open"), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hook-failures.jsonl")
			os.WriteFile(path, []byte(tt.log), 0o600)
			fo := recentFailOpens(path, now.Add(-wire.ProblemWindow))
			n, last := fo.n, fo.last
			if n != tt.want {
				t.Errorf("%d recent fail-opens, want %d", n, tt.want)
			}
			if n > 0 && last.Error != "e1m0s" && last.Error != "e5m0s" {
				t.Errorf("last = %+v", last)
			}
		})
	}
}

// The fail-open problem names each cause with its count, and blames the
// daemon only for what is the daemon's: a bad event on stdin is the
// agent's, a removed socket is not "no daemon".
func TestFailOpenProblemNamesTheCause(t *testing.T) {
	now := time.Now().UTC().Format(time.RFC3339)
	rec := func(cause string) string {
		return fmt.Sprintf(`{"time":%q,"mode":"open","cause":%q,"error":"x"}`+"\n", now, cause)
	}
	tests := []struct {
		name, log   string
		want, avoid []string
	}{
		{"bad event only", rec(wire.CauseBadEvent) + rec(wire.CauseBadEvent),
			[]string{"2 calls ran unchecked", "2 because the agent sent an event that is not one JSON object", "check that the hook is wired"},
			[]string{"keep the daemon running", "no daemon"}},
		{"no daemon only", rec(wire.CauseNoDaemon),
			[]string{"1 because no daemon was running", "keep the daemon running"},
			[]string{"the agent sent", "check that the hook is wired"}},
		{"socket gone and bad event", rec(wire.CauseSocketGone) + rec(wire.CauseBadEvent) + rec(wire.CauseSocketGone),
			[]string{"3 calls", "2 because the daemon's socket had been removed", "1 because the agent sent", "keep the daemon running", "check that the hook is wired"},
			[]string{"no daemon was running"}},
		{"an older hook's record", `{"time":"` + now + `","mode":"open","error":"x"}` + "\n",
			[]string{"1 because cause not recorded"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hook-failures.jsonl")
			os.WriteFile(path, []byte(tt.log), 0o600)
			p := failOpenProblem(recentFailOpens(path, time.Now().Add(-wire.ProblemWindow)), "/h")
			text := p.Message + " | " + p.Fix
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q lacks %q", text, w)
				}
			}
			for _, a := range tt.avoid {
				if strings.Contains(text, a) {
					t.Errorf("%q says %q", text, a)
				}
			}
		})
	}
}

// A failed notification is a problem for an hour, unless a later one was
// delivered; none sent, or no notifier at all, is none.
func TestNotifyProblem(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	at := func(ago time.Duration) string { return now.Add(-ago).Format(time.RFC3339) }
	tests := []struct {
		name string
		n    *wire.NotifyStatus
		want bool
	}{
		{"no notifier", nil, false},
		{"none yet", &wire.NotifyStatus{State: wire.NotifyNone}, false},
		{"delivered", &wire.NotifyStatus{State: wire.NotifyDelivered, At: at(time.Minute)}, false},
		{"failed a minute ago", &wire.NotifyStatus{State: wire.NotifyFailed, At: at(time.Minute), Title: "agentjail blocked Bash", Error: "no service"}, true},
		{"failed over an hour ago", &wire.NotifyStatus{State: wire.NotifyFailed, At: at(wire.ProblemWindow + time.Second), Error: "no service"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := notifyProblem(tt.n, nil, now)
			if (p != nil) != tt.want {
				t.Fatalf("problem %+v, want one: %v", p, tt.want)
			}
			if p != nil && (p.Kind != "notifications" || !strings.Contains(p.Message, "no service") || !strings.Contains(p.Message, "agentjail blocked Bash") || !strings.Contains(p.Fix, "notifications: false")) {
				t.Errorf("problem %+v", p)
			}
		})
	}
}

// The problem says where a deny still shows: not the tray when nothing
// shows it.
func TestNotifyProblemSaysWhereDeniesShow(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	n := &wire.NotifyStatus{State: wire.NotifyFailed, At: now.Format(time.RFC3339), Error: "no service"}
	shown, hidden := true, false
	for _, tt := range []struct {
		name  string
		shown *bool
		tray  bool
	}{{"tray shown", &shown, true}, {"cannot tell", nil, true}, {"nothing shows the tray", &hidden, false}} {
		p := notifyProblem(n, tt.shown, now)
		if p == nil || strings.Contains(p.Message, "the tray's menu") != tt.tray {
			t.Errorf("%s: %+v", tt.name, p)
		}
	}
}
