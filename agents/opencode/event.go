package opencode

import (
	_ "embed"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/internal/wire"
)

// The adapter serves opencode (npm opencode-ai) and its fork Kilo CLI (npm
// @kilocode/cli): neither runs hook commands, both load JavaScript
// plugins from a folder, and a plugin's tool.execute.before that throws
// stops the call, its error's message going to the model as the tool's
// result. Our plugin (Plugin, one text for both) runs the hook
// with an event of our own on stdin:
//
//	{"hook_event_name":"tool.execute.before","client":"opencode"|"kilo",
//	 "tool":T,"args":{...},"sessionID":S,"callID":C,"cwd":D,"worktree":W}
//
// and throws the reason of exit 2 (stdout {"decision":"deny","reason":R},
// R also on stderr). A plugin cannot ask a person, so an ask is a deny
// that says a person must approve; silence lets the call go on to the
// agent's own permission rules, which it never widens.
//
// After a call ran, the plugin's tool.execute.after runs the hook with
// --post and the same fields under PostEvent: the hook only reports it
// (observe), matched with the judged call by sessionID and callID. It
// is not an event this adapter recognises, so no hook run without
// --post ever takes it for a call to judge as another agent's.
//
// Adapter is the adapter of an agent our plugin guards, by the name
// and title the plugin's event and its reasons give it.
type Adapter struct{ name, title string }

// NewAdapter is the adapter for the agent name, called title.
func NewAdapter(name, title string) Adapter { return Adapter{name, title} }

// Event is the hook_event_name our plugin sends before a call.
const Event = "tool.execute.before"

// PostEvent is the hook_event_name our plugin sends, with --post, after
// a call ran.
const PostEvent = "tool.execute.after"

// Plugin is the plugin the installer puts in opencode's and Kilo
// CLI's plugin folders, its settings line filled in (see
// SettingsMarker).
//
//go:embed plugin.js
var Plugin string

// SettingsMarker ends the plugin's one line of settings, which
// the installer writes as `const SETTINGS = {...}; // marker`.
const SettingsMarker = "// agentjail:settings"

func (a Adapter) Name() string { return a.name }

// Identify names the call by its event's top-level keys (sessionID,
// callID, tool, args).
func (Adapter) Identify(event map[string]any) agent.CallID { return agent.TopLevelCall(event) }

// Recognise: the event our plugin sends, told apart by its client field
// (the one agent that sends another's name does not exist).
func (a Adapter) Recognise(event map[string]any) bool {
	if agent.Str(event, "hook_event_name") != Event {
		return false
	}
	// An event with no client is opencode's, the plugin's first agent.
	client := agent.Str(event, "client")
	return client == a.name || client == "" && a.name == "opencode"
}

// tools maps opencode's and Kilo CLI's tools to Claude Code's,
// with the field renames that make their inputs read alike.
var tools = map[string]agent.Tool{
	"bash":       {Kind: agent.KindShell, Like: "Bash"},
	"read":       {Kind: agent.KindRead, Like: "Read", Fields: [][2]string{{"filePath", "file_path"}}},
	"write":      {Kind: agent.KindWrite, Like: "Write", Fields: [][2]string{{"filePath", "file_path"}}},
	"edit":       {Kind: agent.KindEdit, Like: "Edit", Fields: [][2]string{{"filePath", "file_path"}, {"oldString", "old_string"}, {"newString", "new_string"}, {"replaceAll", "replace_all"}}},
	"multiedit":  {Kind: agent.KindEdit, Like: "MultiEdit", Fields: [][2]string{{"filePath", "file_path"}}},
	"glob":       {Kind: agent.KindSearch, Like: "Glob"},
	"grep":       {Kind: agent.KindSearch, Like: "Grep", Fields: [][2]string{{"include", "glob"}}},
	"list":       {Kind: agent.KindList, Like: "LS"},
	"webfetch":   {Kind: agent.KindFetch, Like: "WebFetch"},
	"websearch":  {Kind: agent.KindFetch, Like: "WebSearch"},
	"codesearch": {Kind: agent.KindFetch, Like: "WebSearch"},
	"task":       {Kind: agent.KindAgent, Like: "Task"},
	// Kilo CLI's background_process starts a command (action "start").
	"background_process": {Kind: agent.KindShell, Like: "Bash"},
	"lsp":                {Kind: agent.KindRead, Like: "LSP"},
	"kilo_local_recall":  {Kind: agent.KindRead, Like: "memory_read"},
	"kilo_memory_recall": {Kind: agent.KindRead, Like: "memory_read"},
	// Their own tools that touch no file the call names: questions and
	// plans for the person, the to-do list, a skill's text.
	"question":    {Kind: agent.KindAsk, Like: "AskUserQuestion"},
	"plan_exit":   {Kind: agent.KindAsk, Like: "ExitPlanMode"},
	"open_plan":   {Kind: agent.KindAsk, Like: "ExitPlanMode"},
	"notify_user": {Kind: agent.KindAsk, Like: "PushNotification"},
	"suggest":     {Kind: agent.KindAsk, Like: "WrapUp"},
	"todowrite":   {Kind: agent.KindTodo, Like: "TodoWrite"},
	"todoread":    {Kind: agent.KindTodo, Like: "TodoRead"},
	"skill":       {Kind: agent.KindControl, Like: "Skill"},
	// kilo_memory_save keeps a note through Kilo's memory service.
	"kilo_memory_save": {Kind: agent.KindMemory, Like: "memory_write"},
}

