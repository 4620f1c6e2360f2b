package installer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/agents/kilo"
	"github.com/agentjail/agentjail/agents/opencode"
	"github.com/agentjail/agentjail/internal/agentconfig"
	"github.com/agentjail/agentjail/internal/wire"
)

// agentPart is one agent's part of the installer: where its hook
// configuration lives and how agentjail's hook goes in and comes out.
// Adding an agent is one file with a type implementing it, and one entry
// in agentParts.
type agentPart interface {
	// name is the agent's name, as in --for and the hook's --agent.
	name() string
	// found reports whether the agent is on this machine: its
	// configuration folder or its binary on PATH.
	found(o Options) bool
	// dir is the agent's own folder (~/.gemini): install without --for
	// wires an agent only where this folder is, and never makes it.
	dir(o Options) string
	// off lists the agent's own switches that stop it running the hook,
	// each saying where it is set and what to change; none when the
	// hook runs.
	off(o Options) []string
	// edits are the files install changes, in order.
	edits(o Options) []fileEdit
	// known are the files uninstall looks at, whatever install did.
	known(o Options) []string
}

// noter is a part with something to say when install wires it (a
// setting it changed beyond the hook).
type noter interface {
	installNotes(o Options) []string
}

// entryChecker is a part with checks of its own on a wired agent, beyond
// its entries' flags (Codex's trust of the hook).
type entryChecker interface {
	problems(o Options) []string
}

// agentParts is the one list of agents the installer knows.
var agentParts = []agentPart{claudePart{}, codexPart{}, geminiPart{}, copilotPart{}, cursorPart{}, qwenPart{}, droidPart{}, clinePart{}, piPart{}, pluginPart{opencode.Agent.Name}, pluginPart{kilo.Agent.Name}}

// AgentNames lists the agents --for accepts, besides "all".
func AgentNames() []string {
	var out []string
	for _, p := range agentParts {
		out = append(out, p.name())
	}
	return out
}

// FoundAgents lists the agents found on this machine.
func FoundAgents(o Options) []string {
	var out []string
	for _, p := range agentParts {
		if p.found(o) {
			out = append(out, p.name())
		}
	}
	return out
}

// agentChoice is what install does about one agent.
type agentChoice struct {
	part agentPart
	wire bool
	// found: the agent is on this machine; pathOnly: found by its
	// program alone, its folder missing (so not wired by default).
	found, pathOnly bool
	// makesDir: named with --for, its folder missing; install makes it.
	makesDir bool
}

// choose resolves Options.Agents. Named agents are wired, their folders
// made if need be (install says so). None, or "all", means every agent
// found on this machine whose own folder is there: an agent's folder is
// never made unasked. For a project (--scope project) none means
// Claude Code, the one agent with project settings.
func (o Options) choose() ([]agentChoice, error) {
	names := o.Agents
	if len(names) == 0 && o.Scope == "project" {
		names = []string{claude.Agent.Name}
	}
	var out []agentChoice
	seen := map[string]bool{}
	if len(names) == 0 || slices.Contains(names, "all") {
		for _, p := range agentParts {
			seen[p.name()] = true
			c := agentChoice{part: p, found: p.found(o)}
			c.wire = c.found && isDir(p.dir(o))
			c.pathOnly = c.found && !c.wire
			if o.System {
				// Machine-wide: every agent is wired, so one installed
				// later by any user is guarded from its first call.
				c.wire, c.pathOnly = true, false
			}
			out = append(out, c)
		}
	}
	for _, n := range names {
		if n == "all" {
			continue
		}
		p := partNamed(n)
		if p == nil {
			return nil, fmt.Errorf("unknown agent %q: use one of %s, or all", n, strings.Join(AgentNames(), ", "))
		}
		if !seen[p.name()] {
			seen[p.name()] = true
			out = append(out, agentChoice{part: p, wire: true, found: p.found(o), makesDir: !isDir(p.dir(o))})
		}
	}
	return out, nil
}

// parts are the agents install wires.
func (o Options) parts() ([]agentPart, error) {
	choices, err := o.choose()
	if err != nil {
		return nil, err
	}
	var out []agentPart
	for _, c := range choices {
		if c.wire {
			out = append(out, c.part)
		}
	}
	return out, nil
}

