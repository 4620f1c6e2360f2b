// Package installer wires agentjail into an agent and keeps it running:
// it merges the hook into Claude Code's settings.json without disturbing
// anything else in the file, copies the binaries, and registers the
// daemon with launchd, systemd --user, or runs it detached.
package installer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentjail/agentjail/internal/hookcmd"
)

// HookEntry is the PreToolUse entry agentjail adds to Claude Code's
// settings. Field order is the order written.
type HookEntry struct {
	Matcher string        `json:"matcher"`
	Hooks   []HookCommand `json:"hooks"`
}

// HookCommand is one hook command of an entry.
type HookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
	// OnFailure "block" makes Claude Code (2.1.295 and later) block the
	// call when the hook cannot even start, where it would otherwise run
	// the tool unchecked; set with fail_mode: closed.
	OnFailure string `json:"onFailure,omitempty"`
	// PreserveRiskLevel has Factory Droid (0.225) keep the model's
	// riskLevel of a command the hook rewrote to run in the jail, where
	// it would rate the launcher's line again.
	PreserveRiskLevel bool `json:"preserveRiskLevel,omitempty"`
}

// hookBinary is the base name that identifies our hook commands.
const hookBinary = "agentjail-hook"

// AddHook returns settings (the bytes of a settings.json, empty for a
// missing file) with our PreToolUse entry added, or updated in place if
// an entry running agentjail-hook is there already. Everything else, key
// order and formatting included, is kept byte for byte. Unchanged input
// comes back unchanged.
func AddHook(file string, settings []byte, entry HookEntry) ([]byte, error) {
	return addHookAt(file, settings, "PreToolUse", entry)
}

// addHookAt is AddHook for the entry of any event under "hooks".
func addHookAt(file string, settings []byte, event string, entry HookEntry) ([]byte, error) {
	if len(bytes.TrimSpace(settings)) == 0 {
		settings = []byte("{}\n")
	}
	if err := checkJSON(file, settings); err != nil {
		return nil, err
	}
	root, err := parseTree(settings)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, fmt.Errorf("%s: the settings are not a JSON object; nothing was written", file)
	}
	if err := checkDuplicates(file, settings, root, ""); err != nil {
		return nil, err
	}
	ed := newEditor(settings)
	hooks := root.get("hooks")
	switch {
	case hooks == nil:
		return ed.insertMember(root, "hooks", map[string][]HookEntry{event: {entry}}), nil
	case hooks.kind != '{':
		return nil, fmt.Errorf("%s: \"hooks\" is not an object; nothing was written", file)
	}
	if err := checkDuplicates(file, settings, hooks, "hooks."); err != nil {
		return nil, err
	}
	return addEntryAt(file, settings, ed, hooks, "hooks.", event, entry)
}

// addEntryAt adds entry to the array of event in the object obj (whose
// path in the file is prefix), or updates our entry there.
func addEntryAt(file string, src []byte, ed *editor, obj *node, prefix, event string, entry HookEntry) ([]byte, error) {
	list := obj.get(event)
	switch {
	case list == nil:
		return ed.insertMember(obj, event, []HookEntry{entry}), nil
	case list.kind != '[':
		return nil, fmt.Errorf("%s: \"%s%s\" is not an array; nothing was written", file, prefix, event)
	}
	for _, el := range list.elements {
		if !isOurEntry(src, el) {
			continue
		}
		if sameJSON(src[el.start:el.end], entry) {
			return src, nil
		}
		return ed.replace(el, entry), nil
	}
	return ed.insertElement(list, entry), nil
}

// postEntry is the post-tool twin of a pre-tool entry: the same hook
// command with --post, bounded by postTimeout, and never an onFailure
// (the call has run; there is nothing left to block).
func (o Options) postEntry(pre HookEntry) HookEntry {
	e := HookEntry{Matcher: pre.Matcher}
	for _, h := range pre.Hooks {
		e.Hooks = append(e.Hooks, HookCommand{Type: h.Type, Command: postCommand(h.Command), Timeout: int(o.postTimeout() / time.Second)})
	}
	return e
}

