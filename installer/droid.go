package installer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// droidPart is Factory's Droid CLI. Droid reads hooks, in Claude Code's
// entry format, from ~/.factory/hooks.json (keyed by event name, with no
// "hooks" wrapper; when that file is missing, from the older
// ~/.factory/hooks/hooks.json instead) and from the "hooks" key of
// ~/.factory/settings.json, merging the two event by event: an event
// listed in the hooks file replaces the same event of settings.json.
// Install puts its entry where Droid will run it without hiding any of
// the user's own: see droidTarget. Machine-wide, the "hooks" key of
// Droid's system settings, which it reads as its organisation's.
type droidPart struct{}

func (droidPart) name() string { return "droid" }

func (droidPart) dir(o Options) string { return o.droidHome() }

// droidHome is ~/.factory; Droid takes the home from
// FACTORY_HOME_OVERRIDE when it is set.
func (o Options) droidHome() string {
	home := o.UserHome
	if h := os.Getenv("FACTORY_HOME_OVERRIDE"); h != "" {
		home = h
	}
	return filepath.Join(home, ".factory")
}

func (droidPart) found(o Options) bool { return isDir(o.droidHome()) || onPath("droid") }

func (o Options) droidHooksPath() string    { return filepath.Join(o.droidHome(), "hooks.json") }
func (o Options) droidLegacyPath() string   { return filepath.Join(o.droidHome(), "hooks", "hooks.json") }
func (o Options) droidSettingsPath() string { return filepath.Join(o.droidHome(), "settings.json") }

// droidEntry is the PreToolUse entry: Droid's timeout is agentTimeout,
// in seconds (Droid runs the tool when a hook times out), and a command
// the hook rewrites to run in the jail keeps the model's risk level.
func (o Options) droidEntry() HookEntry {
	return HookEntry{Matcher: "*", Hooks: []HookCommand{{
		Type:              "command",
		Command:           o.agentHookCommand("droid"),
		Timeout:           int(o.agentTimeout() / time.Second),
		PreserveRiskLevel: true,
	}}}
}

// droidTarget is the file install writes: the one whose PreToolUse list
// Droid runs, so that neither ours nor the user's is hidden. The hooks
// file in use (hooks.json, else the older hooks/hooks.json) wins where it
// lists PreToolUse, or where settings.json lists none; otherwise
// settings.json does, and a PreToolUse added to the hooks file would hide
// the user's. With neither file there, hooks.json is made: making it
// would hide the older file, so that one is written while it is there.
func (o Options) droidTarget() string {
	hooksFile := o.droidHooksPath()
	if _, err := os.Stat(hooksFile); err != nil {
		hooksFile = o.droidLegacyPath()
		if _, err := os.Stat(hooksFile); err != nil {
			hooksFile = o.droidHooksPath()
		}
	}
	if hasPreToolUse(hooksFile, false) || !hasPreToolUse(o.droidSettingsPath(), true) {
		return hooksFile
	}
	return o.droidSettingsPath()
}

// hasPreToolUse reports a file that lists PreToolUse: at its top level
// (a hooks file) or under "hooks" (settings.json).
func hasPreToolUse(path string, underHooks bool) bool {
	doc := readSettingsJSON(path)
	if underHooks {
		doc, _ = doc["hooks"].(map[string]any)
	}
	_, ok := doc["PreToolUse"]
	return ok
}

// In system mode the system settings also get "allowManagedHooksOnly":
// true, with or without ManagedHooksOnly: a project's
// .factory/settings.json, which Droid reads with no trust step, can
// otherwise set "hooks": {"hooksDisabled": true} and turn every hook
// off, the organisation's too, so any cloned repository could switch the
// guard off. It also stops the users' own Droid hooks; install says so.
func (droidPart) edits(o Options) []fileEdit {
	if o.System {
		path := droidSystemSettingsPath
		return []fileEdit{{path: path, add: func(old []byte) ([]byte, error) {
			out, err := o.addHooks("droid", path, old, o.droidEntry())
			if err == nil {
				out, err = setTopLevel(path, out, "allowManagedHooksOnly", true)
			}
			return out, err
		}}}
	}
	path := o.droidTarget()
	if path == o.droidSettingsPath() {
		return []fileEdit{{path: path, add: func(old []byte) ([]byte, error) { return o.addHooks("droid", path, old, o.droidEntry()) }}}
	}
	return []fileEdit{{path: path, add: func(old []byte) ([]byte, error) { return o.addDroidHooks(path, old, o.droidEntry()) }}}
}

