package installer

import (
	"path/filepath"

	"github.com/agentjail/agentjail/agents/claude"
)

// claudePart is Claude Code: ~/.claude/settings.json (or the project's).
type claudePart struct{}

func (claudePart) name() string { return claude.Agent.Name }

func (p claudePart) found(o Options) bool {
	return foundByFacts(p, filepath.Join(o.UserHome, facts(p).Folder))
}

// dir is the folder of the settings file install writes: ~/.claude, or
// the project's .claude with Scope "project".
func (claudePart) dir(o Options) string   { return filepath.Dir(o.SettingsPath()) }
func (claudePart) off(o Options) []string { return o.claudeOff() }

func (claudePart) edits(o Options) []fileEdit {
	path := o.SettingsPath()
	return []fileEdit{{path: path, add: func(old []byte) ([]byte, error) {
		out, err := o.addHooks(claude.Agent.Name, path, old, o.entry())
		if err == nil && o.System && o.ManagedHooksOnly {
			out, err = setTopLevel(path, out, "allowManagedHooksOnly", true)
		}
		return out, err
	}}}
}

func (claudePart) known(o Options) []string {
	oo := o
	oo.Scope = "user"
	return append([]string{oo.SettingsPath()}, o.projectFiles()...)
}
