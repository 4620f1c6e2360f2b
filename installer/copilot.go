package installer

import (
	"bytes"
	"os"
	"path/filepath"
	"time"
)

// copilotPart is the GitHub Copilot CLI: a hooks file of our own in
// ~/.copilot/hooks/ (every *.json there is read), so nothing of the
// user's is edited at all.
type copilotPart struct{}

func (copilotPart) name() string { return "copilot" }

func (copilotPart) dir(o Options) string   { return o.copilotHome() }
func (copilotPart) off(o Options) []string { return o.copilotOff() }

func (o Options) copilotHome() string {
	if h := os.Getenv("COPILOT_HOME"); h != "" {
		return h
	}
	return filepath.Join(o.UserHome, ".copilot")
}

func (o Options) copilotHooksPath() string {
	if o.System {
		return filepath.Join(copilotPolicyDir, "agentjail.json")
	}
	return filepath.Join(o.copilotHome(), "hooks", "agentjail.json")
}

func (p copilotPart) found(o Options) bool { return foundByFacts(p, o.copilotHome()) }

// copilotFile is the whole hooks file: preToolUse runs the hook with a
// timeout of agentTimeout (in seconds); Copilot
// runs the tool when a hook times out, and blocks it when a hook fails.
// postToolUse runs it with --post, bounded by postTimeout.
func (o Options) copilotFile() []byte {
	cmd := o.agentHookCommand("copilot")
	hooks := map[string]any{
		"preToolUse": []any{map[string]any{
			"type":       "command",
			"bash":       cmd,
			"timeoutSec": int(o.agentTimeout() / time.Second),
		}},
	}
	if ev := postEvent("copilot"); ev != "" {
		hooks[ev] = []any{map[string]any{
			"type":       "command",
			"bash":       postCommand(cmd),
			"timeoutSec": int(o.postTimeout() / time.Second),
		}}
	}
	return mustJSONIndent(map[string]any{"version": 1, "hooks": hooks})
}

func mustJSONIndent(v any) []byte {
	var buf bytes.Buffer
	enc := jsonEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.Encode(v)
	return buf.Bytes()
}

// In system mode with ManagedHooksOnly, the managed settings also get
// "allowManagedHooksOnly": true. Copilot runs the policy hooks first
// and the user's own after them, and a later hook's modifiedArgs
// rewrites the command agentjail's hook approved; with the key, no
// user, repository or plugin hook loads. An admin's other keys stay,
// and uninstall puts the file back as it was.
func (copilotPart) edits(o Options) []fileEdit {
	edits := []fileEdit{{path: o.copilotHooksPath(), add: func([]byte) ([]byte, error) { return o.copilotFile(), nil }}}
	if o.System && o.ManagedHooksOnly {
		edits = append(edits, fileEdit{path: copilotManagedSettings, setting: true, add: func(old []byte) ([]byte, error) {
			if len(bytes.TrimSpace(old)) == 0 {
				old = []byte("{}\n")
			}
			return setTopLevel(copilotManagedSettings, old, "allowManagedHooksOnly", true)
		}})
	}
	return edits
}

func (copilotPart) known(o Options) []string {
	if o.System {
		return []string{o.copilotHooksPath(), copilotManagedSettings}
	}
	return []string{o.copilotHooksPath()}
}

// removeCopilotHooks: the file is ours; whatever is in it goes with it.
func removeCopilotHooks(file string, cur []byte) ([]byte, bool, error) {
	return nil, true, nil
}
