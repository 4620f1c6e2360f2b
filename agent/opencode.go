package agent

import (
	_ "embed"
	"strings"

	"github.com/agentjail/agentjail/internal/wire"
)

// opencode is opencode (npm opencode-ai) and its fork Kilo CLI (npm
// @kilocode/cli): neither runs hook commands, both load JavaScript
// plugins from a folder, and a plugin's tool.execute.before that throws
// stops the call, its error's message going to the model as the tool's
// result. Our plugin (OpencodePlugin, one text for both) runs the hook
// with an event of our own on stdin:
//
//	{"hook_event_name":"tool.execute.before","client":"opencode"|"kilo",
//	 "tool":T,"args":{...},"sessionID":S,"callID":C,"cwd":D,"worktree":W}
//
// and throws the reason of exit 2 (stdout {"decision":"deny","reason":R},
// R also on stderr). A plugin cannot ask a person, so an ask is a deny
// that says a person must approve; silence lets the call go on to the
// agent's own permission rules, which it never widens.
type opencode struct{ name, title string }

// OpencodeEvent is the hook_event_name our plugin sends.
const OpencodeEvent = "tool.execute.before"

// OpencodePlugin is the plugin the installer puts in opencode's and Kilo
// CLI's plugin folders, its settings line filled in (see
// OpencodeSettingsMarker).
//
//go:embed opencode.js
var OpencodePlugin string

// OpencodeSettingsMarker ends the plugin's one line of settings, which
// the installer writes as `const SETTINGS = {...}; // marker`.
const OpencodeSettingsMarker = "// agentjail:settings"

func (a opencode) Name() string { return a.name }

// Recognise: the event our plugin sends, told apart by its client field
// (the one agent that sends another's name does not exist).
func (a opencode) Recognise(event map[string]any) bool {
	if str(event, "hook_event_name") != OpencodeEvent {
		return false
	}
	client := str(event, "client")
	if a.name == "opencode" {
		return client != "kilo"
	}
	return client == a.name
}

// opencodeTools maps opencode's and Kilo CLI's tools to Claude Code's,
// with the field renames that make their inputs read alike.
var opencodeTools = map[string]struct {
	kind, like string
	fields     [][2]string
}{
	"bash":       {KindShell, "Bash", nil},
	"read":       {KindRead, "Read", [][2]string{{"filePath", "file_path"}}},
	"write":      {KindWrite, "Write", [][2]string{{"filePath", "file_path"}}},
	"edit":       {KindEdit, "Edit", [][2]string{{"filePath", "file_path"}, {"oldString", "old_string"}, {"newString", "new_string"}, {"replaceAll", "replace_all"}}},
	"multiedit":  {KindEdit, "MultiEdit", [][2]string{{"filePath", "file_path"}}},
	"glob":       {KindSearch, "Glob", nil},
	"grep":       {KindSearch, "Grep", [][2]string{{"include", "glob"}}},
	"list":       {KindList, "LS", nil},
	"webfetch":   {KindFetch, "WebFetch", nil},
	"websearch":  {KindFetch, "WebSearch", nil},
	"codesearch": {KindFetch, "WebSearch", nil},
	"task":       {KindAgent, "Task", nil},
	// Kilo CLI's background_process starts a command (action "start").
	"background_process": {KindShell, "Bash", nil},
}

// opencodeOwn are the agents' tools that neither run commands nor touch
// files themselves (a todo list, a question, a skill's text): any other
// unknown name is an MCP server's tool (server_tool), left to the daemon.
var opencodeOwn = map[string]bool{
	"todowrite": true, "todoread": true, "question": true, "skill": true, "invalid": true,
	"board_post": true, "board_read": true, "schedule_wakeup": true, "cancel_wakeup": true, "kilo_local_recall": true,
}

func (opencode) Canonical(event map[string]any) Call {
	tool := str(event, "tool")
	raw := event["args"]
	args, isObject := raw.(map[string]any)
	switch tool {
	case "apply_patch", "patch":
		// The patch text is patchText; patchCall reads "patch".
		in := raw
		if isObject {
			in = rename(args, [][2]string{{"patchText", "patch"}})
		}
		c, _ := patchCall("apply_patch", in)
		c.Tool, c.LikeInput = tool, raw
		return c
	}
	t, known := opencodeTools[tool]
	switch {
	case known && !isObject:
		return Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: raw}
	case known:
		in := rename(args, t.fields)
		if tool == "multiedit" {
			in["edits"] = renameEach(in["edits"], opencodeTools["edit"].fields)
		}
		if tool == "background_process" && str(args, "command") == "" {
			return Call{Tool: tool, Kind: KindOther, Like: tool, LikeInput: raw}
		}
		// A command runs in workdir (the project when absent).
		return Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: in, Dir: str(args, "workdir")}
	case opencodeOwn[tool]:
		return Call{Tool: tool, Kind: KindOther, Like: tool, LikeInput: raw}
	case shellNames[strings.ToLower(tool)]:
		return Call{Tool: tool, Kind: KindShell, Like: "Bash", LikeInput: raw}
	}
	return mcpCall(tool, "mcp__"+tool, raw)
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
			out[i] = rename(m, names)
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

// Render, per our plugin's contract:
//
//	deny        stdout {"decision":"deny","reason":R}, R on stderr, exit 2: the plugin throws R
//	ask         the same deny, its reason saying a person must approve
//	allow (any) nothing, exit 0: the agent's own permission rules go on
func (a opencode) Render(_ map[string]any, d *wire.Decision) Answer {
	deny := func(r string) Answer {
		return Answer{encodeJSON(opencodeOutput{"deny", r}), r + "\n", ExitBlock}
	}
	switch d.Verdict {
	case wire.Deny:
		return deny(denyReason(d))
	case wire.Ask:
		return deny(humanMustApprove(a.title, d.Reason))
	case wire.Allow:
		return Answer{Exit: ExitOK}
	}
	return deny(unknownVerdict(d))
}
