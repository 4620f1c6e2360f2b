package installer

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/agentjail/agentjail/internal/hookcmd"
)

// setSystemPaths points every agent's machine-wide file into a folder of
// the test's, and returns it.
func setSystemPaths(t *testing.T) string {
	sys := t.TempDir()
	setVar(t, &claudeManagedDir, filepath.Join(sys, "claude-code"))
	setVar(t, &geminiSystemSettingsPath, filepath.Join(sys, "gemini-cli", "settings.json"))
	setVar(t, &cursorSystemHooksPath, filepath.Join(sys, "cursor", "hooks.json"))
	setVar(t, &copilotPolicyDir, filepath.Join(sys, "github-copilot", "policy.d"))
	setVar(t, &codexRequirements, filepath.Join(sys, "codex", "requirements.toml"))
	setVar(t, &copilotManagedSettings, filepath.Join(sys, "github-copilot", "managed-settings.json"))
	setVar(t, &qwenSystemSettingsPath, filepath.Join(sys, "qwen-code", "settings.json"))
	setVar(t, &droidSystemSettingsPath, filepath.Join(sys, "factory", "settings.json"))
	t.Setenv("QWEN_CODE_SYSTEM_SETTINGS_PATH", "")
	return sys
}

// hookUsesOf reads the hook commands, and the entry holding each, out of
// a file install writes, as the checks of status read them; Codex's
// machine-wide requirements.toml is read through JSON.
func hookUsesOf(t *testing.T, path string, text []byte) []hookUse {
	t.Helper()
	switch {
	case isPiExtension(path):
		text = piConfigOf(text)
	case filepath.Ext(path) == ".toml":
		var doc any
		if err := toml.Unmarshal(text, &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		text, _ = json.Marshal(doc)
	}
	return hookCommandsIn(text)
}

// Every agent's hook runs with config.yaml's approval_timeout as --hold
// (none with 0), and every agent's own timeout, read back as status
// reads it, is agentTimeout and above the longest run of the hook: the
// hook's deadline, the hold and wire.HoldSlack. Cline's bound is its own
// (120 s), so its hold is cut short to fit under it.
func TestHoldAndAgentTimeouts(t *testing.T) {
	tests := []struct {
		name            string
		hook, hold      time.Duration
		wantHold        string // the --hold written; "" none
		clineHold       string // Cline's, where it differs
		wantAgentWaits  time.Duration
		wantCommandPart string
	}{
		{name: "no hold", wantAgentWaits: 5 * time.Second},
		{name: "hold 60s", hold: 60 * time.Second, wantHold: "1m0s", wantAgentWaits: 67 * time.Second},
		{name: "hold 90s", hold: 90 * time.Second, wantHold: "1m30s", wantAgentWaits: 97 * time.Second},
		{name: "hook 4.5s, hold 60s", hook: 4500 * time.Millisecond, hold: 60 * time.Second, wantHold: "1m0s", wantAgentWaits: 70 * time.Second, wantCommandPart: " --timeout 4.5s --hold 1m0s"},
		{name: "hold 10m, Cline's cut short", hold: 10 * time.Minute, wantHold: "10m0s", clineHold: "1m53s", wantAgentWaits: 10*time.Minute + 7*time.Second},
	}
	for _, tt := range tests {
		for _, system := range []bool{false, true} {
			name := tt.name
			if system {
				name += ", system"
			}
			t.Run(name, func(t *testing.T) {
				o := agentOptions(t, AgentNames()...)
				if system {
					setSystemPaths(t)
					o.System = true
				}
				o.HookTimeout, o.ApprovalTimeout, o.FailClosed = tt.hook, tt.hold, true
				if got := o.agentTimeout(); got != tt.wantAgentWaits {
					t.Errorf("agentTimeout %v, want %v", got, tt.wantAgentWaits)
				}
				checked := 0
				for _, p := range agentParts {
					for _, e := range p.edits(o) {
						if e.setting || !o.System && filepath.Ext(e.path) == ".toml" {
							continue // a setting beside the hook; Codex's trust
						}
						text, err := e.add(nil)
						if err != nil {
							t.Fatalf("%s: %v", e.path, err)
						}
						uses := hookUsesOf(t, e.path, text)
						if len(uses) == 0 {
							t.Fatalf("%s: no hook command in\n%s", e.path, text)
						}
						for _, u := range uses {
							checked++
							checkHold(t, p.name(), e.path, u, tt.wantHold, tt.clineHold, tt.wantAgentWaits)
							if tt.wantCommandPart != "" && !strings.Contains(u.command, tt.wantCommandPart) {
								t.Errorf("%s: command %q lacks %q", e.path, u.command, tt.wantCommandPart)
							}
						}
					}
				}
				if checked == 0 {
					t.Fatal("no entry checked")
				}
			})
		}
	}
}

func checkHold(t *testing.T, name, path string, u hookUse, wantHold, clineHold string, wantAgentWaits time.Duration) {
	t.Helper()
	f := hookcmd.ParseLine(u.command).Flags
	want := wantHold
	if name == "cline" && clineHold != "" {
		want = clineHold
	}
	got := ""
	if f.Hold > 0 {
		got = f.Hold.String()
	}
	if got != want || (want == "") == strings.Contains(u.command, "--hold") {
		t.Errorf("%s (%s): --hold %q, want %q: %s", name, path, got, want, u.command)
	}
	hold, hook := f.Hold, f.Timeout
	if f.Post {
		// The post-tool entry: nothing is held after a call ran, so the
		// agent waits for the hook's deadline and the margin alone.
		hold = 0
		wantAgentWaits = time.Duration(math.Ceil(hookRun(hook, 0).Seconds()))*time.Second + agentMargin
	}
	a := facts(agentPartNamed(name)).HookTimeout
	var own time.Duration
	switch {
	case a.Key != "":
		n, ok := u.entry[a.Key].(float64)
		if !ok {
			t.Fatalf("%s (%s): no %q in the entry %v", name, path, a.Key, u.entry)
		}
		own = time.Duration(n * float64(a.Unit))
		if own != wantAgentWaits {
			t.Errorf("%s (%s): %s %v, want %v", name, path, a.Key, own, wantAgentWaits)
		}
	case a.Fixed > 0:
		own = a.Fixed
	default:
		return // an agent whose bound we neither set nor know (Cursor)
	}
	if run := hookRun(hook, hold); own < run+agentMargin {
		t.Errorf("%s (%s): the agent waits %v, the hook may take %v", name, path, own, run)
	}
	if p := agentTimeoutProblem(name, u, f, hold); p != "" {
		t.Errorf("%s (%s): %s", name, path, p)
	}
}

func agentPartNamed(name string) agentPart {
	for _, p := range agentParts {
		if p.name() == name {
			return p
		}
	}
	return nil
}

// The agents whose own timeout install sets all have one in their
// facts, so the checks of status can read it back.
func TestAgentsHaveATimeout(t *testing.T) {
	for _, p := range agentParts {
		a := facts(p).HookTimeout
		switch {
		case p.name() == "cursor":
			// Cursor documents no timeout of its hooks: its entry gets
			// none, and its bound is not judged.
			if a.Key != "" || a.Fixed != 0 {
				t.Errorf("cursor: %+v", a)
			}
		case a.Key == "" && a.Fixed == 0:
			t.Errorf("%s has no hook timeout in its facts", p.name())
		case a.Key != "" && a.Unit <= 0:
			t.Errorf("%s: the key %q has no unit", p.name(), a.Key)
		}
	}
}

// Status says when the installed hook's hold is not config.yaml's
// approval_timeout, and when an agent's own timeout no longer leaves the
// hook room for its hold; install puts both right.
func TestHoldProblems(t *testing.T) {
	o := agentOptions(t, AgentNames()...)
	t.Setenv("PATH", t.TempDir())
	o.ApprovalTimeout = 60 * time.Second
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	problems := func(oo Options) map[string][]string {
		out := map[string][]string{}
		for _, a := range Agents(oo) {
			if len(a.Problems) > 0 {
				out[a.Name] = a.Problems
			}
		}
		return out
	}
	if p := problems(o); len(p) != 0 {
		t.Fatalf("as installed: %v", p)
	}
	tests := []struct {
		name string
		hold time.Duration
		want string
	}{
		{"config holds longer", 90 * time.Second, "has --hold 1m0s but config.yaml sets approval_timeout 1m30s, which install writes as --hold 1m30s: run `agentjail install`"},
		{"config holds nothing", 0, "has --hold 1m0s but config.yaml sets approval_timeout 0s, which install writes as no --hold: run `agentjail install`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oo := o
			oo.ApprovalTimeout = tt.hold
			p := problems(oo)
			for _, name := range AgentNames() {
				if len(p[name]) != hookFiles(name) || !strings.Contains(p[name][0], tt.want) {
					t.Errorf("%s: %v", name, p[name])
				}
			}
		})
	}

	// Claude Code's timeout cut by hand below the hold.
	settings := read(t, o.SettingsPath())
	write(t, o.SettingsPath(), strings.Replace(settings, `"timeout": 67`, `"timeout": 30`, 1))
	p := problems(o)
	if len(p) != 1 || len(p["claude-code"]) != 1 || !strings.Contains(p["claude-code"][0], "Claude Code stops the hook after 30s, but the hook may take 1m6s (--timeout 2s, 2s more for a daemon that is starting, --hold 1m0s)") {
		t.Errorf("Claude Code's timeout below the hold: %v", p)
	}
	write(t, o.SettingsPath(), settings)

	// A hook installed before holds: no --hold, timeouts of 5s.
	old := o
	old.ApprovalTimeout = 0
	if err := Install(context.Background(), old); err != nil {
		t.Fatal(err)
	}
	p = problems(o)
	for _, name := range AgentNames() {
		if len(p[name]) != hookFiles(name) || !strings.Contains(p[name][0], "has no --hold but config.yaml sets approval_timeout 1m0s, which install writes as --hold 1m0s") {
			t.Errorf("%s: %v", name, p[name])
		}
	}
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if p := problems(o); len(p) != 0 {
		t.Errorf("after install again: %v", p)
	}
}

// Claude Code's settings as install writes them with a hold: the
// command's --hold and the entry's timeout above it; the PostToolUse
// entry's timeout short, as nothing is held after a call ran.
func TestHoldGolden(t *testing.T) {
	user := "{\n  \"model\": \"opus\"\n}\n"
	o := Options{Home: "/home/u/.agentjail", FailClosed: true, ApprovalTimeout: 60 * time.Second}
	got, err := o.addHooks("claude-code", "settings.json", []byte(user), o.entry())
	if err != nil {
		t.Fatal(err)
	}
	sameAsGolden(t, "hold.golden.json", got)
}

// sameAsGolden compares got with testdata/name (written anew with
// -update).
func sameAsGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if *update {
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./installer -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s:\ngot\n%s\nwant\n%s", name, got, want)
	}
}

// hookFiles is how many files install writes an agent's hook entries
// into, each of which is named in a problem of its own: Cline's hooks
// are a file per event.
func hookFiles(name string) int {
	if name == "cline" {
		return 2
	}
	return 1
}
