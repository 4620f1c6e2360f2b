// Package input builds the policy input from one hook event: the event
// exactly as the agent sent it (unknown fields kept), plus what the daemon
// derives, under the single key input.agentjail. Policies read derived
// facts from there instead of re-deriving them in Rego.
package input

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/internal/agentconfig"
	"github.com/agentjail/agentjail/internal/jsonscan"
	"github.com/agentjail/agentjail/internal/realpath"
	"github.com/agentjail/agentjail/internal/shell"
	"github.com/agentjail/agentjail/internal/written"
)

// Key is the top-level input field that holds derived facts. Whatever the
// event carried under this key is replaced: only the daemon writes it.
const Key = "agentjail"

// Env is what the daemon knows beyond the event.
type Env struct {
	Home          string // the user's home directory
	AgentjailHome string // $AGENTJAIL_HOME
	ClientCwd     string // the hook's working directory, used when the event has no absolute cwd
	Agent         string // agents.Default when empty
	Temp          string // the temp directory, for $TMPDIR
	DaemonPID     int    // the daemon's pid, so rules can refuse `kill PID`
	// Daemon identifies the daemon's process (input.agentjail.daemon);
	// nil means only DaemonPID is known.
	Daemon *Daemon
	// Root is set when the hook runs as uid 0 (a container, CI, a VM):
	// what sudo is asked for is then done by a plain command.
	Root bool
	// System is set when the system daemon judges the call (system
	// mode): agentjail's hooks live in the agents' machine-wide
	// settings, not in the user's own files.
	System bool
	Socket string // the daemon's socket ($AGENTJAIL_SOCKET or its default)
	// ProgramGroups maps a program to the rule groups that care about it
	// (the policies' data.agentjail.program_groups); input.agentjail.kinds
	// lists the groups of the programs a call runs.
	ProgramGroups map[string][]string
	// Roles are the policies' data.agentjail.shell_roles: what programs
	// do with their arguments (see shell.Roles).
	Roles *shell.Roles
	// ReadFile reads an agent hook configuration file's current content,
	// so that a write to it is judged on the file it would leave (see
	// agentconfig.ReadRegular). When nil, such files count as absent,
	// and the files a shell command runs (scripts, Makefiles, package
	// scripts) are not read either: only content the command line writes
	// itself is judged (see shell.Env.ReadScript).
	ReadFile func(path string) ([]byte, error)
	// Written is the policies' data.agentjail.written_files: writes to
	// the files it lists are judged on what they add (input.agentjail.written).
	Written *written.Table
	// Identity knows the protected places by (device, inode). When set,
	// every path a call names is also resolved the way the kernel will
	// (links, /proc/self, .. after a link, links the call makes itself)
	// and what it resolves to, and the protected places it is, are added
	// beside it (see identity.go); nil judges paths as written.
	Identity *realpath.Index
	// Agents knows the agents' installed programs, so that a command
	// that runs one under another name is judged as that agent; nil
	// knows them by name only.
	Agents *agentconfig.Binaries
}

// Daemon is what identifies the daemon's process to a call that would
// signal, trace, throttle or freeze it: rules judge the process a call
// targets, not how the call spells it (input.agentjail.daemon).
type Daemon struct {
	PID  int // its pid
	PGID int // its process group (kill -- -PGID reaches it)
	SID  int // its session (pkill -s SID reaches it)
	// PPID is its parent: pkill -P PPID reaches it.
	PPID int
	// Cmdlines are the command lines a pattern (pkill -f, pgrep -f,
	// killall -r) sees of it: the one it runs with, read from the process
	// table, and the ones its installers and the hook start it with.
	Cmdlines []string
	// Cgroup is its cgroup v2 folder (/sys/fs/cgroup/...), "" where none.
	Cgroup string
}

// readScript is the reader of the files a shell command runs: the
// parser's bounded one where files may be read at all.
func (env Env) readScript() func(string) ([]byte, error) {
	if env.ReadFile == nil {
		return nil
	}
	return shell.ReadScript
}

