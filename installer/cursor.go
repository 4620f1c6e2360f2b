package installer

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/agentjail/agentjail/agents/cursor"
	"github.com/agentjail/agentjail/internal/hookcmd"
)

// cursorPart is Cursor: ~/.cursor/hooks.json, {"version": 1, "hooks":
// {event: [{"command": ...}]}}, one entry per event the hook answers.
// Cursor voids the whole file for one event name it does not know, so
// only the events it documents are written. With fail_mode: closed each
// entry sets Cursor's own failClosed, so a hook that cannot run blocks.
type cursorPart struct{}

func (cursorPart) name() string { return "cursor" }

func (cursorPart) dir(o Options) string { return filepath.Join(o.UserHome, ".cursor") }

// Cursor documents no switch that turns hooks off.
func (cursorPart) off(o Options) []string { return nil }

func (o Options) cursorHooksPath() string {
	if o.System {
		return cursorSystemHooksPath
	}
	return filepath.Join(o.UserHome, ".cursor", "hooks.json")
}

func (p cursorPart) found(o Options) bool {
	return foundByFacts(p, filepath.Join(o.UserHome, facts(p).Folder))
}

// cursorEntry is one event's entry.
type cursorEntry struct {
	Command    string `json:"command"`
	FailClosed bool   `json:"failClosed,omitempty"`
}

func (o Options) cursorEntry() cursorEntry {
	return cursorEntry{Command: o.agentHookCommand("cursor"), FailClosed: o.FailClosed}
}

// cursorPostEntry is the post-tool event's entry: the hook with --post,
// and no failClosed (the call has run; there is nothing to block).
func (o Options) cursorPostEntry() cursorEntry {
	return cursorEntry{Command: postCommand(o.agentHookCommand("cursor"))}
}

func (cursorPart) edits(o Options) []fileEdit {
	path := o.cursorHooksPath()
	return []fileEdit{{path: path, add: func(old []byte) ([]byte, error) {
		return addCursorHooks(path, old, o.cursorEntry(), o.cursorPostEntry())
	}}}
}

func (cursorPart) known(o Options) []string { return []string{o.cursorHooksPath()} }

func jsonEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// addCursorHooks returns hooks.json with our entry under each of
// cursor.Events, and post under its post-tool event, replacing ours
// where it differs, keeping everything else byte for byte.
func addCursorHooks(file string, src []byte, pre, post cursorEntry) ([]byte, error) {
	if len(strings.TrimSpace(string(src))) == 0 {
		src = []byte("{\n  \"version\": 1\n}\n")
	}
	type add struct {
		event string
		entry cursorEntry
	}
	var adds []add
	for _, e := range cursor.Events {
		adds = append(adds, add{e, pre})
	}
	if cursor.Agent.PostEvent != "" {
		adds = append(adds, add{cursor.Agent.PostEvent, post})
	}
	for i := 0; i < len(adds); i++ {
		event, entry := adds[i].event, adds[i].entry
		if err := checkJSON(file, src); err != nil {
			return nil, err
		}
		root, err := parseTree(src)
		if err != nil {
			return nil, err
		}
		if root.kind != '{' {
			return nil, fmt.Errorf("%s: not a JSON object; nothing was written", file)
		}
		ed := newEditor(src)
		if root.get("version") == nil {
			src = ed.insertMember(root, "version", 1)
			i-- // re-parse, then this event again
			continue
		}
		hooks := root.get("hooks")
		switch {
		case hooks == nil:
			src = ed.insertMember(root, "hooks", map[string][]cursorEntry{event: {entry}})
			continue
		case hooks.kind != '{':
			return nil, fmt.Errorf("%s: \"hooks\" is not an object; nothing was written", file)
		}
		list := hooks.get(event)
		switch {
		case list == nil:
			src = ed.insertMember(hooks, event, []cursorEntry{entry})
			continue
		case list.kind != '[':
			return nil, fmt.Errorf("%s: \"hooks.%s\" is not an array; nothing was written", file, event)
		}
		done := false
		for _, el := range list.elements {
			var e struct {
				Command string `json:"command"`
			}
			if json.Unmarshal(src[el.start:el.end], &e) != nil || !hookcmd.IsHook(e.Command) {
				continue
			}
			if !sameJSON(src[el.start:el.end], entry) {
				src = ed.replace(el, entry)
			}
			done = true
			break
		}
		if !done {
			src = ed.insertElement(list, entry)
		}
	}
	return src, nil
}

// removeCursorHooks takes every entry running agentjail-hook out of
// hooks.json.
func removeCursorHooks(file string, src []byte) ([]byte, bool, error) {
	if err := checkJSON(file, src); err != nil {
		return nil, false, err
	}
	removed := false
	for {
		root, err := parseTree(src)
		if err != nil || root.kind != '{' {
			return src, removed, err
		}
		hooks := root.get("hooks")
		if hooks == nil || hooks.kind != '{' {
			return src, removed, nil
		}
		var el, arr *node
		for _, m := range hooks.members {
			if m.value.kind != '[' {
				continue
			}
			for _, e := range m.value.elements {
				var x struct {
					Command string `json:"command"`
				}
				if json.Unmarshal(src[e.start:e.end], &x) == nil && hookcmd.IsHook(x.Command) {
					el, arr = e, m.value
					break
				}
			}
			if el != nil {
				break
			}
		}
		if el == nil {
			return src, removed, nil
		}
		src = newEditor(src).removeElement(arr, el)
		removed = true
	}
}