func (droidPart) known(o Options) []string {
	if o.System {
		return []string{droidSystemSettingsPath}
	}
	return []string{o.droidHooksPath(), o.droidLegacyPath(), o.droidSettingsPath()}
}

// off: "hooksDisabled": true in the hooks of the user's settings.json or
// hooks file turns every hook off; the organisation's settings can do
// the same, or run only their own hooks.
func (droidPart) off(o Options) []string {
	var out []string
	if doc := readSettingsJSON(o.droidSettingsPath()); doc != nil {
		if h, _ := doc["hooks"].(map[string]any); h["hooksDisabled"] == true {
			out = append(out, fmt.Sprintf(`%s sets "hooks": {"hooksDisabled": true}, so Droid runs no hooks: remove the key or set it to false`, o.tildePath(o.droidSettingsPath())))
		}
	}
	for _, f := range []string{o.droidHooksPath(), o.droidLegacyPath()} {
		if doc := readSettingsJSON(f); doc != nil && doc["hooksDisabled"] == true {
			out = append(out, fmt.Sprintf(`%s sets "hooksDisabled": true, so Droid runs no hooks: remove the key or set it to false`, o.tildePath(f)))
			break
		}
	}
	if doc := readSettingsJSON(droidSystemSettingsPath); doc != nil {
		if h, _ := doc["hooks"].(map[string]any); h["hooksDisabled"] == true {
			out = append(out, fmt.Sprintf(`the organisation's settings %s set "hooks": {"hooksDisabled": true}, so Droid runs no hooks: ask whoever manages this machine to remove it`, droidSystemSettingsPath))
		} else if doc["allowManagedHooksOnly"] == true && !o.System {
			out = append(out, fmt.Sprintf(`the organisation's settings %s set "allowManagedHooksOnly": true, so Droid runs only their hooks, not the one in your settings: ask whoever manages this machine to put agentjail's hook there (sudo agentjail install --system)`, droidSystemSettingsPath))
		}
	}
	return out
}

// addDroidHooks returns a Droid hooks file (events at the top level)
// with our PreToolUse entry and its PostToolUse twin added, or updated
// where they are; everything else is kept byte for byte, and unchanged
// input comes back unchanged.
func (o Options) addDroidHooks(file string, src []byte, entry HookEntry) ([]byte, error) {
	out, err := addDroidHook(file, src, "PreToolUse", entry)
	if ev := postEvent("droid"); err == nil && ev != "" {
		out, err = addDroidHook(file, out, ev, o.postEntry(entry))
	}
	return out, err
}

// addDroidHook adds one event's entry to a Droid hooks file.
func addDroidHook(file string, src []byte, event string, entry HookEntry) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	if err := checkJSON(file, src); err != nil {
		return nil, err
	}
	root, err := parseTree(src)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, fmt.Errorf("%s: the hooks are not a JSON object; nothing was written", file)
	}
	if err := checkDuplicates(file, src, root, ""); err != nil {
		return nil, err
	}
	return addEntryAt(file, src, newEditor(src), root, "", event, entry)
}

// removeDroidHooks takes every entry that runs agentjail-hook out of a
// Droid hooks file, under whatever event it is, keeping everything else.
func removeDroidHooks(file string, src []byte) ([]byte, bool, error) {
	if err := checkJSON(file, src); err != nil {
		return nil, false, err
	}
	removed := false
	for {
		root, err := parseTree(src)
		if err != nil {
			return nil, false, err
		}
		el, arr := findOurEntry(src, &node{kind: '{', members: []member{{key: "hooks", value: root}}})
		if el == nil {
			return src, removed, nil
		}
		src = newEditor(src).removeElement(arr, el)
		removed = true
	}
}

// isDroidHooksFile reports a Droid hooks file: hooks.json in a .factory
// folder, or in its hooks folder.
func isDroidHooksFile(path string) bool {
	if filepath.Base(path) != "hooks.json" {
		return false
	}
	dir := filepath.Dir(path)
	if filepath.Base(dir) == "hooks" {
		dir = filepath.Dir(dir)
	}
	return filepath.Base(dir) == ".factory"
}

func (droidPart) installNotes(o Options) []string {
	if !o.System {
		return nil
	}
	return []string{`Factory Droid: "allowManagedHooksOnly": true in ` + droidSystemSettingsPath + `, because a project's .factory/settings.json can otherwise switch every hook off, the machine-wide one too; the users' own Droid hooks no longer run`}
}
