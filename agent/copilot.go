package agent

import (
	"strings"

	"github.com/agentjail/agentjail/internal/wire"
)

// copilot is the GitHub Copilot CLI: preToolUse with toolName and
// toolArgs, the arguments as a JSON object (measured with 1.0.102) or, as
// it was documented, a JSON string: both are read. An "allow" widens its own
// prompts, so no objection is silence; a deny is JSON on stdout (exit 2
// alone loses the reason).
type copilot struct{}

func (copilot) Name() string { return "copilot" }

func (copilot) Recognise(event map[string]any) bool {
	_, hasName := event["toolName"].(string)
	_, hasArgs := event["toolArgs"]
	_, claudeShape := event["tool_name"]
	return hasName && hasArgs && !claudeShape
}

// copilotTools maps Copilot CLI's tools to Claude Code's.
var copilotTools = map[string]struct {
	kind, like string
	fields     [][2]string
}{
	"bash":       {KindShell, "Bash", nil},
	"powershell": {KindShell, "Bash", nil},
	// write_bash types into a running shell session: what it types runs.
	"write_bash":         {KindShell, "Bash", [][2]string{{"input", "command"}}},
	"view":               {KindRead, "Read", [][2]string{{"path", "file_path"}}},
	"create":             {KindWrite, "Write", [][2]string{{"path", "file_path"}, {"file_text", "content"}}},
	"edit":               {KindEdit, "Edit", [][2]string{{"path", "file_path"}, {"old_str", "old_string"}, {"new_str", "new_string"}}},
	"str_replace_editor": {KindEdit, "Edit", [][2]string{{"path", "file_path"}, {"old_str", "old_string"}, {"new_str", "new_string"}, {"file_text", "content"}}},
	"glob":               {KindSearch, "Glob", nil},
	"grep":               {KindSearch, "Grep", nil},
	"rg":                 {KindSearch, "Grep", nil},
	"web_fetch":          {KindFetch, "WebFetch", nil},
	"task":               {KindAgent, "Task", nil},
}

func (copilot) Canonical(event map[string]any) Call {
	tool := str(event, "toolName")
	args, ok := objectOrJSON(event["toolArgs"])
	var raw any = args
	if !ok {
		raw = event["toolArgs"] // not an object: the daemon says so
	}
	// apply_patch takes the patch in its arguments, or as them.
	if c, isPatch := patchCall(tool, raw); isPatch {
		return c
	}
	t, known := copilotTools[tool]
	switch {
	case known && ok:
		in := rename(args, t.fields)
		like := t.like
		if tool == "str_replace_editor" {
			// One tool, several commands: view, create, str_replace, insert.
			switch str(args, "command") {
			case "view":
				return Call{Tool: tool, Kind: KindRead, Like: "Read", LikeInput: in}
			case "create":
				return Call{Tool: tool, Kind: KindWrite, Like: "Write", LikeInput: in}
			}
			delete(in, "command")
		}
		return Call{Tool: tool, Kind: t.kind, Like: like, LikeInput: in}
	case known:
		return Call{Tool: tool, Kind: t.kind, Like: t.like, LikeInput: raw}
	case strings.HasPrefix(tool, "mcp__"):
		return mcpCall(tool, tool, raw)
	}
	return Call{Tool: tool, Like: tool, LikeInput: raw}
}

// copilotOutput is the answer Copilot CLI reads from stdout.
type copilotOutput struct {
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// Render, per Copilot CLI's contract:
//
//	deny        stdout {"permissionDecision":"deny","permissionDecisionReason":R}, exit 0
//	ask         stdout "ask" (a headless run turns it into a deny), exit 0
//	allow (any) nothing, exit 0: an allow would widen Copilot's own prompts
func (copilot) Render(_ map[string]any, d *wire.Decision) Answer {
	switch d.Verdict {
	case wire.Deny:
		return Answer{Stdout: encodeJSON(copilotOutput{"deny", denyReason(d)}), Exit: ExitOK}
	case wire.Ask:
		r := d.Reason
		if r == "" {
			r = "agentjail's policies want a person to approve this call"
		}
		return Answer{Stdout: encodeJSON(copilotOutput{"ask", r}), Exit: ExitOK}
	case wire.Allow:
		return Answer{Exit: ExitOK}
	}
	return Answer{Stdout: encodeJSON(copilotOutput{"deny", unknownVerdict(d)}), Exit: ExitOK}
}