// describeChoices says which agents install wires and which it leaves,
// and why, before anything is written.
func (o Options) describeChoices(choices []agentChoice, out io.Writer) {
	wiring := "wiring"
	if o.DryRun {
		wiring = "would wire"
	}
	var wired, missing, notes []string
	for _, c := range choices {
		title := facts(c.part).Title
		switch {
		case c.wire && c.makesDir:
			wired = append(wired, title)
			verb := "makes"
			if o.DryRun {
				verb = "would make"
			}
			asked := "--for " + c.part.name()
			if len(o.Agents) == 0 {
				asked = "--scope project"
			}
			notes = append(notes, fmt.Sprintf("%s: %s does not exist; install %s it, as %s asked", title, o.tildePath(c.part.dir(o)), verb, asked))
		case c.wire:
			wired = append(wired, title)
			if n, ok := c.part.(noter); ok {
				notes = append(notes, n.installNotes(o)...)
			}
		case c.pathOnly:
			notes = append(notes, fmt.Sprintf("%s: found (its program is on PATH) but not wired: %s does not exist, and install makes no agent's folder unasked; `agentjail install --for %s` makes it and wires %s", title, o.tildePath(c.part.dir(o)), c.part.name(), title))
		default:
			missing = append(missing, title)
		}
	}
	if len(wired) == 0 {
		var dirs []string
		for _, p := range agentParts {
			dirs = append(dirs, o.tildePath(p.dir(o)))
		}
		var progs []string
		for _, p := range agentParts {
			progs = append(progs, facts(p).Programs...)
		}
		fmt.Fprintf(out, "no agent found to wire: looked for %s and for the programs %s on PATH; no agent's settings are changed\n", strings.Join(dirs, ", "), strings.Join(progs, ", "))
	} else {
		fmt.Fprintf(out, "agents: %s %s", wiring, strings.Join(wired, ", "))
		if len(missing) > 0 {
			fmt.Fprintf(out, "; not found: %s", strings.Join(missing, ", "))
		}
		fmt.Fprintln(out)
	}
	for _, n := range notes {
		fmt.Fprintln(out, n)
	}
	if len(wired) == 0 {
		fmt.Fprintf(out, "once an agent is installed, run `agentjail install` again; or wire one now with `agentjail install --for NAME` (%s), which makes its settings\n", strings.Join(AgentNames(), ", "))
	}
}

// warnSwitchedOff says, loudly, which wired agents will not run the hook
// because of a switch of their own.
func (o Options) warnSwitchedOff(parts []agentPart, out io.Writer) {
	for _, p := range parts {
		for _, why := range p.off(o) {
			fmt.Fprintf(out, "WARNING: %s will not run agentjail's hook: %s\n", facts(p).Title, why)
		}
	}
}

// partNamed is the part of the agent named n or one of its aliases.
func partNamed(n string) agentPart {
	a, ok := agents.Named(n)
	if !ok {
		return nil
	}
	for _, p := range agentParts {
		if p.name() == a.Name {
			return p
		}
	}
	return nil
}

// facts are the agent's facts (its title, folder and programs).
func facts(p agentPart) agent.Facts {
	a, _ := agents.Named(p.name())
	return a.Facts
}

// foundByFacts reports an agent on this machine: its folder (dir) or
// one of its programs on PATH.
func foundByFacts(p agentPart, dir string) bool {
	if isDir(dir) {
		return true
	}
	for _, prog := range facts(p).Programs {
		if onPath(prog) {
			return true
		}
	}
	return false
}

// fileEdit is one configuration file install changes.
type fileEdit struct {
	path string
	// add returns the file with agentjail's hook in it; old is nil when
	// the file does not exist. Unchanged input comes back unchanged.
	add func(old []byte) ([]byte, error)
	// setting marks an edit that holds no hook of ours, only a setting
	// beside it (Copilot's managed allowManagedHooksOnly): whether the
	// agent is wired is judged by the other edits.
	setting bool
	// mode is the new file's permissions; 0 means 0644.
	mode fs.FileMode
}

// pendingEdit is a fileEdit computed against the file as it is now.
type pendingEdit struct {
	path         string
	old, updated []byte
	missing      bool
	mode         fs.FileMode
}

func (p pendingEdit) changed() bool { return p.missing || !bytes.Equal(p.old, p.updated) }

