package installer

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tailscale/hujson"
)

// geminiPart is the Gemini CLI: hooks.BeforeTool in ~/.gemini/settings.json,
// a JSON file with comments, edited in place so comments and formatting
// stay as they were.
type geminiPart struct{}

func (geminiPart) name() string { return "gemini" }

func (geminiPart) dir(o Options) string   { return filepath.Join(o.UserHome, ".gemini") }
func (geminiPart) off(o Options) []string { return o.geminiOff() }

func (o Options) geminiSettingsPath() string {
	return filepath.Join(o.UserHome, ".gemini", "settings.json")
}

func (geminiPart) found(o Options) bool {
	return isDir(filepath.Join(o.UserHome, ".gemini")) || onPath("gemini")
}

// geminiEntry is the BeforeTool entry: "*" matches every tool; Gemini's
// timeout is in milliseconds, a little longer than the hook's deadline
// (Gemini runs the tool when a hook times out).
func (o Options) geminiEntry() map[string]any {
	hook := o.HookTimeout
	if hook <= 0 {
		hook = 2 * time.Second
	}
	return map[string]any{
		"matcher": "*",
		"hooks": []any{map[string]any{
			"name":    "agentjail",
			"type":    "command",
			"command": o.agentHookCommand("gemini"),
			"timeout": int(math.Ceil(hook.Seconds())+3) * 1000,
		}},
	}
}

func (geminiPart) edits(o Options) []fileEdit {
	path := o.geminiSettingsPath()
	return []fileEdit{{path: path, add: func(old []byte) ([]byte, error) { return addGeminiHook(path, old, o.geminiEntry()) }}}
}

func (geminiPart) known(o Options) []string { return []string{o.geminiSettingsPath()} }

// parseJSONC parses a JSON-with-comments file and its plain-JSON value.
func parseJSONC(file string, src []byte) (hujson.Value, map[string]any, error) {
	v, err := hujson.Parse(src)
	if err != nil {
		return v, nil, fmt.Errorf("%s: not valid JSON with comments (%v); fix or move the file, nothing was written", file, err)
	}
	std := v.Clone()
	std.Standardize()
	var doc map[string]any
	if err := json.Unmarshal(std.Pack(), &doc); err != nil || doc == nil {
		return v, nil, fmt.Errorf("%s: the settings are not a JSON object; nothing was written", file)
	}
	return v, doc, nil
}

// jsonPointer escapes one JSON Pointer token.
func jsonPointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// patchJSONC applies RFC 6902 operations, keeping comments and layout.
func patchJSONC(file string, v hujson.Value, ops []map[string]any) ([]byte, error) {
	patch, _ := json.Marshal(ops)
	if err := v.Patch(patch); err != nil {
		return nil, fmt.Errorf("%s: %w; nothing was written", file, err)
	}
	return v.Pack(), nil
}

// ourEntries lists, per event of a hooks object, the indexes of the
// entries whose hooks run agentjail-hook.
func ourEntries(hooks map[string]any) map[string][]int {
	out := map[string][]int{}
	for event, v := range hooks {
		list, _ := v.([]any)
		for i, e := range list {
			m, _ := e.(map[string]any)
			hs, _ := m["hooks"].([]any)
			for _, h := range hs {
				hm, _ := h.(map[string]any)
				if c, ok := hm["command"].(string); ok && IsHookCommand(c) {
					out[event] = append(out[event], i)
					break
				}
			}
		}
	}
	return out
}

// addGeminiHook returns settings.json with our BeforeTool entry added, or
// updated where it is; unchanged input comes back unchanged.
func addGeminiHook(file string, old []byte, entry map[string]any) ([]byte, error) {
	if len(strings.TrimSpace(string(old))) == 0 {
		old = []byte("{}\n")
	}
	v, doc, err := parseJSONC(file, old)
	if err != nil {
		return nil, err
	}
	var op map[string]any
	switch hooks, ok := doc["hooks"].(map[string]any); {
	case doc["hooks"] == nil:
		op = map[string]any{"op": "add", "path": "/hooks", "value": map[string]any{"BeforeTool": []any{entry}}}
	case !ok:
		return nil, fmt.Errorf("%s: \"hooks\" is not an object; nothing was written", file)
	case hooks["BeforeTool"] == nil:
		op = map[string]any{"op": "add", "path": "/hooks/BeforeTool", "value": []any{entry}}
	default:
		list, ok := hooks["BeforeTool"].([]any)
		if !ok {
			return nil, fmt.Errorf("%s: \"hooks.BeforeTool\" is not an array; nothing was written", file)
		}
		if idx := ourEntries(map[string]any{"BeforeTool": list})["BeforeTool"]; len(idx) > 0 {
			if sameJSON(mustJSON(list[idx[0]]), entry) {
				return old, nil
			}
			op = map[string]any{"op": "replace", "path": fmt.Sprintf("/hooks/BeforeTool/%d", idx[0]), "value": entry}
		} else {
			op = map[string]any{"op": "add", "path": "/hooks/BeforeTool/-", "value": entry}
		}
	}
	return patchJSONC(file, v, []map[string]any{op})
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

// removeGeminiHooks takes every entry running agentjail-hook out of the
// hooks of settings.json, keeping comments and everything else.
func removeGeminiHooks(file string, cur []byte) ([]byte, bool, error) {
	v, doc, err := parseJSONC(file, cur)
	if err != nil {
		return nil, false, err
	}
	hooks, _ := doc["hooks"].(map[string]any)
	found := ourEntries(hooks)
	if len(found) == 0 {
		return cur, false, nil
	}
	var ops []map[string]any
	events := make([]string, 0, len(found))
	for e := range found {
		events = append(events, e)
	}
	sort.Strings(events)
	for _, e := range events {
		idx := found[e]
		for i := len(idx) - 1; i >= 0; i-- { // from the end, so indexes hold
			ops = append(ops, map[string]any{"op": "remove", "path": fmt.Sprintf("/hooks/%s/%d", jsonPointer(e), idx[i])})
		}
	}
	out, err := patchJSONC(file, v, ops)
	return out, err == nil, err
}