// opencodeOwn are the agents' own tools of no kind above (a board, a
// wake-up): any other unknown name is an MCP server's tool
// (server_tool), left to the daemon.
var opencodeOwn = map[string]bool{
	"invalid": true, "board_post": true, "board_read": true, "schedule_wakeup": true, "cancel_wakeup": true,
}

func (Adapter) Canonical(event map[string]any) agent.Call {
	tool := agent.Str(event, "tool")
	raw := event["args"]
	args, isObject := raw.(map[string]any)
	switch tool {
	case "apply_patch", "patch":
		// The patch text is patchText; patchCall reads "patch".
		in := raw
		if isObject {
			in = agent.Rename(args, [][2]string{{"patchText", "patch"}})
		}
		c, _ := agent.PatchCall("apply_patch", in)
		c.Tool, c.LikeInput = tool, raw
		return c
	}
	t, known := tools[tool]
	switch {
	case known && !isObject:
		return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: raw}
	case known:
		in := agent.Rename(args, t.Fields)
		if tool == "multiedit" {
			in["edits"] = renameEach(in["edits"], tools["edit"].Fields)
		}
		if tool == "background_process" && agent.Str(args, "command") == "" {
			return agent.Call{Tool: tool, Kind: agent.KindOther, Like: tool, LikeInput: raw}
		}
		// A command runs in workdir (the project when absent).
		return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: in, Dir: agent.Str(args, "workdir")}
	case opencodeOwn[tool]:
		return agent.Call{Tool: tool, Kind: agent.KindOther, Like: tool, LikeInput: raw}
	}
	// Any other name is an MCP server's tool; the daemon reads one named
	// like a shell (shell, run_shell_command) as a shell command.
	return agent.MCPCall(tool, "mcp__"+tool, raw)
}

// renameEach renames the keys of each object in a list (a multiedit's
// edits); anything else comes back as it was.
func renameEach(v any, names [][2]string) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(list))
	for i, e := range list {
		if m, ok := e.(map[string]any); ok {
			out[i] = agent.Rename(m, names)
		} else {
			out[i] = e
		}
	}
	return out
}

// opencodeOutput is the answer our plugin reads from stdout.
type opencodeOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// opencodeRewrite is the answer that has our plugin replace the shell
// call's command (output.args.command, changed in place, which is what
// the tool then runs) before the call goes on.
type opencodeRewrite struct {
	Decision string `json:"decision"`
	Command  string `json:"command"`
}

// Confine: a plugin's tool.execute.before may change the call's
// arguments in place, and the agent runs the tool with them; our plugin
// takes the command of an answer that carries one (and nothing else of
// it). The agent's own permission rules then see the rewritten command,
// which their defaults let run (measured with both CLIs' `run`).
func (a Adapter) Confine(event map[string]any, d *wire.Decision, wrap func(string) string) (agent.Answer, bool) {
	if d.Verdict != wire.Allow || a.Canonical(event).Kind != agent.KindShell {
		return agent.Answer{}, false
	}
	in, ok := agent.RewriteCommand(event["args"], "command", wrap)
	if !ok {
		return agent.Answer{}, false
	}
	return agent.Answer{Stdout: agent.EncodeJSON(opencodeRewrite{string(wire.Allow), in["command"].(string)}), Exit: agent.ExitOK}, true
}

// Render, per our plugin's contract:
//
//	deny        stdout {"decision":"deny","reason":R}, R on stderr, exit 2: the plugin throws R
//	ask         the same deny, its reason saying a person must approve
//	allow (any) nothing, exit 0: the agent's own permission rules go on
func (a Adapter) Render(_ map[string]any, d *wire.Decision) agent.Answer {
	deny := func(r string) agent.Answer {
		return agent.Answer{Stdout: agent.EncodeJSON(opencodeOutput{"deny", r}), Stderr: r + "\n", Exit: agent.ExitBlock}
	}
	switch d.Verdict {
	case wire.Deny:
		return deny(agent.DenyReason(d))
	case wire.Ask:
		return deny(agent.HumanMustApprove(a.title, d.Reason))
	case wire.Allow:
		return agent.Answer{Exit: agent.ExitOK}
	}
	return deny(agent.UnknownVerdict(d))
}

// Example is the event our plugin sends for a Claude Code call: the
// agent's own tool names and camelCase fields.
func (a Adapter) Example(tool string, input map[string]any, cwd string) map[string]any {
	names := map[string]string{"Bash": "bash", "Read": "read", "Write": "write", "Edit": "edit", "Grep": "grep", "Glob": "glob", "LS": "list", "WebFetch": "webfetch"}
	name, ok := names[tool]
	if !ok {
		name = tool
	}
	args := agent.CopyRenamed(input, map[string]string{"file_path": "filePath", "old_string": "oldString", "new_string": "newString", "replace_all": "replaceAll"})
	return map[string]any{"hook_event_name": Event, "client": a.name, "tool": name, "args": args, "sessionID": "agentjail-try", "callID": "agentjail-try", "cwd": cwd}
}
