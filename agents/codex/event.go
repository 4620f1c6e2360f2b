package codex

import (
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/internal/wire"
)

// codex is the Codex CLI: PreToolUse in Claude Code's shape (tool_name
// Bash with tool_input.command; apply_patch with the patch text in
// tool_input.command; MCP tools as mcp__server__tool). It cannot ask, it
// takes any JSON on stdout as an answer (an "allow" is rejected as a hook
// failure), and a deny needs a non-empty reason.
type codex struct{}

func (codex) Name() string { return "codex" }

// Identify names the call by its event's top-level keys.
func (codex) Identify(event map[string]any) agent.CallID { return agent.TopLevelCall(event) }

// Recognise: Codex's shape is Claude Code's; the flag tells them apart.
func (codex) Recognise(map[string]any) bool { return false }

func (codex) Canonical(event map[string]any) agent.Call {
	tool := agent.Str(event, "tool_name")
	raw := event["tool_input"]
	if c, ok := agent.PatchCall(tool, raw); ok {
		return c
	}
	switch {
	case Agent.ShellTool(tool):
		// The model may run apply_patch through the shell too
		// (apply_patch <<'EOF' ... EOF): the daemon reads its patch
		// from any agent's shell command (ShellPatch).
		return agent.Call{Tool: tool, Kind: agent.KindShell, Like: "Bash", LikeInput: raw}
	case strings.HasPrefix(tool, "mcp__"):
		return agent.MCPCall(tool, tool, raw)
	}
	// Anything else in Claude Code's names is read as Claude Code's.
	return agent.Call{Tool: tool, Kind: tools[tool], Like: tool, LikeInput: raw}
}

// Render, per Codex's contract:
//
//	deny            reason on stderr, exit 2 (Codex shows the model "Command blocked by PreToolUse hook: <reason>")
//	ask             the same deny, its reason saying a human must approve
//	allow (any)     nothing, exit 0: Codex's own approvals go on
func (codex) Render(_ map[string]any, d *wire.Decision) agent.Answer {
	switch d.Verdict {
	case wire.Deny:
		return agent.Answer{Stderr: agent.DenyReason(d) + "\n", Exit: agent.ExitBlock}
	case wire.Ask:
		return agent.Answer{Stderr: agent.HumanMustApprove("Codex", d.Reason) + "\n", Exit: agent.ExitBlock}
	case wire.Allow:
		return agent.Answer{Exit: agent.ExitOK}
	}
	return agent.Answer{Stderr: agent.UnknownVerdict(d) + "\n", Exit: agent.ExitBlock}
}

// Notice: Codex takes a PreToolUse hook's systemMessage on exit 0 as a
// warning entry of the hook's run, which its app server sends to the
// screen (hook/completed); the call goes on under Codex's own approvals.
// A hook's stderr on exit 0 reaches no one.
func (codex) Notice(_ map[string]any, msg string) agent.Answer {
	return agent.Answer{Stdout: agent.EncodeJSON(agent.SystemMessage{SystemMessage: msg}), Stderr: msg + "\n", Exit: agent.ExitOK}
}

// Confine: Codex 0.169.0 runs a shell call with the command of the
// hook's updatedInput when, and only when, the answer says allow (which
// then means only "take this input": its own sandbox and approvals judge
// the rewritten command). A patch, whether its own tool or apply_patch
// in the shell (which Codex applies itself), is not rewritten: the
// launcher would hide it from Codex.
func (codex) Confine(event map[string]any, d *wire.Decision, wrap func(string) string) (agent.Answer, bool) {
	tool := agent.Str(event, "tool_name")
	if d.Verdict != wire.Allow || !Agent.ShellTool(tool) {
		return agent.Answer{}, false
	}
	if _, patch := agent.PatchCall(tool, event["tool_input"]); patch {
		return agent.Answer{}, false
	}
	carriesPatch := false
	in, ok := agent.RewriteCommand(event["tool_input"], "command", func(c string) string {
		carriesPatch = agent.ShellPatch(c) != nil
		return wrap(c)
	})
	if !ok || carriesPatch {
		return agent.Answer{}, false
	}
	out := claude.ClaudeSpecific{HookEventName: "PreToolUse", PermissionDecision: string(wire.Allow), UpdatedInput: in}
	return agent.Answer{Stdout: agent.EncodeJSON(claude.ClaudeOutput{HookSpecificOutput: out}), Exit: agent.ExitOK}, true
}