// planEdits computes every file edit of the chosen agents, writing
// nothing: a broken file stops the install before anything is written.
func planEdits(o Options) ([]pendingEdit, error) {
	parts, err := o.parts()
	if err != nil {
		return nil, err
	}
	var out []pendingEdit
	for _, p := range parts {
		for _, e := range p.edits(o) {
			old, err := readThrough(e.path)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("reading %s: %w", e.path, err)
			}
			missing := err != nil
			if missing {
				old = nil
			} else if err := checkWritableTarget(e.path); err != nil {
				return nil, err
			}
			updated, err := e.add(old)
			if err != nil {
				return nil, err
			}
			out = append(out, pendingEdit{path: e.path, old: old, updated: updated, missing: missing, mode: e.mode})
		}
	}
	return out, nil
}

// readThrough reads a file, following a symlink to it, so that the edit
// goes to the file the agent reads. A FIFO, a device or an oversized file
// where a settings file should be is refused, not read: the daemon's
// health runs this too, and must not block on what an agent planted.
func readThrough(path string) ([]byte, error) { return agentconfig.ReadRegular(path) }

// writeTarget is where a write to path goes: the file its symlinks lead
// to, even one not written yet, so the link stays a link (see
// resolveLink).
func writeTarget(path string) (string, error) { return resolveLink(path) }

