package daemon

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/wire"
)

// summaryMax bounds the summary of a command in the log.
const summaryMax = 300

// record describes one decision of call for the decision log.
func record(call *policyset.Call, dec *wire.Decision) decisionlog.Record {
	r := decisionlog.Record{
		Time:       time.Now().UTC(),
		ID:         newID(),
		Verdict:    string(dec.Verdict),
		EvalMicros: dec.EvalMicros,
		Revision:   dec.Revision,
		// The session the accounting knows the call by (session_id,
		// Copilot CLI's sessionId, Cursor's conversation_id, Cline's
		// taskId), so that audit counts its judged and unchecked calls
		// together.
		SessionID: call.ID.Session,
	}
	// The tool as the agent names it, whichever field of its event
	// carries it (tool_name, toolName ...).
	r.Tool = call.ID.Tool
	if d := call.Derived; d != nil {
		if d.ToolName != "" {
			r.Tool = d.ToolName
		}
		r.Agent, r.Cwd = d.Agent, d.Cwd
	}
	if r.Agent == "" {
		// Answered before it was judged (late): the agent of its hook.
		r.Agent = call.Agent.Name
	}
	r.Summary = summary(call)
	for _, rule := range dec.Rules {
		if rule.Kind == dec.Verdict {
			r.RuleIDs = append(r.RuleIDs, rule.ID)
			r.Reasons = append(r.Reasons, rule.Msg)
		}
	}
	return r
}

// summary is the command, or the path (and for Write the size): never a
// file's content.
func summary(call *policyset.Call) string {
	d := call.Derived
	if d != nil && d.Command != "" {
		return clip(d.Command) // a shell call of any agent
	}
	ti, _ := call.ID.Input.(map[string]any)
	if cmd, ok := ti["command"].(string); ok {
		return clip(cmd)
	}
	path := ""
	if d != nil {
		path = d.FilePath
	}
	if content, ok := ti["content"].(string); ok {
		return fmt.Sprintf("%s (%s)", path, plural.Of(len(content), "byte"))
	}
	if path != "" {
		return path
	}
	if url, ok := ti["url"].(string); ok {
		return clip(url)
	}
	tool := call.ID.Tool
	if d != nil && d.ToolName != "" {
		tool = d.ToolName
	}
	return tool
}

func clip(s string) string {
	if len(s) <= summaryMax {
		return s
	}
	return s[:summaryMax] + "…"
}

func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
