package installer

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// qwenPart is Qwen Code: a PreToolUse entry in Claude Code's format in
// $QWEN_HOME/settings.json (default ~/.qwen), or, machine-wide, in its
// system settings file, which it merges last.
type qwenPart struct{}

func (qwenPart) name() string { return "qwen" }

func (qwenPart) dir(o Options) string { return o.qwenHome() }

func (o Options) qwenHome() string {
	if h := os.Getenv("QWEN_HOME"); h != "" {
		return h
	}
	return filepath.Join(o.UserHome, ".qwen")
}

func (o Options) qwenSettingsPath() string {
	if o.System {
		return qwenSystemSettings()
	}
	return filepath.Join(o.qwenHome(), "settings.json")
}

// qwenSystemSettings is Qwen Code's machine-wide settings file, which
// overrides the user's and the project's; system-defaults.json beside it
// is overridden by them.
func qwenSystemSettings() string {
	if p := os.Getenv("QWEN_CODE_SYSTEM_SETTINGS_PATH"); p != "" {
		return p
	}
	return qwenSystemSettingsPath
}

func qwenSystemDefaults() string {
	if p := os.Getenv("QWEN_CODE_SYSTEM_DEFAULTS_PATH"); p != "" {
		return p
	}
	return filepath.Join(filepath.Dir(qwenSystemSettings()), "system-defaults.json")
}

func (qwenPart) found(o Options) bool { return isDir(o.qwenHome()) || onPath("qwen") }

// qwenEntry is the PreToolUse entry: Qwen Code's timeout is
// agentTimeout, in seconds (it runs the tool when a hook times out).
func (o Options) qwenEntry() HookEntry {
	return HookEntry{Matcher: "*", Hooks: []HookCommand{{
		Type:    "command",
		Command: o.agentHookCommand("qwen"),
		Timeout: int(o.agentTimeout() / time.Second),
	}}}
}

// In system mode the system file also gets "disableAllHooks": false:
// it is merged last, so it outweighs a project's .qwen/settings.json
// that sets true, which Qwen Code reads with no trust step and which
// would otherwise turn every hook off, ours too.
func (qwenPart) edits(o Options) []fileEdit {
	path := o.qwenSettingsPath()
	return []fileEdit{{path: path, add: func(old []byte) ([]byte, error) {
		out, err := o.addHooks("qwen", path, old, o.qwenEntry())
		if err == nil && o.System {
			out, err = setTopLevel(path, out, "disableAllHooks", false)
		}
		return out, err
	}}}
}

func (qwenPart) known(o Options) []string { return []string{o.qwenSettingsPath()} }

// off: "disableAllHooks": true turns every hook off; the last of the
// system defaults, the user's settings and the system settings that sets
// it wins. (A project's .qwen/settings.json can set it too; install
// cannot see every project, see edits.)
func (qwenPart) off(o Options) []string {
	var setBy string
	for _, f := range []string{qwenSystemDefaults(), filepath.Join(o.qwenHome(), "settings.json"), qwenSystemSettings()} {
		doc := readSettingsJSON(f)
		if v, ok := doc["disableAllHooks"].(bool); ok {
			setBy = ""
			if v {
				setBy = f
			}
		}
	}
	if setBy == "" {
		return nil
	}
	return []string{fmt.Sprintf(`%s sets "disableAllHooks": true, so Qwen Code runs no hooks: remove the key or set it to false`, o.tildePath(setBy))}
}
