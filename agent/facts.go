package agent

import (
	"strings"
	"time"
)

// Agent is everything agentjail knows about one agent: its facts and
// the adapter that reads its events and writes its answers. Each agent's
// folder under agents/ defines one; agents.All lists them.
type Agent struct {
	Facts
	Adapter Adapter
}

// Facts is what is true of one agent beyond its event: how people call
// it, what its tools are, where its hook configuration lives, how it is
// started and what it cannot do. The installer, the judges of settings
// edits and nested launches, the pack (as generated data) and the
// agents table in the docs all read them from here.
type Facts struct {
	// Name is the agent's name in --for, the hook's --agent, logs and
	// policies ("codex"); Title is how people call it ("Codex").
	Name, Title string
	// Aliases are other names --for and --agent accept.
	Aliases []string
	// Tools are the agent's own tools by kind (the Kind constants).
	// Shell tools are matched in any case.
	Tools map[string]string
	// Programs are the commands that start the agent (found on PATH,
	// judged as nested launches); Packages the npm packages that do
	// (npx @openai/codex).
	Programs, Packages []string
	// Headless are the options that start the agent with nobody to
	// answer its prompts (claude -p): an ask of such a run is held by
	// agentjail for a person, as for an agent that cannot ask.
	Headless []string
	// Records are where the agent keeps its own record of the tool calls
	// it made, and their format: the daemon reads them to account for
	// every call (internal/toolrecords).
	Records []Records
	// Folder is the agent's own folder under the home directory
	// (".codex"): install without --for wires an agent only where it is.
	Folder string
	// HookFile is, relative to the home directory, the file the user's
	// install writes agentjail's hook into.
	HookFile string
	// UserPlaces are, relative to the home directory, the folders and
	// files that hold the agent's user-level hooks or a switch that turns
	// them off; ProjectPlaces the same relative to a project; Machine
	// the absolute machine-wide places (Linux, then macOS) an
	// administrator's hooks live in. The pack protects all of them.
	UserPlaces, ProjectPlaces, Machine []string
	// HookFolders are folders, relative to the home directory or a
	// project, every file of which is a hook the agent runs (Cline's
	// hooks, an extension or plugin folder): any file written there is
	// judged as its settings.
	HookFolders []string
	// Roots are the variables that move where the agent reads its
	// configuration from.
	Roots []Root
	// Credentials are, relative to the home directory, files holding the
	// agent's login tokens.
	Credentials []string
	// WorkingFiles are, relative to the home directory, the files the
	// agent keeps for its own work (memory notes, plans, to-do lists), as
	// glob patterns where ** stands for any folders: the agent may write
	// them, even inside the folder of its records. Its records, hook
	// settings and switches stay protected.
	WorkingFiles []string
	// Switches are the options and variables that start the agent with
	// its hooks (agentjail's included) off: a nested launch with one is
	// refused, or asked about where agentjail cannot tell.
	Switches []Switch
	// HooksOff are the keys of its JSON settings that, set true, turn
	// its hooks off (agentjail's too): an edit setting one is refused.
	HooksOff []string
	// GuardKeys are the top-level keys of its JSON settings that choose
	// which hooks, plugins or extensions it loads: an edit that changes
	// one (pi's "extensions": ["!agentjail.ts"]) is refused.
	GuardKeys []string
	// FailClosed is the key its hook entry holds, beside the hook's
	// --fail-closed, that makes the agent block a call when the hook
	// cannot start at all; install sets it with fail_mode: closed.
	FailClosed Knob
	// PostEvent is the agent's event for a tool call that has run, where
	// install adds a second entry running the hook with --post, so the
	// daemon learns of every call that ran, judged or not; "" for an
	// agent install gives none.
	PostEvent string
	// HookTimeout is how the agent bounds one run of the hook: install
	// sets it above the hook's own deadline and its hold, since most
	// agents run the tool when they stop a hook that is late.
	HookTimeout Timeout
	// Table is the agent's row in the agents table (docs/agents.md).
	Table Row
}

// Switch is an option (a whole word, or the word before `=`) or a
// variable (set for the command, to anything) that starts an agent
// without its hooks; Verdict is "deny", or "ask" where agentjail cannot
// tell; Why says what it does.
type Switch struct {
	Flag, Env, Verdict, Why string
}

// Knob is a key of an agent's own settings and the value agentjail
// wants in it.
type Knob struct {
	Key   string
	Value any
}

// Timeout is how an agent bounds one run of its hook: Key is the key of
// the hook's entry that sets the bound, counted in Unit; Fixed is a bound
// of the agent's own that no entry changes, so install holds a call no
// longer than it leaves room for. The zero Timeout is an agent whose
// bound agentjail neither sets nor knows.
type Timeout struct {
	Key   string
	Unit  time.Duration
	Fixed time.Duration
}

// Root is one variable that moves an agent's configuration, and where
// it points when nothing moved it.
type Root struct {
	// Var is the variable; Default where it points on an installed
	// system, relative to the home directory unless absolute.
	Var, Default string
	// Files are where under the root the installer puts agentjail's
	// hook: a moved root whose files all still run it is no escape.
	Files []string
}

// Row is what the agents table (docs/agents.md) says of an agent, for
// people: one field a column.
type Row struct {
	// Proven is the version whose real CLI the end-to-end test drives,
	// or why none is.
	Proven string
	// Install is what `agentjail install --for NAME` writes.
	Install string
	// Events are the hook events it runs agentjail's hook on.
	Events string
	// NoObjection, Deny and Ask are how each verdict is answered.
	NoObjection, Deny, Ask string
	// Fails is what the agent does when the hook fails, is late or
	// crashes.
	Fails string
	// Subagents says whether its subagents' calls reach the hook.
	Subagents string
	// System is where system mode puts its hook (root-owned,
	// machine-wide), or why it puts none.
	System string
	// Unconfined says why the agent's allowed shell calls are judged and
	// not confined: set exactly when its adapter is no Confiner.
	Unconfined string
}

// Tool is one of an agent's tools as its adapter reads it: its kind,
// the Claude Code tool of the same meaning, and its input fields renamed
// to Claude Code's (from, to).
type Tool struct {
	Kind, Like string
	Fields     [][2]string
}

// Kinds are tools by kind, for Facts.Tools, with more names (tool ->
// kind) the adapter's table does not hold.
func Kinds(tools map[string]Tool, more map[string]string) map[string]string {
	out := make(map[string]string, len(tools)+len(more))
	for name, t := range tools {
		out[name] = t.Kind
	}
	for name, kind := range more {
		out[name] = kind
	}
	return out
}

// ShellTool reports whether tool is one of f's shell tools.
func (f Facts) ShellTool(tool string) bool {
	for name, kind := range f.Tools {
		if kind == KindShell && strings.EqualFold(name, tool) {
			return true
		}
	}
	return false
}

// Records is one place an agent records its tool calls: the files
// matching Pattern (path.Match per segment, "**" for any folders) under
// EnvSub of the first of Env that is set, else under HomeSub of the
// home directory, read by toolrecords' reader named Format.
type Records struct {
	Env             []string
	EnvSub, HomeSub string
	Pattern, Format string
}