// Derived is the documented shape of input.agentjail.
type Derived struct {
	// ToolKind is the call's canonical kind, whatever the agent: "shell"
	// for Bash, every other agent's shell tool and every other tool that
	// runs a command line (see shellkind.go), else read, write, edit,
	// search, list, fetch, agent, mcp or other (input.agentjail.tool, and
	// input.agentjail.tool_kind as before).
	ToolKind string
	// ToolName is the tool as the agent names it (Bash, run_shell_command,
	// bash, apply_patch ...), whatever field of the event carries it.
	ToolName string
	// Command is the command line of a shell call.
	Command string
	// Socket is the daemon's socket path.
	Socket string
	// Prefixes are, once each, the folders the static start of a shell
	// command's dynamic operands and redirect targets names (~/.claude
	// for `cp x ~/.claude/$F`); see shell.Command.Prefixes.
	Prefixes      []string
	Agent         string
	Home          string
	AgentjailHome string
	Temp          string
	DaemonPID     int
	Daemon        Daemon
	// Root is Env.Root (input.agentjail.root, only when set).
	Root bool
	// System is Env.System (input.agentjail.system, only when set).
	System bool
	// Cwd is the event's cwd made absolute (against the hook's cwd) and
	// cleaned; the hook's cwd when the event has none; the folder the tool
	// itself names when it runs elsewhere (Gemini's dir_path).
	Cwd string
	// FilePath is the tool's main path argument (file_path, notebook_path
	// or path) with ~ and $HOME expanded, made absolute against Cwd, and
	// cleaned. Empty when the tool names no path.
	FilePath string
	// Paths are every path the tool's input names, normalized the same
	// way: FilePath, a Glob pattern joined to its folder, and any other
	// field that holds a path (an MCP tool's "source", say).
	Paths []string
	// URLs are the URLs in the tool's input fields (top level, and in
	// lists there), in a stable order: what a fetch or an MCP tool
	// reaches (input.agentjail.urls).
	URLs []string
	// Writes are the paths the call creates, changes or deletes: a write
	// tool's paths, or what the Bash commands write.
	Writes []string
	// Unusual are the Paths not strictly inside an ordinary working
	// directory (deep enough for nothing inside it to be the home
	// directory, a top-level folder or a system folder, and not a hidden
	// folder or agentjail's home), or hidden inside it (.ssh/id_rsa); all
	// of Paths otherwise. Most
	// operands (build, src/app.go) are not unusual, so rules about broad
	// or sensitive locations can skip the call outright.
	Unusual []string
	// UnusualWrite is set when a write is unusual in the same sense
	// (a command's writes need not be among its Paths). With Unusual it
	// makes input.agentjail.unusual, a flag OPA's rule index answers, so
	// rules about sensitive places cost other calls nothing.
	UnusualWrite bool
	// Shell is the parsed Bash command, for the Bash tool.
	Shell *shell.Result
	// GuardConfig judges each agent hook configuration file the call
	// writes (input.agentjail.guard_config, only when there is one).
	GuardConfig []agentconfig.Judgement
	// PatchTruncated is set when a patch names more files than agentjail
	// reads (input.agentjail.patch_truncated): the policies ask.
	PatchTruncated bool
	// Nested are the agents a Bash command would start with agentjail's
	// hook switched off (input.agentjail.nested_agents, only when any).
	Nested []agentconfig.Launch
	// GitRemotes are the remotes of the repository a `git remote`
	// command runs in (input.agentjail.git_remotes, only when read).
	GitRemotes map[string]string
	// Written are the files of a listed kind the call writes, with the
	// commands and watched keys it adds (input.agentjail.written, only
	// when any; see internal/written).
	Written []written.File
	// UnknownCwdWrites are relative writes after a cd to a folder only
	// known when the command runs that could be a protected place
	// (input.agentjail.unknown_cwd_writes, only when any).
	UnknownCwdWrites []UnknownCwdWrite
	// PathsUnresolved is set when the call names more paths than the
	// daemon resolves (realpath.MaxLookups): the rest are judged as
	// written (input.agentjail.paths_unresolved, only when set).
	PathsUnresolved bool
	// Touches are the places a call other than a shell command names in
	// any field of its input, at any depth (a uri, a target, a list of
	// sources, a file:// URI, a path among the words of a text), when
	// the call is not known only to read (agent.OnlyReads): every such
	// call may write what it names, whatever its name says
	// (input.agentjail.touches, only when any). Fields that carry what
	// is written (content, new_string ...) are data, not places.
	Touches []string
	// TouchesProse are the places such a call only mentions, by an
	// absolute or home word in prose (a reasoning tool's thought, a
	// message): a mention of a guard file is asked about, never refused,
	// and no write is judged for it (input.agentjail.touches_prose, only
	// when any).
	TouchesProse []string
	// PIDs are the process ids such a call names (pid, process_id ...),
	// for the rules about stopping the daemon (input.agentjail.pids).
	PIDs []int64
	// TouchesTruncated is set when the input was too large or deep to
	// scan whole (input.agentjail.touches_truncated): the policies ask
	// when what was found comes near a protected place.
	TouchesTruncated bool
	// Search is a search tool's pattern and file glob in any agent's
	// terms (Grep, grep_search, grep, rg ...), for rules about what a
	// search looks for (input.agentjail.search, only for search tools).
	Search *Search
	// groups is Env.ProgramGroups, kept to derive kinds.
	groups map[string][]string
}

