package copilot

import (
	"encoding/json"
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/internal/wire"
)

// copilot is the GitHub Copilot CLI: preToolUse with toolName and
// toolArgs, the arguments as a JSON object (measured with 1.0.102) or, as
// it was documented, a JSON string: both are read. An "allow" widens its own
// prompts, so no objection is silence; a deny is JSON on stdout (exit 2
// alone loses the reason).
type copilot struct{}

func (copilot) Name() string { return "copilot" }

// Identify names the call by its event's top-level keys.
func (copilot) Identify(event map[string]any) agent.CallID { return agent.TopLevelCall(event) }

func (copilot) Recognise(event map[string]any) bool {
	_, hasName := event["toolName"].(string)
	_, hasArgs := event["toolArgs"]
	_, claudeShape := event["tool_name"]
	return hasName && hasArgs && !claudeShape
}

// tools maps Copilot CLI's tools to Claude Code's.
var tools = map[string]agent.Tool{
	"bash":       {Kind: agent.KindShell, Like: "Bash"},
	"powershell": {Kind: agent.KindShell, Like: "Bash"},
	// write_bash types into a running shell session: what it types runs.
	"write_bash":         {Kind: agent.KindShell, Like: "Bash", Fields: [][2]string{{"input", "command"}}},
	"view":               {Kind: agent.KindRead, Like: "Read", Fields: [][2]string{{"path", "file_path"}}},
	"create":             {Kind: agent.KindWrite, Like: "Write", Fields: [][2]string{{"path", "file_path"}, {"file_text", "content"}}},
	"edit":               {Kind: agent.KindEdit, Like: "Edit", Fields: [][2]string{{"path", "file_path"}, {"old_str", "old_string"}, {"new_str", "new_string"}}},
	"str_replace_editor": {Kind: agent.KindEdit, Like: "Edit", Fields: [][2]string{{"path", "file_path"}, {"old_str", "old_string"}, {"new_str", "new_string"}, {"file_text", "content"}}},
	"glob":               {Kind: agent.KindSearch, Like: "Glob"},
	"grep":               {Kind: agent.KindSearch, Like: "Grep"},
	"rg":                 {Kind: agent.KindSearch, Like: "Grep"},
	"web_fetch":          {Kind: agent.KindFetch, Like: "WebFetch"},
	"task":               {Kind: agent.KindAgent, Like: "Task"},
}

func (copilot) Canonical(event map[string]any) agent.Call {
	tool := agent.Str(event, "toolName")
	args, ok := agent.ObjectOrJSON(event["toolArgs"])
	var raw any = args
	if !ok {
		raw = event["toolArgs"] // not an object: the daemon says so
	}
	// apply_patch takes the patch in its arguments, or as them.
	if c, isPatch := agent.PatchCall(tool, raw); isPatch {
		return c
	}
	t, known := tools[tool]
	switch {
	case known && ok:
		in := agent.Rename(args, t.Fields)
		like := t.Like
		if tool == "str_replace_editor" {
			// One tool, several commands: view, create, str_replace, insert.
			switch agent.Str(args, "command") {
			case "view":
				return agent.Call{Tool: tool, Kind: agent.KindRead, Like: "Read", LikeInput: in}
			case "create":
				return agent.Call{Tool: tool, Kind: agent.KindWrite, Like: "Write", LikeInput: in}
			}
			delete(in, "command")
		}
		return agent.Call{Tool: tool, Kind: t.Kind, Like: like, LikeInput: in}
	case known:
		return agent.Call{Tool: tool, Kind: t.Kind, Like: t.Like, LikeInput: raw}
	case strings.HasPrefix(tool, "mcp__"):
		return agent.MCPCall(tool, tool, raw)
	}
	return agent.Call{Tool: tool, Like: tool, LikeInput: raw}
}

// copilotOutput is the answer Copilot CLI reads from stdout.
type copilotOutput struct {
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// Prompts: Copilot CLI asks for an ask when run interactively; headless
// (-p) it denies ("unable to ask user"), and its event does not say
// which: set approvals: agentjail for headless runs.
func (copilot) Prompts(map[string]any) bool { return true }

// Render, per Copilot CLI's contract:
//
//	deny        stdout {"permissionDecision":"deny","permissionDecisionReason":R}, exit 0
//	ask         stdout "ask" (a headless run turns it into a deny), exit 0
//	allow (any) nothing, exit 0: an allow would widen Copilot's own prompts
func (copilot) Render(_ map[string]any, d *wire.Decision) agent.Answer {
	switch d.Verdict {
	case wire.Deny:
		return agent.Answer{Stdout: agent.EncodeJSON(copilotOutput{"deny", agent.DenyReason(d)}), Exit: agent.ExitOK}
	case wire.Ask:
		r := d.Reason
		if r == "" {
			r = "agentjail's policies want a person to approve this call"
		}
		return agent.Answer{Stdout: agent.EncodeJSON(copilotOutput{"ask", r}), Exit: agent.ExitOK}
	case wire.Allow:
		return agent.Answer{Exit: agent.ExitOK}
	}
	return agent.Answer{Stdout: agent.EncodeJSON(copilotOutput{"deny", agent.UnknownVerdict(d)}), Exit: agent.ExitOK}
}

// Example is Copilot CLI's preToolUse event for a Claude Code call, its
// arguments as a JSON string.
func (copilot) Example(tool string, input map[string]any, cwd string) map[string]any {
	names := map[string]string{"Bash": "bash", "Read": "view", "Write": "create", "Edit": "edit", "Grep": "grep", "Glob": "glob", "WebFetch": "web_fetch"}
	name, ok := names[tool]
	if !ok {
		name = tool
	}
	// Copilot's own names for a file, an edit's and a file's text.
	args := agent.CopyRenamed(input, map[string]string{"file_path": "path", "old_string": "old_str", "new_string": "new_str", "content": "file_text"})
	b, _ := json.Marshal(args)
	return map[string]any{"timestamp": 0, "cwd": cwd, "toolName": name, "toolArgs": string(b)}
}

// copilotRewrite is Copilot CLI's answer that replaces a tool's
// arguments.
type copilotRewrite struct {
	PermissionDecision string         `json:"permissionDecision"`
	ModifiedArgs       map[string]any `json:"modifiedArgs"`
}

// Confine: Copilot CLI 1.0.102 runs a call with the hook's modifiedArgs
// (whole: validated against the tool), and its own permission check
// then judges the rewritten command, which it would ask about every
// time: so, as for Claude Code, the answer is allow, and agentjail's
// verdict and the jail stand in for its prompt. It drops modifiedArgs
// with an ask, so an ask is not rewritten.
func (copilot) Confine(event map[string]any, d *wire.Decision, wrap func(string) string) (agent.Answer, bool) {
	if d.Verdict != wire.Allow || agent.Str(event, "toolName") != "bash" {
		return agent.Answer{}, false
	}
	in, ok := agent.RewriteCommand(event["toolArgs"], "command", wrap)
	if !ok {
		return agent.Answer{}, false
	}
	return agent.Answer{Stdout: agent.EncodeJSON(copilotRewrite{string(wire.Allow), in}), Exit: agent.ExitOK}, true
}
