package installer

import (
	"bytes"
	"context"
	allAgents "github.com/agentjail/agentjail/agents"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// agentOptions is an install into a throwaway home, binaries from a fake
// build, without touching any service.
func agentOptions(t *testing.T, agents ...string) Options {
	t.Helper()
	home := t.TempDir()
	src := t.TempDir()
	for _, b := range Binaries {
		os.WriteFile(filepath.Join(src, b), []byte("#!/bin/sh\n"), 0o755)
	}
	// No variable of the caller's moves an agent's configuration.
	t.Setenv("XDG_CONFIG_HOME", "")
	for _, a := range allAgents.All {
		for _, r := range a.Roots {
			if r.Var != "HOME" && r.Var != "XDG_CONFIG_HOME" {
				t.Setenv(r.Var, "")
			}
		}
	}
	return Options{
		Home: filepath.Join(home, ".agentjail"), UserHome: home, SourceDir: src,
		Socket: filepath.Join(home, ".agentjail", "agentjail.sock"), KeepService: true,
		Agents: agents, Out: &bytes.Buffer{},
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

// Each agent: install into files the user already has, keep everything
// else, do nothing the second time, and give every file back byte for
// byte on uninstall (files install created are removed).
func TestAgentInstallRoundTrip(t *testing.T) {
	tests := []struct {
		name     string
		agent    string
		existing map[string]string // relative to the home
		check    func(t *testing.T, o Options)
	}{
		{"codex, TOML with comments kept", "codex", map[string]string{
			".codex/config.toml": "# my settings\nmodel = \"o4\"  # inline comment\n\n[projects.\"/work/p\"]\ntrust_level = \"trusted\"\n",
		}, func(t *testing.T, o Options) {
			cfg := read(t, o.codexConfigPath())
			if !strings.HasPrefix(cfg, "# my settings\nmodel = \"o4\"  # inline comment\n\n[projects.\"/work/p\"]\ntrust_level = \"trusted\"\n") {
				t.Errorf("config.toml lost the user's text:\n%s", cfg)
			}
			hooks, _ := os.ReadFile(o.codexHooksPath())
			key, hash, err := CodexTrust(o.codexHooksPath(), hooks)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(cfg, trustHeader(key)+"\ntrusted_hash = \""+hash+"\"\n") {
				t.Errorf("config.toml lacks the trust of %s:\n%s", key, cfg)
			}
			if !strings.Contains(string(hooks), "--agent codex") {
				t.Errorf("hooks.json: %s", hooks)
			}
		}},
		{"codex, neither file there", "codex", nil, nil},
		{"gemini, JSONC with comments kept", "gemini", map[string]string{
			".gemini/settings.json": "{\n  // my theme\n  \"theme\": \"dark\", /* trailing */\n  \"hooks\": {\n    \"AfterTool\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"log.sh\"}]}], // mine\n  },\n}\n",
		}, func(t *testing.T, o Options) {
			s := read(t, o.geminiSettingsPath())
			for _, want := range []string{"// my theme", "/* trailing */", "// mine", "log.sh", `"BeforeTool"`, "--agent gemini", "--agent gemini --post", `"agentjail-post"`, `"matcher": "*"`, "\n    \"BeforeTool\": [\n      {\n"} {
				if !strings.Contains(s, want) {
					t.Errorf("settings.json lacks %q:\n%s", want, s)
				}
			}
		}},
		{"gemini, no file", "gemini", nil, nil},
		{"copilot", "copilot", map[string]string{".copilot/hooks/mine.json": "{\"version\":1,\"hooks\":{}}"}, func(t *testing.T, o Options) {
			s := read(t, o.copilotHooksPath())
			if !strings.Contains(s, `"preToolUse"`) || !strings.Contains(s, "--agent copilot") || !strings.Contains(s, `"bash"`) || !strings.Contains(s, `"postToolUse"`) || !strings.Contains(s, "--agent copilot --post") {
				t.Errorf("agentjail.json:\n%s", s)
			}
		}},
		{"cursor, other hooks kept", "cursor", map[string]string{
			".cursor/hooks.json": "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{\"command\": \"fmt.sh\"}],\n    \"beforeShellExecution\": [{\"command\": \"audit.sh\"}]\n  }\n}\n",
		}, func(t *testing.T, o Options) {
			s := read(t, o.cursorHooksPath())
			for _, e := range []string{"preToolUse", "beforeShellExecution", "beforeReadFile", "beforeMCPExecution", "postToolUse"} {
				if !strings.Contains(s, `"`+e+`"`) {
					t.Errorf("hooks.json lacks %s:\n%s", e, s)
				}
			}
			if strings.Count(s, "--agent cursor") != 5 || strings.Count(s, "--agent cursor --post") != 1 || !strings.Contains(s, "audit.sh") || !strings.Contains(s, "fmt.sh") || strings.Contains(s, "failClosed") {
				t.Errorf("hooks.json:\n%s", s)
			}
		}},
		{"cursor, no file", "cursor", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := agentOptions(t, tt.agent)
			for rel, content := range tt.existing {
				write(t, filepath.Join(o.UserHome, rel), content)
			}
			parts, _ := o.parts()
			var files []string
			for _, p := range parts {
				files = append(files, p.known(o)...)
			}
			before := map[string]string{}
			for _, f := range files {
				before[f] = read(t, f)
			}
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if tt.check != nil {
				tt.check(t, o)
			}
			after := map[string]string{}
			for _, f := range files {
				after[f] = read(t, f)
			}
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if read(t, f) != after[f] {
					t.Errorf("a second install changed %s", f)
				}
			}
			o.DryRun = false
			if err := Uninstall(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if got := read(t, f); got != before[f] {
					t.Errorf("uninstall left %s\n%s\nwant\n%s", f, got, before[f])
				}
			}
		})
	}
}

// A file changed after install loses only agentjail's entries, comments
// and the user's new edits kept.
func TestAgentUninstallAfterUserEdits(t *testing.T) {
	o := agentOptions(t, "gemini", "cursor", "codex")
	write(t, o.geminiSettingsPath(), "{\n  // keep me\n  \"theme\": \"dark\"\n}\n")
	write(t, o.codexConfigPath(), "model = \"o4\"\n")
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	g := read(t, o.geminiSettingsPath())
	write(t, o.geminiSettingsPath(), strings.Replace(g, "\"theme\": \"dark\"", "\"theme\": \"light\"", 1))
	c := read(t, o.cursorHooksPath())
	write(t, o.cursorHooksPath(), c+"\n")
	write(t, o.codexConfigPath(), read(t, o.codexConfigPath())+"\n[tui]\nnotifications = true\n")
	if err := Uninstall(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := read(t, o.geminiSettingsPath()); strings.Contains(got, "agentjail") || !strings.Contains(got, "// keep me") || !strings.Contains(got, "light") {
		t.Errorf("gemini settings after uninstall:\n%s", got)
	}
	if got := read(t, o.cursorHooksPath()); strings.Contains(got, "agentjail-hook") {
		t.Errorf("cursor hooks after uninstall:\n%s", got)
	}
	if got := read(t, o.codexConfigPath()); got != "model = \"o4\"\n\n[tui]\nnotifications = true\n" {
		t.Errorf("codex config after uninstall:\n%q", got)
	}
}

// The hash Codex 0.169.0 reported through `codex app-server` hooks/list
// for this hooks.json: the installer must compute the same.
func TestCodexTrustMatchesCodex(t *testing.T) {
	hooks := `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/x/agentjail-hook --agent codex","timeout":5}]}]}}`
	key, hash, err := CodexTrust("/tmp/cx/home/hooks.json", []byte(hooks))
	if err != nil {
		t.Fatal(err)
	}
	if key != "/tmp/cx/home/hooks.json:pre_tool_use:0:0" || hash != "sha256:c979593f35948b990589efb3b61acfa44a1bd3167e0d557f359f179e0f361997" {
		t.Errorf("key %s hash %s", key, hash)
	}
	// Another hook first moves ours to the second group; the hash
	// follows the command, timeout and matcher.
	hooks2 := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"audit.sh"}]},{"matcher":"*","hooks":[{"type":"command","command":"/x/agentjail-hook --agent codex","timeout":6}]}]}}`
	key2, hash2, _ := CodexTrust("/h/hooks.json", []byte(hooks2))
	if key2 != "/h/hooks.json:pre_tool_use:1:0" || hash2 == hash {
		t.Errorf("key %s hash %s", key2, hash2)
	}
}

func TestAgentInstallRefusesBrokenFiles(t *testing.T) {
	tests := []struct{ name, agent, rel, content, want string }{
		{"codex toml", "codex", ".codex/config.toml", "model = \"o4\"\n[broken\n", "config.toml:2:"},
		{"codex hooks.json", "codex", ".codex/hooks.json", "{\"hooks\": [}", "hooks.json:1:"},
		{"gemini", "gemini", ".gemini/settings.json", "{\n  \"theme\": \n}", "settings.json"},
		{"cursor", "cursor", ".cursor/hooks.json", "{\"version\": 1,,}", "hooks.json:1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := agentOptions(t, tt.agent)
			path := filepath.Join(o.UserHome, tt.rel)
			write(t, path, tt.content)
			err := Install(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want one naming %q", err, tt.want)
			}
			if read(t, path) != tt.content {
				t.Errorf("the broken file was changed")
			}
			if _, err := os.Stat(o.Home); err == nil {
				if _, err := os.Stat(filepath.Join(o.Home, "bin", "agentjail-hook")); err == nil {
					t.Errorf("binaries installed although a file was refused")
				}
			}
		})
	}
}

func TestCursorFailClosedUsesItsKnob(t *testing.T) {
	o := agentOptions(t, "cursor")
	o.FailClosed = true
	o.HookTimeout = 3 * time.Second
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	s := read(t, o.cursorHooksPath())
	if strings.Count(s, `"failClosed": true`) != 4 || !strings.Contains(s, "--fail-closed") {
		t.Errorf("hooks.json:\n%s", s)
	}
}

func TestInstallAllSaysWhatItFound(t *testing.T) {
	o := agentOptions(t, "all")
	t.Setenv("PATH", t.TempDir())
	os.MkdirAll(filepath.Join(o.UserHome, ".gemini"), 0o755)
	os.MkdirAll(filepath.Join(o.UserHome, ".cursor"), 0o755)
	if got := strings.Join(FoundAgents(o), ","); got != "gemini,cursor" {
		t.Fatalf("found %s", got)
	}
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if read(t, o.geminiSettingsPath()) == "<missing>" || read(t, o.cursorHooksPath()) == "<missing>" || read(t, o.SettingsPath()) != "<missing>" {
		t.Errorf("all installed the wrong agents")
	}
}

// Agents says which agents are found and which already have the hook,
// as install leaves them: installing one wires it and no other; a Codex
// hook whose trust is gone is not wired (Codex would not run it).
func TestAgentsFoundAndWired(t *testing.T) {
	o := agentOptions(t)
	t.Setenv("PATH", t.TempDir())
	// The agents after the first five are found nowhere here.
	others := " " + strings.Join(AgentNames()[5:], " ")
	state := func() string {
		var out []string
		for _, a := range Agents(o) {
			if a.Title == "" {
				t.Errorf("%s has no title", a.Name)
			}
			s := a.Name
			if a.Found {
				s += "+found"
			}
			if a.Wired {
				s += "+wired"
			}
			out = append(out, s)
		}
		return strings.Join(out, " ")
	}
	if got := state(); got != "claude-code codex gemini copilot cursor"+others {
		t.Fatalf("nothing on the machine: %s", got)
	}
	os.MkdirAll(filepath.Join(o.UserHome, ".codex"), 0o755)
	os.MkdirAll(filepath.Join(o.UserHome, ".gemini"), 0o755)
	write(t, o.geminiSettingsPath(), "{\n  // mine\n  \"theme\": \"dark\"\n}\n")
	if got := state(); got != "claude-code codex+found gemini+found copilot cursor"+others {
		t.Fatalf("codex and gemini found: %s", got)
	}
	o.Agents = []string{"codex"}
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := state(); got != "claude-code codex+found+wired gemini+found copilot cursor"+others {
		t.Fatalf("after installing codex: %s", got)
	}
	o.Agents = []string{"all"}
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := state(); got != "claude-code codex+found+wired gemini+found+wired copilot cursor"+others {
		t.Fatalf("after installing all: %s", got)
	}
	// Codex's trust removed by hand: the hook is there but would not run.
	cfg := o.codexConfigPath()
	trimmed, _, err := removeCodexTrust(cfg, []byte(read(t, cfg)))
	if err != nil {
		t.Fatal(err)
	}
	write(t, cfg, string(trimmed))
	if got := state(); got != "claude-code codex+found gemini+found+wired copilot cursor"+others {
		t.Fatalf("codex without its trust: %s", got)
	}
	// A broken settings file is not wired.
	write(t, o.geminiSettingsPath(), "{ broken")
	if got := state(); got != "claude-code codex+found gemini+found copilot cursor"+others {
		t.Fatalf("broken gemini settings: %s", got)
	}
}

// Someone else's change between two installs (here Codex's own line in
// config.toml) is kept at uninstall: the file is no longer restored from
// the backup taken before the first install.
func TestReinstallAfterUserEditKeepsEdit(t *testing.T) {
	o := agentOptions(t, "codex")
	write(t, o.codexConfigPath(), "model = \"o4\"\n")
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	write(t, o.codexConfigPath(), read(t, o.codexConfigPath())+"\n[tui]\nnotifications = true\n")
	o.FailClosed = true // the hook entry and its trust are rewritten
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if err := Uninstall(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := read(t, o.codexConfigPath()); got != "model = \"o4\"\n\n[tui]\nnotifications = true\n" {
		t.Errorf("config.toml after uninstall:\n%q", got)
	}
}
