package installer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/agentjail/agentjail/internal/hookcmd"
)

// geminiPart is the Gemini CLI: hooks.BeforeTool in ~/.gemini/settings.json,
// a JSON file with comments, edited in place so comments and formatting
// stay as they were.
type geminiPart struct{}

func (geminiPart) name() string { return "gemini" }

func (geminiPart) dir(o Options) string   { return filepath.Join(o.UserHome, ".gemini") }
func (geminiPart) off(o Options) []string { return o.geminiOff() }

func (o Options) geminiSettingsPath() string {
	if o.System {
		return geminiSystemSettingsPath
	}
	return filepath.Join(o.UserHome, ".gemini", "settings.json")
}

func (p geminiPart) found(o Options) bool {
	return foundByFacts(p, filepath.Join(o.UserHome, facts(p).Folder))
}

// geminiEntry is the BeforeTool entry: "*" matches every tool; Gemini's
// timeout is agentTimeout, in milliseconds (Gemini runs the tool when a
// hook times out).
func (o Options) geminiEntry() map[string]any {
	return map[string]any{
		"matcher": "*",
		"hooks": []any{map[string]any{
			"name":    "agentjail",
			"type":    "command",
			"command": o.agentHookCommand("gemini"),
			"timeout": o.agentTimeout().Milliseconds(),
		}},
	}
}

// geminiPostEntry is the AfterTool entry: the hook with --post, bounded
// by postTimeout (in milliseconds). Its name is its own, so that a
// hooksConfig.disabled naming "agentjail" still means the pre-tool hook.
func (o Options) geminiPostEntry() map[string]any {
	return map[string]any{
		"matcher": "*",
		"hooks": []any{map[string]any{
			"name":    "agentjail-post",
			"type":    "command",
			"command": postCommand(o.agentHookCommand("gemini")),
			"timeout": o.postTimeout().Milliseconds(),
		}},
	}
}

func (geminiPart) edits(o Options) []fileEdit {
	path := o.geminiSettingsPath()
	return []fileEdit{{path: path, add: func(old []byte) ([]byte, error) {
		out, err := addGeminiHook(path, old, o.geminiEntry())
		if ev := postEvent("gemini"); err == nil && ev != "" {
			out, err = addGeminiHookAt(path, out, ev, o.geminiPostEntry())
		}
		if err == nil && o.System {
			// The system file is merged last: its hooksConfig.enabled
			// true outweighs a user's false, which would otherwise turn
			// every hook off, ours too.
			out, err = enableGeminiHooks(path, out)
		}
		return out, err
	}}}
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
				if c, ok := hm["command"].(string); ok && hookcmd.IsHook(c) {
					out[event] = append(out[event], i)
					break
				}
			}
		}
	}
	return out
}

// addGeminiHook returns settings.json with our BeforeTool entry added, or
// updated where it is; unchanged input comes back unchanged. The entry is
// written in the file's own layout: indented with its indentation unit
// where the file is indented (two spaces for a new file), on one line
// where the whole file is.
func addGeminiHook(file string, old []byte, entry map[string]any) ([]byte, error) {
	return addGeminiHookAt(file, old, "BeforeTool", entry)
}

// addGeminiHookAt is addGeminiHook for the entry of any event.
func addGeminiHookAt(file string, old []byte, event string, entry map[string]any) ([]byte, error) {
	unit, pretty := indentUnit(old)
	if len(strings.TrimSpace(string(old))) == 0 {
		old = []byte("{}\n")
		unit, pretty = "  ", true
	}
	v, doc, err := parseJSONC(file, old)
	if err != nil {
		return nil, err
	}
	var op map[string]any
	var at string // where the new value lands
	switch hooks, ok := doc["hooks"].(map[string]any); {
	case doc["hooks"] == nil:
		op = map[string]any{"op": "add", "path": "/hooks", "value": map[string]any{event: []any{entry}}}
		at = "/hooks"
	case !ok:
		return nil, fmt.Errorf("%s: \"hooks\" is not an object; nothing was written", file)
	case hooks[event] == nil:
		op = map[string]any{"op": "add", "path": "/hooks/" + jsonPointer(event), "value": []any{entry}}
		at = "/hooks/" + jsonPointer(event)
	default:
		list, ok := hooks[event].([]any)
		if !ok {
			return nil, fmt.Errorf("%s: \"hooks.%s\" is not an array; nothing was written", file, event)
		}
		if idx := ourEntries(map[string]any{event: list})[event]; len(idx) > 0 {
			if sameJSON(mustJSON(list[idx[0]]), entry) {
				return old, nil
			}
			at = fmt.Sprintf("/hooks/%s/%d", jsonPointer(event), idx[0])
			op = map[string]any{"op": "replace", "path": at, "value": entry}
		} else {
			op = map[string]any{"op": "add", "path": "/hooks/" + jsonPointer(event) + "/-", "value": entry}
			at = fmt.Sprintf("/hooks/%s/%d", jsonPointer(event), len(list))
		}
	}
	patch, _ := json.Marshal([]map[string]any{op})
	if err := v.Patch(patch); err != nil {
		return nil, fmt.Errorf("%s: %w; nothing was written", file, err)
	}
	if pretty {
		indentAt(&v, at, unit)
	}
	return v.Pack(), nil
}