// checkWritableTarget refuses a file (or the file a link leads to) that
// its owner made read-only.
func checkWritableTarget(path string) error {
	target, err := writeTarget(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	if err != nil {
		return nil // not there: nothing to refuse
	}
	return checkWritable(target, fi)
}

// backupSuffix names the copy of a file as it was before install, kept
// beside it.
const backupSuffix = ".agentjail-backup"

// applyEdits writes the pending edits, each with a backup of the file it
// replaces and a record so uninstall can put it back byte for byte.
func applyEdits(o Options, edits []pendingEdit, out io.Writer) error {
	for _, e := range edits {
		if !e.changed() {
			fmt.Fprintf(out, "%s already has the agentjail hook\n", e.path)
			continue
		}
		target, err := writeTarget(e.path)
		if err != nil {
			return err
		}
		st := loadState(o.Home)
		rec, seen := st.Settings[e.path]
		if !seen {
			rec = settingsState{Created: e.missing}
			if !e.missing {
				// Beside the file written: a link's target may live in a
				// dotfiles repository, where its backup belongs too.
				rec.Backup = target + backupSuffix
				if err := writeAtomic(rec.Backup, e.old, 0o600); err != nil {
					return fmt.Errorf("backing up %s: %w", e.path, err)
				}
				fmt.Fprintf(out, "backed up %s to %s\n", target, rec.Backup)
			}
			// Folders made for the file (a first ~/.claude) go again with it.
			rec.CreatedDirs = missingDirs(filepath.Dir(target))
		} else if e.missing {
			// Deleted since: what install writes now is all ours.
			rec.Created, rec.Edited = true, false
		} else if rec.Written != sha(e.old) {
			// Changed by someone else since install last wrote it: the
			// backup (or, for a file install created, nothing) is no
			// longer the file without our part, and restoring it at
			// uninstall would lose those changes.
			rec.Edited = true
		}
		mode := e.mode
		if mode == 0 {
			mode = 0o644
		}
		if err := writeAtomic(target, e.updated, mode); err != nil {
			return fmt.Errorf("writing %s: %w", target, err)
		}
		rec.Written = sha(e.updated)
		rec.Target = target
		st.Settings[e.path] = rec
		if err := saveState(o.Home, st); err != nil {
			return err
		}
		if target != e.path {
			fmt.Fprintf(out, "added the agentjail hook to %s (written to %s, where the link leads; the link stays)\n", e.path, target)
		} else {
			fmt.Fprintf(out, "added the agentjail hook to %s\n", e.path)
		}
	}
	return nil
}

// describeEdits prints the pending edits as diffs, for --dry-run.
func describeEdits(edits []pendingEdit, out io.Writer) {
	for _, e := range edits {
		if e.changed() {
			fmt.Fprint(out, Diff(e.path, string(e.old), string(e.updated)))
		} else {
			fmt.Fprintf(out, "%s already has the agentjail hook: unchanged\n", e.path)
		}
	}
}

// uninstallFiles lists the files uninstall looks at for the chosen
// agents (every agent when none is chosen), with what install recorded.
func uninstallFiles(o Options) ([]string, error) {
	st := loadState(o.Home)
	files := map[string]bool{}
	var parts []agentPart
	if o.allAgents() {
		parts = agentParts
		for path := range st.Settings {
			// A project's file install recorded is another project's
			// unless it is this one's (then known lists it).
			if o.Scope == "" || o.Scope == "user" && o.inScope(path) && !inOtherProject(path, o) {
				files[path] = true
			}
		}
	} else {
		var err error
		if parts, err = o.parts(); err != nil {
			return nil, err
		}
	}
	for _, p := range parts {
		for _, path := range p.known(o) {
			if o.inScope(path) {
				files[path] = true
			}
		}
	}
	list := make([]string, 0, len(files))
	for f := range files {
		list = append(list, f)
	}
	// Codex's trust entry goes after its hooks.json; any stable order
	// serves, but a sorted one reads better in --dry-run.
	sort.Strings(list)
	return list, nil
}

// inOtherProject reports a Claude Code project file install wrote for a
// project other than o.ProjectDir: --scope user leaves it alone.
func inOtherProject(path string, o Options) bool {
	return filepath.Base(filepath.Dir(path)) == ".claude" && filepath.Dir(filepath.Dir(path)) != o.UserHome
}

// removeHooksFrom takes agentjail's hook out of one file, in its format.
func removeHooksFrom(path string, cur []byte) ([]byte, bool, error) {
	switch {
	case isPluginPath(path):
		return removePlugin(path, cur)
	case isDroidHooksFile(path):
		return removeDroidHooks(path, cur)
	case path == codexRequirements:
		return removeCodexRequirements(path, cur)
	case filepath.Base(path) == "config.toml":
		return removeCodexTrust(path, cur)
	case path == geminiSystemSettingsPath, filepath.Base(filepath.Dir(path)) == ".gemini":
		return removeGeminiHooks(path, cur)
	case path == cursorSystemHooksPath, filepath.Base(filepath.Dir(path)) == ".cursor":
		return removeCursorHooks(path, cur)
	case filepath.Dir(path) == copilotPolicyDir, filepath.Base(filepath.Dir(path)) == "hooks" && filepath.Base(filepath.Dir(filepath.Dir(path))) == ".copilot":
		return removeCopilotHooks(path, cur)
	case isClineHookPath(path):
		return removeClineHook(path, cur)
	case isPiExtension(path):
		return removePiExtension(path, cur)
	}
	return RemoveHooks(path, cur)
}

// onPath reports whether a program is on PATH.
func onPath(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// agentHookCommand is the hook command for an agent other than Claude
// Code: the installed hook with --agent.
func (o Options) agentHookCommand(agent string) string {
	return o.hookCommandLine(o.holdFor(agent)) + " --agent " + agent
}

// projectFiles are the files of the project in o.ProjectDir that an
// install with --scope project writes or once wrote: Claude Code's
// personal project settings (the only agent with a project scope), and
// the committed settings.json earlier versions put the hook in.
func (o Options) projectFiles() []string {
	oo := o
	oo.Scope = "project"
	return []string{oo.SettingsPath(), filepath.Join(o.ProjectDir, ".claude", "settings.json")}
}

// inScope reports whether uninstall looks at path for o.Scope: "" every
// file, "project" the project's files alone, "user" all but them.
func (o Options) inScope(path string) bool {
	switch o.Scope {
	case "project":
		return slices.Contains(o.projectFiles(), path)
	case "user":
		return !slices.Contains(o.projectFiles(), path)
	}
	return true
}

// allAgents reports an uninstall of every agent (no --for, or all).
func (o Options) allAgents() bool {
	return len(o.Agents) == 0 || (len(o.Agents) == 1 && o.Agents[0] == "all")
}

// Whole reports an uninstall of agentjail as a whole: every agent, every
// scope. Only a whole uninstall stops the daemon, and only it may purge.
func (o Options) Whole() bool { return o.allAgents() && o.Scope == "" }

// forgetFiles drops the install records of files an uninstall of some
// agents has dealt with.
func forgetFiles(o Options, files []string) error {
	if o.DryRun {
		return nil
	}
	st := loadState(o.Home)
	for _, f := range files {
		delete(st.Settings, f)
	}
	return saveState(o.Home, st)
}

// AgentState is one agent as status, the daemon's health and the tray
// see it: the one check of whether an agent on this machine is guarded.
type AgentState struct {
	Name  string `json:"name"`  // as in --for and the hook's --agent
	Title string `json:"title"` // as people call it ("Gemini CLI")
	// Found: the agent is on this machine (its configuration folder, or
	// its program on PATH).
	Found bool `json:"found"`
	// Wired: every file install edits for it already has agentjail's
	// part (for Codex, the hook and its trust).
	Wired bool `json:"wired"`
	// Off lists the agent's own switches that stop it running any hook
	// (Claude Code's disableAllHooks, ...), each saying what to change;
	// set whether or not it is wired.
	Off []string `json:"switched_off,omitempty"`
	// Problems are what is wrong with a wired agent's entries: the hook
	// program missing or not executable, flags that differ from
	// config.yaml's fail_mode, hook_timeout or approval_timeout, an
	// agent timeout too short for the hook's run. Further checks of an
	// entry (such as whether Codex still trusts it) add theirs here.
	Problems []string `json:"problems,omitempty"`
	// NoFolder: found by its program alone, its own folder missing, so
	// install wires it only when named with --for.
	NoFolder bool `json:"no_folder,omitempty"`
}

// Guarded reports an agent whose tool calls reach agentjail: wired, not
// switched off, its entries sound.
func (a AgentState) Guarded() bool { return a.Wired && len(a.Off) == 0 && len(a.Problems) == 0 }

// Summary is the agent in a few words, for status's agents line.
func (a AgentState) Summary() string {
	switch {
	case a.Wired && len(a.Off) > 0:
		return "wired, switched off"
	case a.Wired && len(a.Problems) > 0:
		return "wired, entry broken"
	case a.Wired:
		return "wired"
	case a.Found:
		return "found, not wired"
	}
	return "not found"
}

// Agents reports every agent the installer knows, in its order: whether
// it is found on this machine, whether its configuration has the hook,
// whether a switch of its own keeps the hook from running, and what is
// wrong with its entries, judged against o's FailClosed, HookTimeout
// and ApprovalTimeout (config.yaml's). It reads, never writes; a file
// that cannot be read or parsed counts as not wired (install then says
// what is wrong with it).
func Agents(o Options) []AgentState {
	out := make([]AgentState, 0, len(agentParts))
	for _, p := range agentParts {
		s := AgentState{Name: p.name(), Title: facts(p).Title, Found: p.found(o), Wired: true}
		s.NoFolder = s.Found && !isDir(p.dir(o))
		edits := slices.DeleteFunc(p.edits(o), func(e fileEdit) bool { return e.setting })
		curs := make([][]byte, len(edits))
		for i, e := range edits {
			cur, err := readThrough(e.path)
			if err != nil {
				s.Wired = false
				break
			}
			if _, has, err := removeHooksFrom(e.path, cur); err != nil || !has {
				s.Wired = false
				break
			}
			curs[i] = cur
		}
		s.Wired = s.Wired && len(edits) > 0
		if s.Wired || s.Found {
			s.Off = p.off(o)
		}
		if s.Wired {
			for i, e := range edits {
				if filepath.Ext(e.path) == ".toml" {
					continue // Codex's trust: not an entry of flags
				}
				s.Problems = append(s.Problems, o.entryProblems(p.name(), e.path, curs[i])...)
			}
			if c, ok := p.(entryChecker); ok {
				s.Problems = append(s.Problems, c.problems(o)...)
			}
		}
		out = append(out, s)
	}
	return out
}

// AgentProblems are the health problems of the agents: each found agent
// that is not guarded, with what fixes it. None means every agent on
// this machine sends its tool calls to agentjail.
func AgentProblems(agents []AgentState) []wire.Problem {
	var out []wire.Problem
	for _, a := range agents {
		switch {
		case a.Wired && len(a.Off) > 0:
			for _, why := range a.Off {
				out = append(out, wire.Problem{
					Kind:    "agent_off",
					Message: fmt.Sprintf("%s does not run agentjail's hook, so its tool calls are not checked: %s", a.Title, why),
					Fix:     fmt.Sprintf("change the setting named above, then start %s again", a.Title),
				})
			}
		case a.Wired && len(a.Problems) > 0:
			for _, why := range a.Problems {
				out = append(out, wire.Problem{
					Kind:    "agent_entry",
					Message: fmt.Sprintf("%s: %s", a.Title, why),
					Fix:     "run `agentjail install` to write agentjail's entry for every agent again",
				})
			}
		case a.Found && !a.Wired:
			fix := "run `agentjail install`"
			if a.NoFolder {
				fix = fmt.Sprintf("run `agentjail install --for %s`: its folder is missing, and install without --for makes none", a.Name)
			}
			out = append(out, wire.Problem{
				Kind:    "agent_unguarded",
				Message: fmt.Sprintf("%s is on this machine but agentjail's hook is not in its settings, so its tool calls are not checked", a.Title),
				Fix:     fix,
			})
		}
	}
	return out
}
