package e2e

// Project-level switches that turn hooks off, measured with the real,
// pinned CLIs (headless, against the fake model APIs): the user has
// installed agentjail's hook at user level (`agentjail install --for
// AGENT` in a throwaway HOME), then runs the agent in a cloned
// repository that ships a settings file switching hooks off. Does the
// agent still run the hook on a shell call? Each case has a control (the
// same project without the file) in which the hook runs once.
//
// Claude Code 2.1.330 (`claude -p`):
//   - .claude/settings.json {"disableAllHooks": true}: hook NOT run,
//     whether or not ~/.claude.json marks the folder's trust dialog
//     accepted (-p asks for no trust).
//   - .claude/settings.local.json, the same: hook NOT run, trusted or not.
// Gemini CLI 0.61.0 (`gemini -p --yolo`):
//   - .gemini/settings.json {"hooksConfig": {"enabled": false}}: hook NOT
//     run in a trusted folder (GEMINI_CLI_TRUST_WORKSPACE=true, or
//     TRUST_FOLDER in ~/.gemini/trustedFolders.json), nor with the
//     folder-trust feature off in the user's settings
//     (security.folderTrust.enabled: false).
//   - .gemini/settings.json {"hooksConfig": {"disabled": ["agentjail"]}}
//     (the name install gives our entry): hook NOT run, trusted.
//   - An untrusted folder (no entry, or DO_NOT_TRUST): headless Gemini
//     refuses to run at all (exit 55, "not running in a trusted
//     directory"), file or no file: no tool call, no hook.
// Codex 0.169.0 (`codex exec`):
//   - .codex/config.toml [features] hooks = false: hook NOT run when
//     ~/.codex/config.toml has [projects."<dir>"] trust_level =
//     "trusted"; the hook RUNS with no trust entry or trust_level =
//     "untrusted" (the project's config is not loaded). The same lines
//     in the user's config.toml stop it (the key is right).
// Qwen Code 0.24.4:
//   - .qwen/settings.json {"disableAllHooks": true}: hook NOT run with
//     the folder-trust feature off (the default, no trust step), nor
//     with it on and the folder in ~/.qwen/trustedFolders.json; with it
//     on and the folder untrusted the hook RUNS (project settings are
//     not loaded).
// Factory Droid 0.225.1 (binary 0.225.2, `droid exec`), no trust step:
//   - .factory/settings.json {"hooks": {"hooksDisabled": true}}: hook NOT
//     run.
//   - .factory/settings.json {"hooksDisabled": true} (top level): the
//     hook RUNS.
// Copilot CLI 1.0.102 (`copilot -p --allow-all-tools`): it reads
//   .github/copilot/settings.json, .github/copilot/settings.local.json
//   and, for some keys, a Claude-compatible .claude/settings.json.
//   - Each of the three with {"disableAllHooks": true}: hook NOT run when
//     the folder is in "trustedFolders" of ~/.copilot/config.json; the
//     hook RUNS when it is not (and trustedFolders in settings.json does
//     not count as trust).
//   - {"disableAllHooks": true} in the user's ~/.copilot/settings.json,
//     trusted folder or not: the hook RUNS (headless, this version).

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// offCase is one project an agent runs in: the files the project ships
// (paths relative to its root), what the user has done at user level
// (trusted the folder, say), and what was measured: whether the agent
// ran the user-level hook on the one shell call the model made there,
// or refused to run in the folder at all.
type offCase struct {
	name    string
	files   map[string]string
	setup   func(t *testing.T, dir string) // nil: nothing; the user files it changes are put back after the run
	ran     bool                           // measured: the hook ran (once)
	refused bool                           // measured: the agent did not run in this folder (no tool call, no hook)
}

// offProject makes a project folder as a cloned repository would be:
// a git repository whose one commit holds a README and files.
func offProject(t *testing.T, e *env, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(e.home, "projects", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files = mergeFiles(map[string]string{"README.md": "hello\n"}, files)
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	environ := append(e.environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_NOSYSTEM=1")
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "clone"}} {
		if r := runProcess(t, environ, dir, "git", args, 20*time.Second); r.code != 0 {
			t.Fatalf("git %v: %s%s", args, r.stdout, r.stderr)
		}
	}
	return dir
}

