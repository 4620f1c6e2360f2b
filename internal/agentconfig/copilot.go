package agentconfig

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/agentjail/agentjail/internal/hookcmd"
)

// CopilotConfig reports whether path is a Copilot CLI hook file: a JSON
// file in ~/.copilot/hooks or a project's .github/hooks,
// ~/.copilot/config.json, or a settings.json that can switch every hook
// off (~/.copilot/settings.json, a repository's .github/copilot/settings.json).
func CopilotConfig(path, home string) bool {
	if filepath.Base(path) == "settings.json" && filepath.Base(filepath.Dir(path)) == "copilot" && filepath.Base(filepath.Dir(filepath.Dir(path))) == ".github" {
		return true
	}
	if homeRel(path, home) == ".copilot/settings.json" {
		return true
	}
	dir := filepath.Dir(path)
	if filepath.Ext(path) == ".json" && filepath.Base(dir) == "hooks" {
		parent := filepath.Base(filepath.Dir(dir))
		if parent == ".github" || parent == ".copilot" {
			return true
		}
	}
	return homeRel(path, home) == ".copilot/config.json"
}

// judgeCopilot: every agentjail preToolUse hook stays with the same
// command and no shorter timeout, and the file stays one Copilot reads.
func judgeCopilot(cur, res []byte) string {
	curDoc, curOK := parseObject(cur)
	if !curOK {
		curDoc = map[string]any{}
	}
	ours := copilotOurs(curDoc)
	if res == nil {
		if len(ours) > 0 {
			return "delete the file that runs agentjail's hook"
		}
		return ""
	}
	resDoc, resOK := parseObject(res)
	if !resOK {
		if len(ours) == 0 {
			return keepsHookName(cur, res)
		}
		return "leave a hooks file Copilot cannot read, agentjail's hook with it"
	}
	for _, key := range CopilotSwitches {
		if switchedOn(key, curDoc, resDoc) {
			return fmt.Sprintf("set %s, which switches off every Copilot CLI hook, agentjail's included", key)
		}
	}
	now := copilotOurs(resDoc)
	for _, want := range ours {
		problem := "remove the agentjail hook from hooks.preToolUse"
		for _, got := range now {
			if reflect.DeepEqual(got["bash"], want["bash"]) && reflect.DeepEqual(got["command"], want["command"]) {
				if secs(got) < secs(want) {
					problem = "lower the agentjail hook's timeoutSec, so Copilot would run the tool unchecked when it times out"
					continue
				}
				if p := hookEntryChanged(want, got); p != "" {
					problem = p
					continue
				}
				problem = ""
				break
			}
			problem = "change the agentjail hook's command"
		}
		if problem != "" {
			return problem
		}
	}
	if len(ours) > 0 && !reflect.DeepEqual(resDoc["version"], curDoc["version"]) {
		return fmt.Sprintf("change the hooks file's version to %s", jsonText(resDoc["version"]))
	}
	return ""
}

// copilotOurs lists the preToolUse hooks that run agentjail-hook.
func copilotOurs(doc map[string]any) []map[string]any {
	hooks, _ := doc["hooks"].(map[string]any)
	list, _ := hooks["preToolUse"].([]any)
	var out []map[string]any
	for _, h := range list {
		m, _ := h.(map[string]any)
		for _, k := range []string{"bash", "command"} {
			if c, ok := m[k].(string); ok && hookcmd.IsHook(c) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

// secs is a Copilot hook's timeoutSec (30 when unset).
func secs(h map[string]any) float64 {
	v, ok := h["timeoutSec"]
	if !ok {
		return 30
	}
	f, _ := v.(float64)
	return f
}

// copilotGrants: what a change of ~/.copilot/config.json lets the agent
// do without asking: folders it trusts, URLs it may fetch, denied URLs
// removed (the snake_case and camelCase spellings both).
func copilotGrants(cur, res []byte) []Grant {
	curDoc, _ := parseObject(cur)
	resDoc, ok := parseObject(res)
	if !ok {
		return nil
	}
	var g grants
	for _, k := range []string{"trusted_folders", "trustedFolders"} {
		g.newDirs(k, curDoc[k], resDoc[k])
	}
	for _, k := range []string{"allowed_urls", "allowedUrls"} {
		g.newRules(k, curDoc[k], resDoc[k], func(u string) bool {
			host := strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
			return onlyWild(host)
		})
	}
	for _, k := range []string{"denied_urls", "deniedUrls"} {
		g.removedRules(k, curDoc[k], resDoc[k], true)
	}
	return g
}
