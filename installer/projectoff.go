package installer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/agentjail/agentjail/internal/agentconfig"
)

// A cloned repository can ship settings that switch an agent's hooks
// off for every session run in it: Claude Code's
// .claude/settings.json with "disableAllHooks": true turns the user's
// hook off there with no trust step. Measured with the pinned CLIs
// (e2e/project_hooksoff_test.go):
//
//	agent    project file                         honoured
//	claude   .claude/settings.json, settings.local.json    always
//	gemini   .gemini/settings.json hooksConfig     in a trusted folder
//	codex    .codex/config.toml [features] hooks   in a trusted project
//	qwen     .qwen/settings.json disableAllHooks   unless folder trust is on and the folder untrusted
//	droid    .factory/settings.json hooks.hooksDisabled   always
//	copilot  .github/copilot/settings(.local).json, .claude/settings.json   in a trusted folder
//
// In system mode the machine-wide hook holds against all but Gemini's
// hooksConfig.disabled and, without allowManagedHooksOnly, Droid's.

// ProjectSwitch is one such file: which agent it silences, where, and
// what to change.
type ProjectSwitch struct {
	Agent string `json:"agent"`
	Title string `json:"title"`
	File  string `json:"file"`
	Why   string `json:"why"`
}

// projectSwitcher is a part whose agent reads settings from the folder
// it runs in: off lists, for one folder, the files there that stop it
// running agentjail's hook.
type projectSwitcher interface {
	projectOff(o Options, dir string) []ProjectSwitch
}

// ProjectOff lists the project switches for sessions started in dir:
// those in dir and in each folder above it, up to but not including
// the user's home (whose files are the user's own settings).
func ProjectOff(o Options, dir string) []ProjectSwitch {
	var out []ProjectSwitch
	for _, d := range projectFolders(o.UserHome, dir) {
		for _, p := range agentParts {
			if s, ok := p.(projectSwitcher); ok {
				out = append(out, s.projectOff(o, d)...)
			}
		}
	}
	return out
}

// ProjectOffFor is ProjectOff for one agent's sessions.
func ProjectOffFor(o Options, agentName, dir string) []ProjectSwitch {
	var out []ProjectSwitch
	for _, s := range ProjectOff(o, dir) {
		if s.Agent == agentName {
			out = append(out, s)
		}
	}
	return out
}

// projectFolders are dir and its parents, stopping below home (or at
// the root when dir is not under home).
func projectFolders(home, dir string) []string {
	if dir == "" || !filepath.IsAbs(dir) {
		return nil
	}
	dir = filepath.Clean(dir)
	home = filepath.Clean(home)
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		if d == home {
			break
		}
		out = append(out, d)
		if d == filepath.Dir(d) {
			break
		}
	}
	return out
}

func (o Options) projectSwitch(p agentPart, file, why string) ProjectSwitch {
	return ProjectSwitch{Agent: p.name(), Title: facts(p).Title, File: o.tildePath(file), Why: why}
}

// untilTrusted is the clause for a switch the agent honours only in a
// folder the user trusts.
func untilTrusted(trusted bool, title string) string {
	if trusted {
		return "the folder is trusted, so " + title + " runs no hooks there"
	}
	return title + " runs no hooks there once you trust the folder"
}

func (p claudePart) projectOff(o Options, dir string) []ProjectSwitch {
	if o.System {
		return nil // managed hooks run whatever a project sets
	}
	var out []ProjectSwitch
	for _, name := range []string{"settings.json", "settings.local.json"} {
		f := filepath.Join(dir, ".claude", name)
		if doc := readSettingsJSON(f); doc != nil && doc["disableAllHooks"] == true {
			out = append(out, o.projectSwitch(p, f, `sets "disableAllHooks": true, so Claude Code runs no hooks in this project (it asks no trust first): remove the key, or do not run agents here`))
		}
	}
	return out
}

func (p geminiPart) projectOff(o Options, dir string) []ProjectSwitch {
	f := filepath.Join(dir, ".gemini", "settings.json")
	doc := readSettingsJSON(f)
	if doc == nil {
		return nil
	}
	hc, _ := doc["hooksConfig"].(map[string]any)
	trusted := o.geminiTrusts(dir)
	var out []ProjectSwitch
	if hc["enabled"] == false && !o.System { // the system file's enabled: true outweighs it
		out = append(out, o.projectSwitch(p, f, "sets hooksConfig.enabled: false; "+untilTrusted(trusted, "Gemini CLI")+": remove the key"))
	}
	list, _ := hc["disabled"].([]any)
	for _, n := range list {
		if s, _ := n.(string); s == "agentjail" || strings.Contains(s, "agentjail-hook") {
			out = append(out, o.projectSwitch(p, f, fmt.Sprintf("lists %q in hooksConfig.disabled; %s: take it out of the list", s, untilTrusted(trusted, "Gemini CLI"))))
		}
	}
	return out
}

// geminiTrusts: Gemini CLI's trust of a folder: GEMINI_CLI_TRUST_WORKSPACE,
// folder trust switched off in the user's settings, or a TRUST_FOLDER
// (TRUST_PARENT for its parent) entry in trustedFolders.json.
func (o Options) geminiTrusts(dir string) bool {
	if os.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true" {
		return true
	}
	if doc := readSettingsJSON(filepath.Join(o.UserHome, ".gemini", "settings.json")); doc != nil {
		sec, _ := doc["security"].(map[string]any)
		ft, _ := sec["folderTrust"].(map[string]any)
		if ft["enabled"] == false {
			return true
		}
	}
	doc := readSettingsJSON(filepath.Join(o.UserHome, ".gemini", "trustedFolders.json"))
	for path, v := range doc {
		switch v {
		case "TRUST_FOLDER":
			if under(dir, path) {
				return true
			}
		case "TRUST_PARENT":
			if under(dir, filepath.Dir(path)) {
				return true
			}
		}
	}
	return false
}