func mergeFiles(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// runOffCases runs each case in a project of its own. run has the agent
// make its one shell call there and returns its result and the number of
// tool results the model got back; the pre-tool hook calls are counted.
// userFiles are put back as they were after each case.
func runOffCases(t *testing.T, e *env, rec *hookRecorder, cases []offCase, userFiles []string, run func(t *testing.T, dir string) (result, int)) {
	t.Helper()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := offProject(t, e, fmt.Sprintf("p%d", i), c.files)
			saved := takeSnapshot(userFiles...)
			defer func() {
				for p, b := range saved {
					if b == nil {
						os.Remove(p)
					} else {
						os.WriteFile(p, b, 0o600)
					}
				}
			}()
			if c.setup != nil {
				c.setup(t, dir)
			}
			rec.reset()
			r, results := run(t, dir)
			out := r.stdout + r.stderr
			switch {
			case c.refused && (r.code == 0 || results != 0):
				t.Fatalf("want the agent to refuse the folder (measured); exit %d, %d tool results\n%s", r.code, results, out)
			case !c.refused && (r.code != 0 || results != 1):
				t.Fatalf("exit %d, %d tool results, want exit 0 and one\n%s", r.code, results, out)
			}
			switch n := len(rec.calls()); {
			case c.ran && n != 1:
				t.Errorf("the agent ran the hook %d times, want once (measured)", n)
			case !c.ran && n != 0:
				t.Errorf("the agent ran the hook %d times, want never (measured)", n)
			}
		})
	}
}

