package installer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentjail/agentjail/agents/cline"
	"github.com/agentjail/agentjail/internal/hookcmd"
)

// clinePart is the Cline CLI: an executable file named PreToolUse in
// ~/.cline/hooks/ ($CLINE_DIR/hooks when set), a tiny /bin/sh script
// that runs agentjail's hook, and one named PostToolUse that runs it
// with --post. Cline runs every PreToolUse file it finds
// (PreToolUse, PreToolUse.sh, PreToolUse.py ... in that folder, in
// ~/Documents/Cline/Hooks and in a project's .clinerules/hooks and
// .cline/hooks), and a cancel from any of them stops the call, so a hook
// of the user's beside ours takes nothing from it. A PreToolUse file that
// is not ours is never overwritten: install refuses and says how to keep
// both. Cline has no machine-wide place for hooks.
type clinePart struct{}

func (clinePart) name() string { return "cline" }

func (clinePart) dir(o Options) string { return o.clineDir() }

func (clinePart) found(o Options) bool { return isDir(o.clineDir()) || onPath("cline") }

// off: Cline has no switch that turns hooks off; in system mode it has no
// machine-wide place to read a hook from.
func (clinePart) off(o Options) []string {
	if o.System {
		return []string{"Cline reads hooks only from each user's ~/.cline/hooks, ~/Documents/Cline/Hooks and the project's .clinerules/hooks; it has no machine-wide place, so each user must run `agentjail install --for cline`"}
	}
	return nil
}

// clineDir is Cline's own folder: $CLINE_DIR, else ~/.cline (the CLI's
// --config moves it for one run).
func (o Options) clineDir() string {
	if d := strings.TrimSpace(os.Getenv("CLINE_DIR")); d != "" {
		return d
	}
	return filepath.Join(o.UserHome, ".cline")
}

func (o Options) clineHookPath() string { return filepath.Join(o.clineDir(), "hooks", "PreToolUse") }

// clinePostPath is the file of Cline's post-tool event, beside the
// PreToolUse file; "" when agentjail wires none.
func (o Options) clinePostPath() string {
	if cline.Agent.PostEvent == "" {
		return ""
	}
	return filepath.Join(o.clineDir(), "hooks", cline.Agent.PostEvent)
}

// clineMarker is the line that makes a hook file for event ours.
func clineMarker(event string) string {
	return "# agentjail: Cline's " + event + " hook, written by `agentjail install --for cline`; `agentjail uninstall` removes it."
}

// clineScript is the hook file for event, running command. Cline runs a
// file with a #! line through the program that line names, and only
// the JSON the hook prints counts.
func clineScript(event, command string) []byte {
	return []byte("#!/bin/sh\n" + clineMarker(event) + "\nexec " + command + "\n")
}

// isClineHook reports a hook file of ours: a marker, and an exec of
// agentjail-hook.
func isClineHook(src []byte) bool {
	mine := bytes.Contains(src, []byte(clineMarker("PreToolUse")))
	if ev := cline.Agent.PostEvent; ev != "" {
		mine = mine || bytes.Contains(src, []byte(clineMarker(ev)))
	}
	return mine && len(clineHookUses(src)) > 0
}

// clineHookUses are the hook command lines our script execs, for the
// checks of an entry's flags.
func clineHookUses(src []byte) []hookUse {
	var out []hookUse
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "exec "); ok && hookcmd.IsHook(rest) {
			out = append(out, hookUse{command: rest, entry: map[string]any{}})
		}
	}
	return out
}

// edits: PreToolUse, and the post-tool file running the hook with
// --post. A post-tool file of the user's is left alone, and then none
// of ours is written: the pre-tool hook guards the same, and the daemon
// learns of calls that ran from the pre-tool hook alone.
func (clinePart) edits(o Options) []fileEdit {
	if o.System {
		return nil
	}
	path := o.clineHookPath()
	out := []fileEdit{{path: path, mode: 0o755, add: func(old []byte) ([]byte, error) {
		if old != nil && !isClineHook(old) {
			return nil, fmt.Errorf("%s is a hook of your own, and agentjail does not overwrite it; nothing was written. Cline runs every PreToolUse hook in that folder, whatever its extension: rename yours (to PreToolUse.sh, say) and run install again to have both", o.tildePath(path))
		}
		return clineScript("PreToolUse", o.agentHookCommand("cline")), nil
	}}}
	if post := o.clinePostPath(); post != "" {
		if cur, err := os.ReadFile(post); err == nil && !isClineHook(cur) {
			return out
		}
		out = append(out, fileEdit{path: post, mode: 0o755, add: func([]byte) ([]byte, error) {
			return clineScript(cline.Agent.PostEvent, postCommand(o.agentHookCommand("cline"))), nil
		}})
	}
	return out
}

func (clinePart) known(o Options) []string {
	if o.System {
		return nil
	}
	if post := o.clinePostPath(); post != "" {
		return []string{o.clineHookPath(), post}
	}
	return []string{o.clineHookPath()}
}

// isClineHookPath reports a path where install writes one of Cline's
// hooks.
func isClineHookPath(path string) bool {
	base := filepath.Base(path)
	return (base == "PreToolUse" || base == cline.Agent.PostEvent && base != "") && filepath.Base(filepath.Dir(path)) == "hooks"
}

// removeClineHook: the file is ours, and goes whole; a hook of the
// user's is left alone.
func removeClineHook(file string, cur []byte) ([]byte, bool, error) {
	if !isClineHook(cur) {
		return cur, false, nil
	}
	return nil, true, nil
}