// addHooks adds an agent's entries to a settings file in Claude Code's
// format: pre under PreToolUse and, where the agent has a post-tool
// event, its post twin under that.
func (o Options) addHooks(name, file string, settings []byte, pre HookEntry) ([]byte, error) {
	out, err := AddHook(file, settings, pre)
	if ev := postEvent(name); err == nil && ev != "" {
		out, err = addHookAt(file, out, ev, o.postEntry(pre))
	}
	return out, err
}

// checkDuplicates refuses an object with a key written twice. JSON
// readers keep only one of them (Claude Code, like Go and JavaScript,
// the last): an entry added to the other would look installed and never
// run.
func checkDuplicates(file string, src []byte, obj *node, prefix string) error {
	first := map[string]int{}
	for _, m := range obj.members {
		if at, ok := first[m.key]; ok {
			return fmt.Errorf("%s: the key %q is written twice (lines %d and %d); a JSON reader uses only the last one, so a hook added to the other would never run: merge the two into one and run install again; nothing was written",
				file, prefix+m.key, lineOf(src, at), lineOf(src, m.keyStart))
		}
		first[m.key] = m.keyStart
	}
	return nil
}

func lineOf(src []byte, offset int) int {
	return bytes.Count(src[:offset], []byte("\n")) + 1
}

// RemoveHooks returns settings without any hook entry that runs
// agentjail-hook, under whatever event it is, keeping everything else.
// It reports whether anything was removed.
func RemoveHooks(file string, settings []byte) ([]byte, bool, error) {
	if err := checkJSON(file, settings); err != nil {
		return nil, false, err
	}
	removed := false
	for {
		root, err := parseTree(settings)
		if err != nil {
			return nil, false, err
		}
		el, arr := findOurEntry(settings, root)
		if el == nil {
			return settings, removed, nil
		}
		settings = newEditor(settings).removeElement(arr, el)
		removed = true
	}
}

// HasHook reports whether settings has an entry running agentjail-hook.
func HasHook(settings []byte) bool {
	root, err := parseTree(settings)
	if err != nil || root.kind != '{' {
		return false
	}
	el, _ := findOurEntry(settings, root)
	return el != nil
}

// findOurEntry looks in every "hooks" object of root: a file with the
// key twice (which install refuses) may still hold an entry of ours in
// either, and uninstall must find it.
func findOurEntry(src []byte, root *node) (el, arr *node) {
	for _, h := range root.members {
		if h.key != "hooks" || h.value.kind != '{' {
			continue
		}
		for _, m := range h.value.members {
			if m.value.kind != '[' {
				continue
			}
			for _, e := range m.value.elements {
				if isOurEntry(src, e) {
					return e, m.value
				}
			}
		}
	}
	return nil, nil
}

// isOurEntry: an entry whose hook commands run agentjail-hook.
func isOurEntry(src []byte, el *node) bool {
	var e struct {
		Hooks []struct {
			Command string `json:"command"`
		} `json:"hooks"`
	}
	if json.Unmarshal(src[el.start:el.end], &e) != nil {
		return false
	}
	for _, h := range e.Hooks {
		if hookcmd.IsHook(h.Command) {
			return true
		}
	}
	return false
}

func sameJSON(raw []byte, v any) bool {
	var a, b any
	want, _ := json.Marshal(v)
	return json.Unmarshal(raw, &a) == nil && json.Unmarshal(want, &b) == nil && fmt.Sprint(a) == fmt.Sprint(b)
}

// editor makes one textual edit to a JSON document, writing new values
// in the document's own style: its indentation unit, or compact when the
// document is on one line.
type editor struct {
	src     []byte
	unit    string
	compact bool
	crlf    bool // the file ends its lines with CR LF: so do the lines added
}