// enableGeminiHooks sets hooksConfig.enabled to true, keeping the rest.
func enableGeminiHooks(file string, src []byte) ([]byte, error) {
	v, doc, err := parseJSONC(file, src)
	if err != nil {
		return nil, err
	}
	var op map[string]any
	switch hc, ok := doc["hooksConfig"].(map[string]any); {
	case doc["hooksConfig"] == nil:
		op = map[string]any{"op": "add", "path": "/hooksConfig", "value": map[string]any{"enabled": true}}
	case !ok:
		return nil, fmt.Errorf("%s: \"hooksConfig\" is not an object; nothing was written", file)
	case hc["enabled"] == true:
		return src, nil
	default:
		op = map[string]any{"op": "add", "path": "/hooksConfig/enabled", "value": true}
	}
	patch, _ := json.Marshal([]map[string]any{op})
	if err := v.Patch(patch); err != nil {
		return nil, fmt.Errorf("%s: %w; nothing was written", file, err)
	}
	return v.Pack(), nil
}

// indentUnit is the indentation of a JSON file: the leading blanks of its
// first indented line; pretty is false for a file on one line.
func indentUnit(src []byte) (unit string, pretty bool) {
	text := strings.TrimSpace(string(src))
	for _, line := range strings.Split(text, "\n")[1:] {
		if trimmed := strings.TrimLeft(line, " \t"); trimmed != "" && len(trimmed) < len(line) {
			return line[:len(line)-len(trimmed)], true
		}
	}
	return "  ", strings.Contains(text, "\n")
}

// indentAt lays out the value at ptr (just added or replaced by a patch,
// which writes it on one line) as the file's other values are: on lines
// of its own, indented by depth.
func indentAt(v *hujson.Value, ptr string, unit string) {
	tokens := strings.Split(ptr, "/")[1:]
	depth := len(tokens)
	parentPtr := strings.Join(strings.Split(ptr, "/")[:depth], "/")
	parent := v.Find(parentPtr)
	target := v.Find(ptr)
	if parent == nil || target == nil {
		return
	}
	std := target.Clone()
	std.Standardize()
	var val any
	if json.Unmarshal(std.Pack(), &val) != nil {
		return
	}
	var b bytes.Buffer
	enc := jsonEncoder(&b)
	enc.SetIndent(strings.Repeat(unit, depth), unit)
	if enc.Encode(val) != nil {
		return
	}
	nv, err := hujson.Parse(bytes.TrimSpace(b.Bytes()))
	if err != nil {
		return
	}
	target.Value = nv.Value
	line := "\n" + strings.Repeat(unit, depth)
	closing := hujson.Extra("\n" + strings.Repeat(unit, depth-1))
	switch p := parent.Value.(type) {
	case *hujson.Object:
		for i := range p.Members {
			m := &p.Members[i]
			if &m.Value != target {
				continue
			}
			m.Name.BeforeExtra = onNewLine(m.Name.BeforeExtra, line)
			if len(m.Value.BeforeExtra) == 0 {
				m.Value.BeforeExtra = hujson.Extra(" ")
			}
		}
		if !bytes.Contains(p.AfterExtra, []byte("\n")) && (len(p.Members) == 0 || p.Members[len(p.Members)-1].Value.AfterExtra == nil) {
			p.AfterExtra = closing
		}
	case *hujson.Array:
		target.BeforeExtra = onNewLine(target.BeforeExtra, line)
		if !bytes.Contains(p.AfterExtra, []byte("\n")) && (len(p.Elements) == 0 || p.Elements[len(p.Elements)-1].AfterExtra == nil) {
			p.AfterExtra = closing
		}
	}
}

// onNewLine is the extra before a value so that the value starts a line
// at this indentation: comments in it are kept, blanks after its last
// line break replaced.
func onNewLine(extra hujson.Extra, line string) hujson.Extra {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		if len(bytes.TrimSpace(extra)) > 0 {
			return append(bytes.TrimRight(extra, " \t"), line...)
		}
		return hujson.Extra(line)
	}
	if len(bytes.Trim(extra[i:], " \t\n")) > 0 {
		return extra // a comment after the last line break: leave it be
	}
	return append(append(hujson.Extra{}, extra[:i]...), line...)
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