func (p codexPart) projectOff(o Options, dir string) []ProjectSwitch {
	if o.System {
		return nil // requirements.toml pins [features] hooks = true
	}
	f := filepath.Join(dir, ".codex", "config.toml")
	b, err := readThrough(f)
	if err != nil {
		return nil
	}
	var doc struct {
		Features map[string]any `toml:"features"`
	}
	if toml.Unmarshal(b, &doc) != nil {
		return nil
	}
	for _, key := range agentconfig.CodexHookFeatures {
		if v, ok := doc.Features[key].(bool); ok {
			if v {
				return nil
			}
			return []ProjectSwitch{o.projectSwitch(p, f, fmt.Sprintf("sets %s = false under [features]; %s: remove the line", key, untilTrusted(o.codexTrusts(dir), "Codex")))}
		}
	}
	return nil
}

// codexTrusts: a [projects."DIR"] table with trust_level = "trusted" in
// the user's config.toml, for dir or a folder above it.
func (o Options) codexTrusts(dir string) bool {
	b, err := readThrough(o.codexConfigPath())
	if err != nil {
		return false
	}
	var doc struct {
		Projects map[string]struct {
			Trust string `toml:"trust_level"`
		} `toml:"projects"`
	}
	if toml.Unmarshal(b, &doc) != nil {
		return false
	}
	for path, p := range doc.Projects {
		if p.Trust == "trusted" && under(dir, path) {
			return true
		}
	}
	return false
}

func (p qwenPart) projectOff(o Options, dir string) []ProjectSwitch {
	if o.System {
		return nil // the system settings' "disableAllHooks": false outweighs it
	}
	f := filepath.Join(dir, ".qwen", "settings.json")
	doc := readSettingsJSON(f)
	if doc == nil || doc["disableAllHooks"] != true {
		return nil
	}
	why := `sets "disableAllHooks": true, so Qwen Code runs no hooks in this project (it asks no trust first): remove the key`
	if o.qwenFolderTrust() {
		why = `sets "disableAllHooks": true; ` + untilTrusted(o.qwenTrusts(dir), "Qwen Code") + ": remove the key"
	}
	return []ProjectSwitch{o.projectSwitch(p, f, why)}
}

// qwenFolderTrust: folder trust switched on in the user's settings
// (off by default, when every project's settings are read).
func (o Options) qwenFolderTrust() bool {
	doc := readSettingsJSON(filepath.Join(o.qwenHome(), "settings.json"))
	sec, _ := doc["security"].(map[string]any)
	ft, _ := sec["folderTrust"].(map[string]any)
	return ft["enabled"] == true
}

func (o Options) qwenTrusts(dir string) bool {
	doc := readSettingsJSON(filepath.Join(o.qwenHome(), "trustedFolders.json"))
	for path, v := range doc {
		if v == "TRUST_FOLDER" && under(dir, path) || v == "TRUST_PARENT" && under(dir, filepath.Dir(path)) {
			return true
		}
	}
	return false
}

func (p droidPart) projectOff(o Options, dir string) []ProjectSwitch {
	if o.System {
		if doc := readSettingsJSON(droidSystemSettingsPath); doc != nil && doc["allowManagedHooksOnly"] == true {
			return nil // the organisation's hooks run whatever a project sets
		}
	}
	f := filepath.Join(dir, ".factory", "settings.json")
	doc := readSettingsJSON(f)
	if h, _ := doc["hooks"].(map[string]any); h["hooksDisabled"] == true {
		return []ProjectSwitch{o.projectSwitch(p, f, `sets "hooks": {"hooksDisabled": true}, so Factory Droid runs no hooks in this project (it asks no trust first): remove the key`)}
	}
	return nil
}

func (p copilotPart) projectOff(o Options, dir string) []ProjectSwitch {
	if o.System {
		return nil // policy hooks run whatever a project sets
	}
	trusted := o.copilotTrusts(dir)
	var out []ProjectSwitch
	for _, rel := range []string{".github/copilot/settings.json", ".github/copilot/settings.local.json", ".claude/settings.json"} {
		f := filepath.Join(dir, rel)
		doc := readSettingsJSON(f)
		for _, key := range agentconfig.CopilotSwitches {
			if doc != nil && doc[key] == true {
				out = append(out, o.projectSwitch(p, f, fmt.Sprintf(`sets "%s": true; %s: remove the key`, key, untilTrusted(trusted, "Copilot CLI"))))
			}
		}
	}
	return out
}

// copilotTrusts: the folder, or one above it, in "trustedFolders" of
// config.json (the same key in settings.json trusts nothing).
func (o Options) copilotTrusts(dir string) bool {
	list, _ := readSettingsJSON(filepath.Join(o.copilotHome(), "config.json"))["trustedFolders"].([]any)
	for _, v := range list {
		if path, _ := v.(string); path != "" && under(dir, path) {
			return true
		}
	}
	return false
}

// under reports p at or below dir.
func under(p, dir string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(p))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
