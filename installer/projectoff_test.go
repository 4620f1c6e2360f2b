package installer

import (
	"path/filepath"
	"strings"
	"testing"
)

// A project's own settings that switch an agent's hooks off are found in
// the folder a session starts in and the folders above it, below the
// home; harmless values, other agents' keys and the user's own files
// are not project switches; trust decides the wording where the agent
// gates the file on it; in system mode only what the machine-wide hook
// does not outweigh is left.
func TestProjectOff(t *testing.T) {
	home := t.TempDir()
	t.Setenv("COPILOT_HOME", "")
	t.Setenv("QWEN_HOME", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("GEMINI_CLI_TRUST_WORKSPACE", "")
	setVar(t, &droidSystemSettingsPath, filepath.Join(t.TempDir(), "factory", "settings.json"))
	repo := filepath.Join(home, "src", "repo")
	sub := filepath.Join(repo, "pkg", "x")
	write(t, filepath.Join(repo, ".claude", "settings.json"), `{"disableAllHooks": true}`)
	write(t, filepath.Join(repo, ".qwen", "settings.json"), `{"disableAllHooks": true}`)
	write(t, filepath.Join(repo, ".factory", "settings.json"), `{"hooks": {"hooksDisabled": true}}`)
	write(t, filepath.Join(repo, ".codex", "config.toml"), "[features]\nhooks = false\n")
	write(t, filepath.Join(repo, ".gemini", "settings.json"), `{"hooksConfig": {"disabled": ["agentjail"]}}`)
	write(t, filepath.Join(repo, ".github", "copilot", "settings.json"), `{"disableAllHooks": true}`)
	// The user's own settings and look-alikes are not project switches.
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"disableAllHooks": true}`)
	other := filepath.Join(home, "src", "other")
	write(t, filepath.Join(other, ".claude", "settings.json"), `{"disableAllHooks": false}`)
	write(t, filepath.Join(other, ".factory", "settings.json"), `{"hooksDisabled": true}`) // measured: top level does nothing
	write(t, filepath.Join(other, ".codex", "config.toml"), "[features]\nhooks = true\n")

	o := Options{UserHome: home, Home: filepath.Join(home, ".agentjail")}
	byAgent := func(list []ProjectSwitch) map[string]string {
		m := map[string]string{}
		for _, s := range list {
			m[s.Agent] += s.File + " " + s.Why + "\n"
		}
		return m
	}
	got := byAgent(ProjectOff(o, sub))
	for agent, want := range map[string]string{
		"claude-code": `~/src/repo/.claude/settings.json sets "disableAllHooks": true`,
		"qwen":        `~/src/repo/.qwen/settings.json sets "disableAllHooks": true, so Qwen Code runs no hooks`,
		"droid":       `~/src/repo/.factory/settings.json sets "hooks": {"hooksDisabled": true}`,
		"codex":       "~/src/repo/.codex/config.toml sets hooks = false under [features]; Codex runs no hooks there once you trust the folder",
		"gemini":      `lists "agentjail" in hooksConfig.disabled; Gemini CLI runs no hooks there once you trust the folder`,
		"copilot":     `~/src/repo/.github/copilot/settings.json sets "disableAllHooks": true; Copilot CLI runs no hooks there once you trust the folder`,
	} {
		if !strings.Contains(got[agent], want) {
			t.Errorf("%s: got %q, want %q", agent, got[agent], want)
		}
	}
	if n := len(ProjectOff(o, other)); n != 0 {
		t.Errorf("look-alikes: %d switches: %+v", n, ProjectOff(o, other))
	}
	if n := len(ProjectOff(o, home)); n != 0 {
		t.Errorf("the home's own settings counted as a project's: %+v", ProjectOff(o, home))
	}

	// Trusted, the switch is in force.
	write(t, filepath.Join(home, ".codex", "config.toml"), "[projects.\""+repo+"\"]\ntrust_level = \"trusted\"\n")
	write(t, filepath.Join(home, ".copilot", "config.json"), `{"trustedFolders": ["`+filepath.Join(home, "src")+`"]}`)
	write(t, filepath.Join(home, ".gemini", "trustedFolders.json"), `{"`+repo+`": "TRUST_FOLDER"}`)
	got = byAgent(ProjectOff(o, sub))
	for _, agent := range []string{"codex", "copilot", "gemini"} {
		if !strings.Contains(got[agent], "the folder is trusted, so") {
			t.Errorf("%s trusted: %q", agent, got[agent])
		}
	}
	if s := ProjectOffFor(o, "droid", sub); len(s) != 1 || s[0].Title != "Factory Droid" {
		t.Errorf("ProjectOffFor droid: %+v", s)
	}

	// System mode: the machine-wide hook holds against all but Gemini's
	// disabled list and Droid's switch without allowManagedHooksOnly.
	o.System = true
	got = byAgent(ProjectOff(o, sub))
	if len(got) != 2 || got["gemini"] == "" || got["droid"] == "" {
		t.Errorf("system mode: %v", got)
	}
	write(t, droidSystemSettingsPath, `{"allowManagedHooksOnly": true}`)
	if got = byAgent(ProjectOff(o, sub)); got["droid"] != "" {
		t.Errorf("system mode with allowManagedHooksOnly: %v", got)
	}
}
