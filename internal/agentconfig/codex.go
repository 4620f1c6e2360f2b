package agentconfig

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// CodexConfig reports whether path is a Codex hook configuration file:
// hooks.json or config.toml in a .codex folder (the user's ~/.codex and
// every project's, which Codex also reads).
func CodexConfig(path, home string) bool {
	base := filepath.Base(path)
	return (base == "config.toml" || base == "hooks.json") && filepath.Base(filepath.Dir(path)) == ".codex"
}

// judgeCodex judges hooks.json in Claude Code's entry format, and
// config.toml, where Codex keeps whether each hook is trusted and
// enabled: agentjail's hook must stay, unchanged, trusted and enabled.
func judgeCodex(cur, res []byte) string {
	if looksJSON(cur) || (cur == nil && looksJSON(res)) {
		return judgeHookEntries(cur, res, "Codex")
	}
	return judgeCodexTOML(cur, res)
}

func looksJSON(b []byte) bool {
	s := strings.TrimSpace(string(b))
	return strings.HasPrefix(s, "{")
}

// judgeHookEntries is the PreToolUse judgement of a file in Claude Code's
// format, for an agent that reads the same format.
func judgeHookEntries(cur, res []byte, agent string) string {
	curDoc, curOK := parseObject(cur)
	if cur == nil {
		curDoc, curOK = map[string]any{}, true
	}
	resDoc, resOK := parseObject(res)
	if !resOK {
		if !curOK || len(ourHooks(curDoc)) == 0 {
			return ""
		}
		return fmt.Sprintf("leave a file that is not a valid JSON object, which %s would ignore, agentjail's hook with it", agent)
	}
	if !curOK {
		curDoc = map[string]any{}
	}
	for _, want := range ourHooks(curDoc) {
		if p := kept(want, resDoc); p != "" {
			return p
		}
	}
	return newWeakEntry(curDoc, resDoc)
}

// judgeCodexTOML: config.toml must not switch hooks off ([features]
// hooks = false), nor drop, change or disable a hook's trust that is
// there now ([hooks.state."<key>"] trusted_hash, enabled = false): an
// untrusted or disabled hook never runs.
func judgeCodexTOML(cur, res []byte) string {
	var curDoc, resDoc map[string]any
	curOK := cur == nil || toml.Unmarshal(cur, &curDoc) == nil
	if res == nil {
		if states(curDoc) != nil {
			return "delete the file that trusts agentjail's hook, so Codex would no longer run it"
		}
		return ""
	}
	if err := toml.Unmarshal(res, &resDoc); err != nil {
		if curOK && states(curDoc) != nil {
			return "leave a config.toml that is not valid TOML, which Codex refuses to start with"
		}
		return ""
	}
	if p := codexHooksOff(curDoc, resDoc, ""); p != "" {
		return p
	}
	// A profile switches hooks off for every run that picks it
	// (codex -p NAME, or profile = "NAME" at the top).
	resProfiles, _ := resDoc["profiles"].(map[string]any)
	curProfiles, _ := curDoc["profiles"].(map[string]any)
	for _, name := range sortedKeys(resProfiles) {
		rp, _ := resProfiles[name].(map[string]any)
		cp, _ := curProfiles[name].(map[string]any)
		if p := codexHooksOff(cp, rp, fmt.Sprintf("profiles.%s.", name)); p != "" {
			return p
		}
	}
	newStates := states(resDoc)
	for key, v := range states(curDoc) {
		was, _ := v.(map[string]any)
		now, _ := newStates[key].(map[string]any)
		if h, ok := was["trusted_hash"]; ok && !reflect.DeepEqual(now["trusted_hash"], h) {
			return fmt.Sprintf("change or remove the trust of the hook %s, so Codex would no longer run it", key)
		}
		if now["enabled"] == false && was["enabled"] != false {
			return fmt.Sprintf("disable the hook %s", key)
		}
	}
	for key, v := range newStates {
		now, _ := v.(map[string]any)
		if now["enabled"] == false && strings.Contains(key, "pre_tool_use") {
			if _, known := states(curDoc)[key]; !known {
				return fmt.Sprintf("disable the hook %s", key)
			}
		}
	}
	return ""
}