func newEditor(src []byte) *editor {
	e := &editor{src: src, unit: "  ", crlf: bytes.Contains(src, []byte("\r\n"))}
	trimmed := bytes.TrimSpace(src)
	if len(trimmed) > 2 && !bytes.Contains(trimmed, []byte("\n")) {
		e.compact = true
	}
	// The indentation unit is that of the first indented line.
	for _, line := range bytes.Split(src, []byte("\n"))[1:] {
		if ws := leadingSpace(line); ws != "" && len(bytes.TrimSpace(line)) > 0 {
			e.unit = ws
			break
		}
	}
	return e
}

func leadingSpace(line []byte) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return string(line[:i])
}

// indentAt is the indentation of the line holding offset.
func (e *editor) indentAt(offset int) string {
	lineStart := bytes.LastIndexByte(e.src[:offset], '\n') + 1
	return leadingSpace(e.src[lineStart:])
}

// render writes v as it should appear at nesting indent.
func (e *editor) render(v any, indent string) string {
	if e.compact {
		b, _ := json.Marshal(v)
		return string(b)
	}
	b, _ := json.MarshalIndent(v, indent, e.unit)
	return string(b)
}

func (e *editor) splice(start, end int, text string) []byte {
	if e.crlf {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	out := make([]byte, 0, len(e.src)+len(text))
	out = append(out, e.src[:start]...)
	out = append(out, text...)
	return append(out, e.src[end:]...)
}

func (e *editor) insertMember(obj *node, key string, v any) []byte {
	k, _ := json.Marshal(key)
	if e.compact {
		item := string(k) + ":" + e.render(v, "")
		if len(obj.members) == 0 {
			return e.splice(obj.start+1, obj.end-1, item)
		}
		return e.splice(obj.members[len(obj.members)-1].value.end, obj.members[len(obj.members)-1].value.end, ","+item)
	}
	if len(obj.members) == 0 {
		outer := e.indentAt(obj.start)
		inner := outer + e.unit
		return e.splice(obj.start+1, obj.end-1, "\n"+inner+string(k)+": "+e.render(v, inner)+"\n"+outer)
	}
	last := obj.members[len(obj.members)-1]
	inner := e.indentAt(last.keyStart)
	return e.splice(last.value.end, last.value.end, ",\n"+inner+string(k)+": "+e.render(v, inner))
}

func (e *editor) insertElement(arr *node, v any) []byte {
	if e.compact {
		if len(arr.elements) == 0 {
			return e.splice(arr.start+1, arr.end-1, e.render(v, ""))
		}
		end := arr.elements[len(arr.elements)-1].end
		return e.splice(end, end, ","+e.render(v, ""))
	}
	if len(arr.elements) == 0 {
		outer := e.indentAt(arr.start)
		inner := outer + e.unit
		return e.splice(arr.start+1, arr.end-1, "\n"+inner+e.render(v, inner)+"\n"+outer)
	}
	last := arr.elements[len(arr.elements)-1]
	inner := e.indentAt(last.start)
	return e.splice(last.end, last.end, ",\n"+inner+e.render(v, inner))
}

func (e *editor) replace(n *node, v any) []byte {
	return e.splice(n.start, n.end, e.render(v, e.indentAt(n.start)))
}

// removeElement takes el out of arr with the separator that goes with it.
func (e *editor) removeElement(arr, el *node) []byte {
	i := 0
	for i < len(arr.elements) && arr.elements[i] != el {
		i++
	}
	switch {
	case len(arr.elements) == 1:
		return e.splice(arr.start+1, arr.end-1, "")
	case i < len(arr.elements)-1:
		return e.splice(el.start, arr.elements[i+1].start, "")
	default:
		return e.splice(arr.elements[i-1].end, el.end, "")
	}
}

// setTopLevel returns settings with key set to v at the top level, unless
// it is there already (then unchanged: a value someone set stays theirs).
func setTopLevel(file string, settings []byte, key string, v any) ([]byte, error) {
	root, err := parseTree(settings)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, fmt.Errorf("%s: the settings are not a JSON object; nothing was written", file)
	}
	if root.get(key) != nil {
		return settings, nil
	}
	return newEditor(settings).insertMember(root, key, v), nil
}