// patchJSON decodes a JSON settings file, lets edit change it and writes
// it back.
func patchJSON(t *testing.T, path string, edit func(doc map[string]any)) {
	t.Helper()
	doc := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	edit(doc)
	b, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// object is doc[key] as an object, made when missing.
func object(doc map[string]any, key string) map[string]any {
	m, ok := doc[key].(map[string]any)
	if !ok {
		m = map[string]any{}
		doc[key] = m
	}
	return m
}

const disableAllHooks = "{\"disableAllHooks\": true}\n"

func TestProjectHooksOffSwitches(t *testing.T) {
	t.Run("claude-code", projectOffClaude)
	t.Run("gemini", projectOffGemini)
	t.Run("codex", projectOffCodex)
	t.Run("qwen", projectOffQwen)
	t.Run("droid", projectOffDroid)
	t.Run("copilot", projectOffCopilot)
}

func projectOffClaude(t *testing.T) {
	claude := claudeBinary(t)
	e := newEnv(t)
	api := startFakeAPI(t)
	claudeJSON := filepath.Join(e.home, ".claude.json")
	os.WriteFile(claudeJSON, []byte("{}"), 0o600)
	os.MkdirAll(filepath.Join(e.home, ".claude"), 0o700) // Claude Code is here: install wires it
	installFor(t, e, "claude-code")
	rec := recordHook(t, e)
	// The folder's trust dialog accepted, as Claude Code keeps it.
	trusted := func(t *testing.T, dir string) {
		os.WriteFile(claudeJSON, []byte(fmt.Sprintf(`{"projects": {%q: {"hasTrustDialogAccepted": true}}}`, dir)), 0o600)
	}
	shared := map[string]string{".claude/settings.json": disableAllHooks}
	local := map[string]string{".claude/settings.local.json": disableAllHooks}
	cases := []offCase{
		{name: "control", ran: true},
		{name: "control trusted", setup: trusted, ran: true},
		{name: ".claude/settings.json", files: shared},
		{name: ".claude/settings.json trusted", files: shared, setup: trusted},
		{name: ".claude/settings.local.json", files: local},
		{name: ".claude/settings.local.json trusted", files: local, setup: trusted},
	}
	runOffCases(t, e, rec, cases, []string{claudeJSON}, func(t *testing.T, dir string) (result, int) {
		api.script("Bash", map[string]any{"command": harmless, "description": "Say it"})
		r := runProcess(t, claudeEnv(e, api), dir, claude,
			[]string{"-p", "Do the task.", "--output-format", "json", "--permission-mode", "default"}, 90*time.Second)
		return r, len(api.received())
	})
}

func projectOffGemini(t *testing.T) {
	gemini := agentCLI(t, "gemini")
	e := newEnv(t)
	api := startFakeModel(t)
	settingsPath := filepath.Join(e.home, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(settingsPath), 0o700)
	os.WriteFile(settingsPath, []byte(`{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}
}
`), 0o600)
	installFor(t, e, "gemini")
	rec := recordHook(t, e)
	trustedFolders := filepath.Join(e.home, ".gemini", "trustedFolders.json")
	folder := func(level string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			os.WriteFile(trustedFolders, []byte(fmt.Sprintf("{%q: %q}\n", dir, level)), 0o600)
		}
	}
	// The headless bypass the other Gemini tests use.
	var byEnv []string
	envTrust := func(*testing.T, string) { byEnv = []string{"GEMINI_CLI_TRUST_WORKSPACE=true"} }
	// The folder-trust feature switched off in the user's settings.
	noFeature := func(t *testing.T, dir string) {
		patchJSON(t, settingsPath, func(doc map[string]any) {
			object(object(doc, "security"), "folderTrust")["enabled"] = false
		})
	}
	off := map[string]string{".gemini/settings.json": `{"hooksConfig": {"enabled": false}}` + "\n"}
	named := map[string]string{".gemini/settings.json": `{"hooksConfig": {"disabled": ["agentjail"]}}` + "\n"}
	cases := []offCase{
		{name: "control GEMINI_CLI_TRUST_WORKSPACE", setup: envTrust, ran: true},
		{name: "enabled false GEMINI_CLI_TRUST_WORKSPACE", files: off, setup: envTrust},
		{name: "disabled agentjail GEMINI_CLI_TRUST_WORKSPACE", files: named, setup: envTrust},
		{name: "control trustedFolders.json", setup: folder("TRUST_FOLDER"), ran: true},
		{name: "enabled false trustedFolders.json", files: off, setup: folder("TRUST_FOLDER")},
		{name: "disabled agentjail trustedFolders.json", files: named, setup: folder("TRUST_FOLDER")},
		{name: "control folder trust off", setup: noFeature, ran: true},
		{name: "enabled false folder trust off", files: off, setup: noFeature},
		{name: "control untrusted", refused: true},
		{name: "enabled false untrusted", files: off, refused: true},
		{name: "enabled false DO_NOT_TRUST", files: off, setup: folder("DO_NOT_TRUST"), refused: true},
	}
	runOffCases(t, e, rec, cases, []string{settingsPath, trustedFolders}, func(t *testing.T, dir string) (result, int) {
		defer func() { byEnv = nil }()
		api.script(&modelCall{Name: "run_shell_command", Args: map[string]any{"command": harmless}})
		r := runProcess(t, agentEnv(e, append([]string{
			"GOOGLE_GEMINI_BASE_URL=" + api.url,
			"GEMINI_API_KEY=x",
			"GEMINI_CLI_NO_RELAUNCH=true",
		}, byEnv...)...), dir, gemini, []string{"-p", "Do the task.", "--yolo", "-m", geminiModel}, 120*time.Second)
		return r, len(api.received())
	})
}

func projectOffCodex(t *testing.T) {
	codex := agentCLI(t, "codex")
	e := newEnv(t)
	api := startFakeModel(t)
	_, configPath, _ := writeCodexHome(t, e, api, "")
	installFor(t, e, "codex")
	rec := recordHook(t, e)
	appendConfig := func(t *testing.T, text string) {
		cur, err := os.ReadFile(configPath)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(configPath, append(cur, "\n"+text...), 0o600)
	}
	trustLevel := func(level string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			appendConfig(t, fmt.Sprintf("[projects.%q]\ntrust_level = %q\n", dir, level))
		}
	}
	const switchOff = "[features]\nhooks = false\n"
	off := map[string]string{".codex/config.toml": switchOff}
	cases := []offCase{
		{name: "control", ran: true},
		{name: "control trusted", setup: trustLevel("trusted"), ran: true},
		{name: ".codex/config.toml no trust entry", files: off, ran: true},
		{name: ".codex/config.toml untrusted", files: off, setup: trustLevel("untrusted"), ran: true},
		{name: ".codex/config.toml trusted", files: off, setup: trustLevel("trusted")},
		// The same switch in the user's own config.toml: the key is right.
		{name: "user config.toml", setup: func(t *testing.T, dir string) { appendConfig(t, switchOff) }},
	}
	runOffCases(t, e, rec, cases, []string{configPath}, func(t *testing.T, dir string) (result, int) {
		api.script(&modelCall{Name: "exec_command", Args: map[string]any{"cmd": harmless}})
		r := runProcess(t, agentEnv(e, "FAKE_MODEL_KEY=x"), dir, codex,
			[]string{"exec", "--skip-git-repo-check", "-s", "danger-full-access", "Do the task."}, 90*time.Second)
		return r, len(api.received())
	})
}