// Search is what a search tool looks for (see Derived.Search).
type Search struct {
	// Pattern is the text (a regular expression) searched for, or for a
	// search of file names (Glob, glob) the name pattern.
	Pattern string
	// Glob limits a content search to the files it matches (Grep's glob,
	// Gemini's include).
	Glob string
	// Content is set when the files' contents are searched, not only
	// their names.
	Content bool
	// Lines is set when a content search shows the lines that match, not
	// only the names of the files that hold them: it reads out whatever
	// it finds.
	Lines bool
}

// ErrNotObject is returned for an event that is not a JSON object.
var ErrNotObject = errors.New("the event is not a JSON object")

// ErrTooDeep is returned for an event that nests objects or arrays more
// than jsonscan.MaxDepth levels: the agent chose that shape, so the caller
// asks rather than refusing it as a bad request (which the hook would
// fail open).
var ErrTooDeep = fmt.Errorf("the event nests objects or arrays more than %d levels deep, too deep to check", jsonscan.MaxDepth)

// Build decodes event and returns the policy input and its derived part.
func Build(event []byte, env Env) (map[string]any, *Derived, error) {
	in, err := Decode(event)
	if err != nil {
		return nil, nil, err
	}
	d := Derive(in, env)
	in[Key] = d.Map()
	return in, d, nil
}

// Decode decodes event, a JSON object, keeping numbers exact. The policy
// input is what it returns with the derived facts under Key (see Build).
func Decode(event []byte) (map[string]any, error) {
	if jsonscan.TooDeep(event) {
		return nil, ErrTooDeep
	}
	var in map[string]any
	dec := json.NewDecoder(bytes.NewReader(event))
	dec.UseNumber() // keep numbers exact; OPA reads json.Number
	if err := dec.Decode(&in); err != nil || in == nil {
		return nil, ErrNotObject
	}
	if dec.More() {
		return nil, ErrNotObject
	}
	return in, nil
}

// pathKeys are the tool_input fields that name a path, the main one first.
var pathKeys = []string{"file_path", "notebook_path", "path", "filePath", "file", "filename", "source", "destination", "target", "directory", "dir"}