// codexHooksOff: res sets one of the hook features to anything but true
// under [features] (of the table where, a profile or the top) where cur
// did not.
func codexHooksOff(cur, res map[string]any, where string) string {
	f, _ := res["features"].(map[string]any)
	cf, _ := cur["features"].(map[string]any)
	for _, key := range CodexHookFeatures {
		if v, ok := f[key]; ok && v != true && !reflect.DeepEqual(cf[key], v) {
			return fmt.Sprintf("set [%sfeatures] %s = %s, which switches off every hook, agentjail's included", where, key, jsonText(v))
		}
	}
	return ""
}

// states is hooks.state of a decoded config.toml.
func states(doc map[string]any) map[string]any {
	hooks, _ := doc["hooks"].(map[string]any)
	s, _ := hooks["state"].(map[string]any)
	return s
}

// codexUnguarded are the config.toml settings that let Codex act without
// the user's approval, at the top level or in a profile.
var codexUnguarded = [][2]string{{"approval_policy", "never"}, {"sandbox_mode", "danger-full-access"}}

// codexGrants: what a change of config.toml lets Codex do without
// asking: approval_policy = "never" or sandbox_mode = "danger-full-access"
// anywhere (the top level, any profile, or the profile it selects),
// network access or folders for the workspace sandbox, a project trusted.
func codexGrants(cur, res []byte) []Grant {
	if looksJSON(cur) || (cur == nil && looksJSON(res)) || res == nil {
		return nil
	}
	var curDoc, resDoc map[string]any
	if toml.Unmarshal(res, &resDoc) != nil {
		return nil // Codex refuses to start with it
	}
	if cur != nil && toml.Unmarshal(cur, &curDoc) != nil {
		curDoc = nil
	}
	var g grants
	scope := func(doc map[string]any, profile string) map[string]any {
		if profile == "" {
			return doc
		}
		return object(object(doc["profiles"])[profile])
	}
	profiles := []string{""}
	for name := range object(resDoc["profiles"]) {
		profiles = append(profiles, name)
	}
	slices.Sort(profiles)
	for _, kv := range codexUnguarded {
		for _, p := range profiles {
			if scope(resDoc, p)[kv[0]] == kv[1] && scope(curDoc, p)[kv[0]] != kv[1] {
				where := kv[0]
				if p != "" {
					where = fmt.Sprintf("profiles.%s.%s", p, kv[0])
				}
				g.add(true, "set %s = %q, which lets Codex act without the user's approval", where, kv[1])
			}
		}
		if codexEffective(resDoc, kv[0]) == kv[1] && codexEffective(curDoc, kv[0]) != kv[1] && len(g) == 0 {
			g.add(true, "select the profile %v, whose %s = %q lets Codex act without the user's approval", resDoc["profile"], kv[0], kv[1])
		}
	}
	ws, was := object(resDoc["sandbox_workspace_write"]), object(curDoc["sandbox_workspace_write"])
	if turnedOn(was["network_access"], ws["network_access"]) {
		g.add(false, "set sandbox_workspace_write.network_access, giving sandboxed commands the network")
	}
	g.newDirs("sandbox_workspace_write.writable_roots", was["writable_roots"], ws["writable_roots"])
	curProjects := object(curDoc["projects"])
	for _, path := range sortedKeys(object(resDoc["projects"])) {
		if object(object(resDoc["projects"])[path])["trust_level"] == "trusted" && object(curProjects[path])["trust_level"] != "trusted" {
			g.add(broadDir(path), "trust the project %s, where Codex then asks less", path)
		}
	}
	return g
}

// codexEffective is the value of key the selected profile (or the top
// level) gives.
func codexEffective(doc map[string]any, key string) any {
	if p, ok := doc["profile"].(string); ok {
		if v, ok := object(object(doc["profiles"])[p])[key]; ok {
			return v
		}
	}
	return doc[key]
}
