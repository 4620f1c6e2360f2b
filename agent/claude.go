package agent

import "github.com/agentjail/agentjail/internal/wire"

// claude is Claude Code, the reference agent: PreToolUse with tool_name
// and tool_input; answers in hookSpecificOutput.
type claude struct{}

func (claude) Name() string { return "claude-code" }

// Recognise: Claude Code's shape is also Codex's (and the one Copilot
// sends Claude-format hooks), so it is never unmistakable; it is the
// default.
func (claude) Recognise(map[string]any) bool { return false }

// claudeKinds are Claude Code's own tools by kind.
var claudeKinds = map[string]string{
	"Bash": KindShell, "Read": KindRead, "Write": KindWrite, "Edit": KindEdit, "MultiEdit": KindEdit,
	"NotebookEdit": KindEdit, "Grep": KindSearch, "Glob": KindSearch, "LS": KindList,
	"WebFetch": KindFetch, "WebSearch": KindFetch, "Task": KindAgent, "Agent": KindAgent,
}

func (claude) Canonical(event map[string]any) Call {
	tool := str(event, "tool_name")
	return Call{Tool: tool, Kind: claudeKinds[tool], Like: tool, LikeInput: event["tool_input"]}
}

// ClaudeOutput is the PreToolUse answer Claude Code reads from stdout.
type ClaudeOutput struct {
	HookSpecificOutput ClaudeSpecific `json:"hookSpecificOutput"`
}

// ClaudeSpecific is the body of ClaudeOutput.
type ClaudeSpecific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
}

func claudeJSON(v wire.Verdict, reason string) []byte {
	return encodeJSON(ClaudeOutput{ClaudeSpecific{HookEventName: "PreToolUse", PermissionDecision: string(v), PermissionDecisionReason: reason}})
}

// Render, as measured against the real Claude Code:
//
//	deny                 stdout JSON "deny", reason on stderr, exit 2
//	ask                  stdout JSON "ask", exit 0
//	allow, by a rule     stdout JSON "allow", exit 0
//	allow, no rule fired nothing, exit 0 (its own permission flow goes on)
func (claude) Render(_ map[string]any, d *wire.Decision) Answer {
	switch d.Verdict {
	case wire.Deny:
		r := denyReason(d)
		return Answer{claudeJSON(wire.Deny, r), r + "\n", ExitBlock}
	case wire.Ask:
		return Answer{claudeJSON(wire.Ask, d.Reason), "", ExitOK}
	case wire.Allow:
		if d.Explicit {
			return Answer{claudeJSON(wire.Allow, d.Reason), "", ExitOK}
		}
		return Answer{Exit: ExitOK}
	}
	r := unknownVerdict(d)
	return Answer{claudeJSON(wire.Deny, r), r + "\n", ExitBlock}
}

// Notice: Claude Code shows a hook's systemMessage to the user; with no
// hookSpecificOutput its own permission flow goes on unchanged.
func (claude) Notice(_ map[string]any, msg string) Answer {
	return Answer{Stdout: encodeJSON(systemMessage{msg}), Stderr: msg + "\n", Exit: ExitOK}
}