// pathLike reports a field name that holds a path: old_path, outputFile,
// target_dir.
func pathLike(key string) bool {
	k := strings.ToLower(key)
	for _, suffix := range []string{"path", "file", "dir", "directory", "folder"} {
		if strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return false
}

// Derive computes the derived facts for a decoded event: the call as its
// agent's adapter reads it, then each deriver below in turn (paths named,
// the shell command, places touched, patches, other names of the same
// files, guard and written files, search, what is unusual).
func Derive(event map[string]any, env Env) *Derived {
	d := newDerived(env)
	call := d.readCall(event, env)
	tool := call.Like
	ti, _ := call.LikeInput.(map[string]any)
	d.namedPaths(tool, ti, env)
	cmd, isShell, bad := shellCall(tool, call.LikeInput)
	d.ToolKind = toolKind(tool, isShell)
	if !isShell && call.Kind != "" {
		d.ToolKind = call.Kind
	}
	switch {
	case isShell:
		d.shellFacts(cmd, bad, env)
		if call.Patch == nil {
			// apply_patch run as a program, by any agent's shell tool.
			call.Patch = agent.ShellPatch(cmd)
		}
	case writeTool(tool) || d.ToolKind == KindWrite || d.ToolKind == KindEdit:
		d.Writes = d.Paths
	}
	if !isShell && !agent.OnlyReads(d.ToolKind, tool, ti) {
		d.touchedPlaces(ti, env)
	}
	var patched []agentconfig.Judgement
	var patchPaths []string
	if call.Patch != nil {
		patched = d.addPatch(*call.Patch, env)
		for _, p := range call.Patch.Writes() {
			patchPaths = append(patchPaths, Abs(p, d.Cwd, env.Home))
		}
	}
	if !isShell {
		d.sameFiles(ti, call.Patch, env)
		d.GuardConfig = guardConfig(tool, ti, d, env, patchPaths)
	}
	d.GuardConfig = append(d.GuardConfig, patched...)
	d.Written = writtenFiles(tool, ti, call.Patch, isShell, d, env)
	if d.ToolKind == KindFind {
		d.Search = &Search{Content: tool != "Glob"}
		d.Search.Pattern, _ = ti["pattern"].(string)
		d.Search.Glob, _ = ti["glob"].(string)
		mode, _ := ti["output_mode"].(string)
		d.Search.Lines = d.Search.Content && !call.NamesOnly && mode != "files_with_matches" && mode != "count"
	}
	d.Unusual = unusual(d.Paths, d.Cwd, env.Home, env.AgentjailHome)
	d.UnusualWrite = len(unusual(d.Writes, d.Cwd, env.Home, env.AgentjailHome)) > 0
	return d
}

// newDerived holds what env says about the session, before the call.
func newDerived(env Env) *Derived {
	d := &Derived{Agent: env.Agent, Home: env.Home, AgentjailHome: env.AgentjailHome, Temp: env.Temp, DaemonPID: env.DaemonPID, Root: env.Root, System: env.System, Socket: env.Socket, groups: env.ProgramGroups}
	if env.Daemon != nil {
		d.Daemon = *env.Daemon
	} else {
		d.Daemon.PID = env.DaemonPID
	}
	if d.Agent == "" {
		d.Agent = agents.Default
	}
	if d.Temp == "" {
		d.Temp = "/tmp"
	}
	return d
}

// readCall reads the event through its agent's adapter, which gives the
// tool in Claude Code's terms (Read with file_path, Bash with command
// ...) so that every deriver holds for every agent, and sets the agent,
// the tool's name and the folder it runs in.
func (d *Derived) readCall(event map[string]any, env Env) agent.Call {
	cwd, _ := event["cwd"].(string)
	d.Cwd = Abs(cwd, env.ClientCwd, env.Home)
	if d.Cwd == "" {
		d.Cwd = filepath.Clean(env.ClientCwd)
	}
	adapter := agents.For(event, env.Agent)
	d.Agent = adapter.Name()
	call := adapter.Canonical(event)
	if call.Dir != "" {
		// The tool runs somewhere else than the event's cwd (Gemini's
		// dir_path): paths and commands are read from there.
		d.Cwd = Abs(call.Dir, d.Cwd, env.Home)
	}
	d.ToolName = call.Tool
	return call
}

// namedPaths sets the paths and URLs the tool's input names: its path
// fields, the main one first, then other fields named like paths in a
// stable order (MCP tools name them as they like), a list of paths, the
// files a Glob pattern or a Grep glob reaches, and file:// URLs.
func (d *Derived) namedPaths(tool string, ti map[string]any, env Env) {
	for _, k := range pathKeys {
		if p, ok := ti[k].(string); ok && p != "" {
			abs := Abs(p, d.Cwd, env.Home)
			if d.FilePath == "" {
				d.FilePath = abs
			}
			d.Paths = append(d.Paths, abs)
		}
	}
	var extra []string
	for k, v := range ti {
		if s, ok := v.(string); ok && s != "" && pathLike(k) && !slices.Contains(pathKeys, k) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	for _, k := range extra {
		d.Paths = append(d.Paths, Abs(ti[k].(string), d.Cwd, env.Home))
	}
	if paths, ok := ti["paths"].([]any); ok { // MCP read_multiple_files
		for _, p := range paths {
			if s, ok := p.(string); ok && s != "" {
				d.Paths = append(d.Paths, Abs(s, d.Cwd, env.Home))
			}
		}
	}
	dir := d.FilePath
	if dir == "" {
		dir = d.Cwd
	}
	if pattern, ok := ti["pattern"].(string); ok && tool == "Glob" {
		abs := Abs(pattern, dir, env.Home)
		d.Paths = append(d.Paths, abs)
		d.Paths = append(d.Paths, env.Roles.GlobExamples(abs, env.Home)...)
	}
	// Grep reads the files its glob matches under its path, at any depth.
	if glob, ok := ti["glob"].(string); ok && glob != "" && tool == "Grep" {
		if !strings.HasPrefix(glob, "/") && !strings.HasPrefix(glob, "**") {
			glob = "**/" + glob
		}
		d.Paths = append(d.Paths, env.Roles.GlobExamples(Abs(glob, dir, env.Home), env.Home)...)
	}
	// Any field holding a file:// URL names that file (an MCP tool's uri,
	// a WebFetch url); every URL is listed for the network rules.
	d.URLs = urls(ti)
	for _, u := range d.URLs {
		if p, ok := fileURL(u); ok {
			d.Paths = append(d.Paths, Abs(p, d.Cwd, env.Home))
		}
	}
}

// shellFacts parses a shell tool's command and sets what it reads,
// writes and starts. A command that cannot be read is a parse error
// (bad): the policies ask.
func (d *Derived) shellFacts(cmd, bad string, env Env) {
	d.Command = cmd
	r := shell.Result{Commands: []shell.Command{}, Error: bad}
	var id *identity
	senv := shell.Env{Cwd: d.Cwd, Home: env.Home, Temp: d.Temp, Vars: env.shellVars(), Roles: env.Roles, ReadScript: env.readScript(), Look: env.ReadFile != nil, Exported: rootVars}
	if env.Identity != nil {
		id = newIdentity(env, d.Cwd, nil)
		senv.RealPath, senv.IsDir = id.realPath, id.isDir
	}
	if bad == "" {
		r = shell.Parse(cmd, senv)
	}
	if id != nil {
		id.dotted = r.Dotted
		id.shell(r.Commands)
		d.UnknownCwdWrites = id.unknownCwd(r.Commands)
		d.PathsUnresolved = id.truncated
	}
	ownByIdentity(r.Commands, env.Agents)
	d.Shell = &r
	d.Paths, d.Writes = shellPaths(r.Commands)
	d.Prefixes = shellPrefixes(r.Commands)
	d.Nested = nested(cmd, env.Home, r.Commands, env.Roles, env.Agents, env.ReadFile)
	d.GitRemotes = gitRemotes(r.Commands, env)
}

// touchedPlaces sets the places, pids and prose mentions in any field of
// a call not known only to read, with its named paths among the places.
func (d *Derived) touchedPlaces(ti map[string]any, env Env) {
	d.Touches, d.TouchesProse, d.PIDs, d.TouchesTruncated = touches(ti, d.Cwd, env.Home)
	for _, p := range d.Paths { // the named path fields, made absolute the same way
		if !slices.Contains(d.Touches, p) {
			d.Touches = append(d.Touches, p)
		}
	}
}

// sameFiles adds, for a tool other than a shell, the other names of each
// path it names (links, hard links, the same file by another spelling)
// to its paths, and to its writes for a path it writes.
func (d *Derived) sameFiles(ti map[string]any, patch *agent.Patch, env Env) {
	if env.Identity == nil {
		return
	}
	id := newIdentity(env, d.Cwd, dottedFields(ti, patch, d.Cwd, env.Home))
	writes := slices.Clone(d.Writes)
	d.Writes = slices.Clone(d.Writes) // it may share d.Paths' array
	for _, p := range slices.Clone(d.Paths) {
		for _, a := range id.also(p) {
			if !slices.Contains(d.Paths, a) {
				d.Paths = append(d.Paths, a)
			}
			if slices.Contains(writes, p) && !slices.Contains(d.Writes, a) {
				d.Writes = append(d.Writes, a)
			}
		}
	}
	d.PathsUnresolved = id.truncated
}

// addPatch adds the files a Codex patch adds, changes and deletes to the
// paths and writes, and judges those that hold an agent's hook
// configuration: an added file on its content; an update or a deletion
// cannot be computed here, so it counts as one that removes the guard.
func (d *Derived) addPatch(p agent.Patch, env Env) []agentconfig.Judgement {
	var out []agentconfig.Judgement
	for _, f := range p.Files {
		for i, raw := range []string{f.Path, f.MoveTo} {
			if raw == "" {
				continue
			}
			abs := Abs(raw, d.Cwd, env.Home)
			if d.FilePath == "" {
				d.FilePath = abs
			}
			if !slices.Contains(d.Paths, abs) {
				d.Paths = append(d.Paths, abs)
			}
			if !slices.Contains(d.Writes, abs) {
				d.Writes = append(d.Writes, abs)
			}
			who := agentconfig.Agent(abs, env.Home)
			switch {
			case who == "":
			case f.Op == agent.OpAdd && i == 0:
				out = append(out, agentconfig.Judge(who, "Write", map[string]any{"content": f.Content}, abs, true, env.ReadFile))
			default:
				out = append(out, agentconfig.Judge(who, "apply_patch", map[string]any{}, abs, true, env.ReadFile))
			}
		}
	}
	if p.Truncated {
		d.PatchTruncated = true
	}
	return out
}

// guardConfig judges the call's writes to agent hook configuration files
// on the files they would leave. An MCP tool whose input carries a whole
// file's content writes it, whatever its name says. The files a patch
// names (judged) are addPatch's; what they also are (a path through a
// link) is judged here, as a change whose result cannot be computed.
func guardConfig(tool string, ti map[string]any, d *Derived, env Env, judged []string) []agentconfig.Judgement {
	// Every place a tool not known only to read names may be written:
	// each agent hook configuration among them is judged on what the
	// call leaves (a tool whose result cannot be computed removes the
	// guard).
	targets := d.Writes
	for _, p := range d.Touches {
		if !slices.Contains(targets, p) {
			targets = append(slices.Clip(targets), p)
		}
	}
	var out []agentconfig.Judgement
	for _, p := range targets {
		if slices.Contains(judged, p) {
			continue
		}
		if agent := agentconfig.Agent(p, env.Home); agent != "" {
			out = append(out, agentconfig.Judge(agent, tool, ti, p, p == d.FilePath, env.ReadFile))
		}
	}
	return out
}

// ownByIdentity names agentjail a command whose program is one of
// agentjail's own by identity (a link or hard link to it, or it
// installed under another name), so that the rules about the agentjail
// command judge it whatever it is called.
func ownByIdentity(cmds []shell.Command, bins *agentconfig.Binaries) {
	for i := range cmds {
		c := &cmds[i]
		if c.Name == agentconfig.Own || c.Program == "" {
			continue
		}
		path := c.Assigns["PATH"]
		if path == "" {
			path = c.Env["PATH"]
		}
		if bins.Agent(c.Program, c.Cwd, path) == agentconfig.Own {
			c.Name = agentconfig.Own
		}
	}
}

// rootVars are the agents' configuration roots (see shell.Env.Exported).
var rootVars = agentconfig.RootVars()

func nested(text, home string, cmds []shell.Command, roles *shell.Roles, bins *agentconfig.Binaries, read agentconfig.ReadFunc) []agentconfig.Launch {
	cs := make([]agentconfig.Cmd, 0, len(cmds))
	for _, c := range cmds {
		cs = append(cs, agentconfig.Cmd{Name: cmp.Or(c.Program, c.Name), Args: c.Args, Assigns: c.Assigns, Env: c.Env, Cwd: c.Cwd})
		// Behind a runner (npx X, pnpm dlx X, node X.js, the pack's
		// runner table) the tool it runs is judged as if started
		// directly; so is an agent's npm package or a script in it
		// named anywhere among a runner's words, whatever options
		// come before it (npx -p @anthropic-ai/claude-code claude).
		tool, ok := roles.RunnerTool(c.Name, c.Args)
		if !ok {
			continue
		}
		// `npm exec PKG -- ARGS`: the runner takes the "--", the tool
		// the arguments after it.
		toolArgs := func(i int) []string {
			if i+1 < len(c.Args) && c.Args[i+1] == "--" {
				return c.Args[i+2:]
			}
			return c.Args[i+1:]
		}
		cs = append(cs, agentconfig.Cmd{Name: c.Args[tool], Args: toolArgs(tool), Assigns: c.Assigns, Env: c.Env, Cwd: c.Cwd})
		for i, a := range c.Args {
			if i != tool && (strings.HasPrefix(a, "@") || strings.Contains(a, "node_modules/")) && agentconfig.Program(a) != "" {
				cs = append(cs, agentconfig.Cmd{Name: a, Args: toolArgs(i), Assigns: c.Assigns, Env: c.Env, Cwd: c.Cwd})
			}
		}
	}
	return agentconfig.Nested(text, home, cs, bins, read)
}

// unusual keeps the paths not strictly inside cwd, or all of them when
// cwd itself is shallow or sensitive (see Derived.Unusual).
func unusual(paths []string, cwd, home, agentjailHome string) []string {
	if !ordinaryDir(cwd, home, agentjailHome) {
		return paths
	}
	prefix := cwd + "/"
	var out []string
	for _, p := range paths {
		// Hidden files and folders (.ssh, .env, .git) are where keys and
		// configuration live, in a project too.
		if !strings.HasPrefix(p, prefix) || hidden(p[len(prefix):]) {
			out = append(out, p)
		}
	}
	return out
}

// hidden reports a component of rel that is a hidden name (.ssh, .env).
// A name of dots only is not: go test ./... names every package.
func hidden(rel string) bool {
	for _, c := range strings.Split(rel, "/") {
		if len(c) > 1 && c[0] == '.' && strings.Trim(c, ".") != "" {
			return true
		}
	}
	return false
}

// ordinaryDir: a working directory whose contents are ordinary files: at
// least two levels down, not the home directory or one of its parents,
// not in a system folder, not in a hidden folder (~/.ssh, ~/.aws, a
// config store) and not agentjail's own home.
func ordinaryDir(dir, home, agentjailHome string) bool {
	switch {
	case strings.Count(dir, "/") < 2, dir == home, home != "" && strings.HasPrefix(home, dir+"/"):
		return false
	case strings.Contains(dir, "/."):
		return false
	case agentjailHome != "" && (dir == agentjailHome || strings.HasPrefix(dir, agentjailHome+"/")):
		return false
	}
	return !systemDir.MatchString(dir)
}

var systemDir = regexp.MustCompile(`^/(bin|boot|dev|etc|lib|lib32|lib64|opt|proc|sbin|sys|usr|var|System|Library|Applications|private)(/|$)`)

// writeTool reports a tool that writes the paths it names.
func writeTool(name string) bool {
	switch name {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	}
	return strings.HasPrefix(name, "mcp__") && mcpWrite.MatchString(name)
}

var mcpWrite = regexp.MustCompile(`(?i)(write|edit|delete|remove|move|create|rename|put|upload)`)

// shellPaths gathers, once each, every path the commands name (operands
// and redirect targets) and every path they write.
func shellPaths(cmds []shell.Command) (paths, writes []string) {
	seen := map[string]bool{}
	for _, c := range cmds {
		for _, p := range c.Paths {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
		for _, r := range c.Redirects {
			if r.Path != "" && !seen[r.Path] {
				seen[r.Path] = true
				paths = append(paths, r.Path)
			}
		}
	}
	seenW := map[string]bool{}
	for _, c := range cmds {
		for _, p := range c.Writes {
			if !seenW[p] {
				seenW[p] = true
				writes = append(writes, p)
			}
		}
	}
	return paths, writes
}

// Map is d as a JSON-shaped value for the policy input (see Encode).
func (d *Derived) Map() map[string]any {
	g := goBuilders.Get().(*goBuilder)
	m := Encode[any](d, g).(map[string]any)
	goBuilders.Put(g)
	return m
}

// commandNames lists, once each, the names of the commands and of their
// wrappers: rules test it first ("git" in input.agentjail.names) so that
// OPA's rule index skips a rule outright when its program does not run.
func commandNames(cmds []shell.Command) []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, c := range cmds {
		add(c.Name)
		for _, w := range c.Wrappers {
			add(w)
		}
	}
	return out
}

// kinds lists, once each, the groups of the programs in names.
func kinds(names []string, groups map[string][]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		for _, g := range groups[n] {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	return out
}

func strings2any(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// Abs expands a leading ~, $HOME or ${HOME} to home, makes p absolute
// against base, and cleans it. An empty p gives "".
func Abs(p, base, home string) string {
	if p == "" {
		return ""
	}
	p = ExpandHome(p, home)
	if !filepath.IsAbs(p) {
		if base == "" {
			return filepath.Clean(p)
		}
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// ExpandHome replaces a leading ~, $HOME or ${HOME} with home.
func ExpandHome(p, home string) string {
	if home == "" {
		return p
	}
	for _, prefix := range []string{"~", "$HOME", "${HOME}"} {
		if p == prefix {
			return home
		}
		if strings.HasPrefix(p, prefix+"/") {
			return home + p[len(prefix):]
		}
	}
	return p
}

var urlShape = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// urls lists the URL-shaped strings among ti's fields and in the lists
// directly under them, sorted by field name.
func urls(ti map[string]any) []string {
	keys := make([]string, 0, len(ti))
	for k := range ti {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []string
	add := func(v any) {
		if s, ok := v.(string); ok && urlShape.MatchString(strings.TrimSpace(s)) {
			out = append(out, strings.TrimSpace(s))
		}
	}
	for _, k := range keys {
		switch v := ti[k].(type) {
		case string:
			add(v)
		case []any:
			for _, x := range v {
				add(x)
			}
		}
	}
	return out
}

// fileURL is the path of a file:// URL, percent-decoded: file:///x and
// file://localhost/x name /x; file://~/x names ~/x.
func fileURL(u string) (string, bool) {
	if len(u) < 7 || !strings.EqualFold(u[:7], "file://") {
		return "", false
	}
	rest := u[7:]
	if strings.HasPrefix(strings.ToLower(rest), "localhost/") {
		rest = rest[len("localhost"):]
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	if p, err := url.PathUnescape(rest); err == nil {
		rest = p
	}
	if rest == "" {
		return "", false
	}
	return rest, true
}