func projectOffQwen(t *testing.T) {
	qwen := agentCLI(t, "qwen")
	node, err := filepath.Abs(filepath.Join("..", ".tools", "node", "node_modules", ".bin"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	api := startFakeModel(t)
	settingsPath := filepath.Join(e.home, ".qwen", "settings.json")
	os.MkdirAll(filepath.Dir(settingsPath), 0o700)
	os.WriteFile(settingsPath, []byte("{\n  \"privacy\": {\"usageStatisticsEnabled\": false},\n  \"$version\": 4\n}\n"), 0o600)
	installFor(t, e, "qwen")
	rec := recordHook(t, e)
	environ := agentEnv(e, "QWEN_CODE_SYSTEM_SETTINGS_PATH="+filepath.Join(e.home, "no-system-settings.json"))
	environ = append(environ, "PATH="+node+string(os.PathListSeparator)+envValue(environ, "PATH"))
	trustedFolders := filepath.Join(e.home, ".qwen", "trustedFolders.json")
	// Qwen Code's folder-trust feature (off unless the user turns it
	// on), with the folder trusted or not.
	feature := func(level string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			patchJSON(t, settingsPath, func(doc map[string]any) {
				object(object(doc, "security"), "folderTrust")["enabled"] = true
			})
			if level != "" {
				os.WriteFile(trustedFolders, []byte(fmt.Sprintf("{%q: %q}\n", dir, level)), 0o600)
			}
		}
	}
	off := map[string]string{".qwen/settings.json": disableAllHooks}
	cases := []offCase{
		{name: "control", ran: true},
		{name: ".qwen/settings.json", files: off},
		{name: "control folder trust on, trusted", setup: feature("TRUST_FOLDER"), ran: true},
		{name: ".qwen/settings.json folder trust on, trusted", files: off, setup: feature("TRUST_FOLDER")},
		{name: "control folder trust on, untrusted", setup: feature(""), ran: true},
		{name: ".qwen/settings.json folder trust on, untrusted", files: off, setup: feature(""), ran: true},
	}
	runOffCases(t, e, rec, cases, []string{settingsPath, trustedFolders}, func(t *testing.T, dir string) (result, int) {
		api.script(&modelCall{Name: "run_shell_command", Args: map[string]any{"command": harmless, "description": "Run it"}})
		r := runProcess(t, environ, dir, qwen, []string{"Do the task.",
			"--auth-type", "openai", "--openai-api-key", "x", "--openai-base-url", api.url + "/v1", "-m", copilotModel,
			"--approval-mode", "default", "--allowed-tools", "run_shell_command(echo *)"}, 120*time.Second)
		return r, len(api.received())
	})
}

func projectOffDroid(t *testing.T) {
	droid := agentCLI(t, "droid")
	e := newEnv(t)
	api := startFakeModel(t)
	factory := filepath.Join(e.home, ".factory")
	os.MkdirAll(factory, 0o700)
	os.WriteFile(filepath.Join(factory, "settings.json"), []byte(fmt.Sprintf(`{
  "customModels": [
    {"model": "local-model", "displayName": "Local", "baseUrl": "%s/v1", "apiKey": "x",
     "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}
  ]
}
`, api.url)), 0o600)
	installFor(t, e, "droid")
	rec := recordHook(t, e)
	cases := []offCase{
		{name: "control", ran: true},
		{name: `.factory/settings.json {"hooks": {"hooksDisabled": true}}`, files: map[string]string{".factory/settings.json": `{"hooks": {"hooksDisabled": true}}` + "\n"}},
		{name: `.factory/settings.json {"hooksDisabled": true}`, files: map[string]string{".factory/settings.json": `{"hooksDisabled": true}` + "\n"}, ran: true},
	}
	runOffCases(t, e, rec, cases, nil, func(t *testing.T, dir string) (result, int) {
		api.script(&modelCall{Name: "Execute", Args: map[string]any{"command": harmless, "summary": "Run it", "riskLevel": "low", "riskLevelReason": "as asked"}})
		r := runProcess(t, agentEnv(e, "FACTORY_API_KEY=fk-dummy"), dir, droid,
			[]string{"exec", "-m", "custom:local-model", "--auto", "low", "Do the task."}, 120*time.Second)
		return r, len(api.received())
	})
}

func projectOffCopilot(t *testing.T) {
	copilot := agentCLI(t, "copilot")
	cache, err := filepath.Abs(filepath.Join("..", ".tools", "copilot", "cache"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	api := startFakeModel(t)
	installFor(t, e, "copilot")
	rec := recordHook(t, e)
	home := filepath.Join(e.home, ".copilot")
	userSettings, userConfig := filepath.Join(home, "settings.json"), filepath.Join(home, "config.json")
	// The folder trusted as Copilot keeps it: trustedFolders in
	// ~/.copilot/config.json. (The same key in settings.json trusts
	// nothing: measured below.)
	trustIn := func(p string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			patchJSON(t, p, func(doc map[string]any) { doc["trustedFolders"] = []string{dir} })
		}
	}
	trusted := trustIn(userConfig)
	repo := map[string]string{".github/copilot/settings.json": disableAllHooks}
	local := map[string]string{".github/copilot/settings.local.json": disableAllHooks}
	claude := map[string]string{".claude/settings.json": disableAllHooks}
	cases := []offCase{
		{name: "control", ran: true},
		{name: "control trusted", setup: trusted, ran: true},
		{name: ".github/copilot/settings.json", files: repo, ran: true},
		{name: ".github/copilot/settings.json trusted", files: repo, setup: trusted},
		{name: ".github/copilot/settings.json trustedFolders in settings.json", files: repo, setup: trustIn(userSettings), ran: true},
		{name: ".github/copilot/settings.local.json", files: local, ran: true},
		{name: ".github/copilot/settings.local.json trusted", files: local, setup: trusted},
		{name: ".claude/settings.json", files: claude, ran: true},
		{name: ".claude/settings.json trusted", files: claude, setup: trusted},
		// The same key in the user's own ~/.copilot/settings.json (the
		// file Copilot's config.json points to for user settings), with
		// the folder trusted or not: the hook still runs.
		{name: "user settings.json", setup: func(t *testing.T, dir string) {
			patchJSON(t, userSettings, func(doc map[string]any) { doc["disableAllHooks"] = true })
		}, ran: true},
		{name: "user settings.json trusted", setup: func(t *testing.T, dir string) {
			patchJSON(t, userSettings, func(doc map[string]any) { doc["disableAllHooks"] = true })
			trusted(t, dir)
		}, ran: true},
	}
	runOffCases(t, e, rec, cases, []string{userSettings, userConfig}, func(t *testing.T, dir string) (result, int) {
		api.script(&modelCall{Name: "bash", Args: map[string]any{"command": harmless, "description": "Run it"}})
		r := runProcess(t, agentEnv(e,
			"COPILOT_OFFLINE=true",
			"COPILOT_PROVIDER_BASE_URL="+api.url+"/v1",
			"COPILOT_PROVIDER_API_KEY=x",
			"COPILOT_MODEL="+copilotModel,
			"COPILOT_AUTO_UPDATE=false",
			"XDG_CACHE_HOME="+cache,
		), dir, copilot, []string{"-p", "Do the task.", "--allow-all-tools"}, 120*time.Second)
		return r, len(api.received())
	})
}
