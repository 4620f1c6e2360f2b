package claude

import (
	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/internal/wire"
)

// claude is Claude Code, the reference agent: PreToolUse with tool_name
// and tool_input; answers in hookSpecificOutput.
type claude struct{}

func (claude) Name() string { return "claude-code" }

// Identify names the call by its event's top-level keys.
func (claude) Identify(event map[string]any) agent.CallID { return agent.TopLevelCall(event) }

// Recognise: Claude Code's shape is also Codex's (and the one Copilot
// sends Claude-format hooks), so it is never unmistakable; it is the
// default.
func (claude) Recognise(map[string]any) bool { return false }

func (claude) Canonical(event map[string]any) agent.Call {
	tool := agent.Str(event, "tool_name")
	call := agent.Call{Tool: tool, Kind: Tools[tool], Like: tool, LikeInput: event["tool_input"]}
	// Grep lists the matching files' names unless asked for their lines.
	call.NamesOnly = tool == "Grep" && agent.Str(call.Input(), "output_mode") != "content"
	return call
}

// ClaudeOutput is the PreToolUse answer Claude Code reads from stdout.
type ClaudeOutput struct {
	HookSpecificOutput ClaudeSpecific `json:"hookSpecificOutput"`
}

// ClaudeSpecific is the body of ClaudeOutput.
type ClaudeSpecific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	// UpdatedInput replaces the tool's input; Claude Code then runs its
	// own permission checks on it (2.1.330).
	UpdatedInput map[string]any `json:"updatedInput,omitempty"`
}

// JSON is Claude Code's PreToolUse answer for a verdict.
func JSON(v wire.Verdict, reason string) []byte {
	return agent.EncodeJSON(ClaudeOutput{ClaudeSpecific{HookEventName: "PreToolUse", PermissionDecision: string(v), PermissionDecisionReason: reason}})
}

// Prompts: Claude Code shows its own prompt for an ask (in `claude -p`
// it acts as a deny: set approvals: agentjail there).
func (claude) Prompts(map[string]any) bool { return true }

// Render, as measured against the real Claude Code:
//
//	deny                 stdout JSON "deny", reason on stderr, exit 2
//	ask                  stdout JSON "ask", exit 0
//	allow, by a rule     stdout JSON "allow", exit 0
//	allow, no rule fired nothing, exit 0 (its own permission flow goes on)
func (claude) Render(_ map[string]any, d *wire.Decision) agent.Answer {
	switch d.Verdict {
	case wire.Deny:
		r := agent.DenyReason(d)
		return agent.Answer{Stdout: JSON(wire.Deny, r), Stderr: r + "\n", Exit: agent.ExitBlock}
	case wire.Ask:
		return agent.Answer{Stdout: JSON(wire.Ask, d.Reason), Stderr: "", Exit: agent.ExitOK}
	case wire.Allow:
		if d.Explicit {
			return agent.Answer{Stdout: JSON(wire.Allow, d.Reason), Stderr: "", Exit: agent.ExitOK}
		}
		return agent.Answer{Exit: agent.ExitOK}
	}
	r := agent.UnknownVerdict(d)
	return agent.Answer{Stdout: JSON(wire.Deny, r), Stderr: r + "\n", Exit: agent.ExitBlock}
}

// Notice: Claude Code shows a hook's systemMessage to the user; with no
// hookSpecificOutput its own permission flow goes on unchanged.
func (claude) Notice(_ map[string]any, msg string) agent.Answer {
	return agent.Answer{Stdout: agent.EncodeJSON(agent.SystemMessage{SystemMessage: msg}), Stderr: msg + "\n", Exit: agent.ExitOK}
}

// Confine: Claude Code runs a Bash call with the command of the hook's
// updatedInput (2.1.330), and its own permission checks then judge the
// rewritten command, which none of its rules or read-only checks know:
// it would ask about every call. So a confined call is answered allow
// (an ask stays an ask): agentjail's verdict and the jail stand in for
// Claude Code's own prompt. In plan mode nothing is allowed for it, so
// that Claude Code keeps refusing what plan mode refuses.
func (claude) Confine(event map[string]any, d *wire.Decision, wrap func(string) string) (agent.Answer, bool) {
	if agent.Str(event, "tool_name") != "Bash" || (d.Verdict != wire.Allow && d.Verdict != wire.Ask) {
		return agent.Answer{}, false
	}
	in, ok := agent.RewriteCommand(event["tool_input"], "command", wrap)
	if !ok {
		return agent.Answer{}, false
	}
	out := ClaudeSpecific{HookEventName: "PreToolUse", UpdatedInput: in, PermissionDecision: string(d.Verdict), PermissionDecisionReason: d.Reason}
	if d.Verdict == wire.Allow && agent.Str(event, "permission_mode") == "plan" {
		out.PermissionDecision, out.PermissionDecisionReason = "", ""
	}
	return agent.Answer{Stdout: agent.EncodeJSON(ClaudeOutput{out}), Exit: agent.ExitOK}, true
}
