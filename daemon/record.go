package daemon

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/wire"
)

// summaryMax bounds the summary of a command in the log.
const summaryMax = 300

// record describes one decision for the decision log.
func record(in map[string]any, dec *wire.Decision) decisionlog.Record {
	derived, _ := in["agentjail"].(map[string]any)
	r := decisionlog.Record{
		Time:       time.Now().UTC(),
		ID:         newID(),
		Verdict:    string(dec.Verdict),
		EvalMicros: dec.EvalMicros,
		Revision:   dec.Revision,
	}
	// The tool as the agent names it, whichever field of its event
	// carries it (tool_name, toolName ...).
	if r.Tool, _ = derived["tool_name"].(string); r.Tool == "" {
		r.Tool, _ = in["tool_name"].(string)
	}
	r.Agent, _ = derived["agent"].(string)
	// The session the accounting knows the call by (session_id, Copilot
	// CLI's sessionId, Cursor's conversation_id, Cline's taskId), so that
	// audit counts its judged and unchecked calls together.
	r.SessionID = sessionOf(in)
	if a, ok := agents.Lookup(r.Agent); ok {
		if idf, ok := a.(agent.Identifier); ok {
			r.SessionID = idf.Identify(in).Session
		}
	}
	r.Cwd, _ = derived["cwd"].(string)
	r.Summary = summary(r.Tool, in, derived)
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
func summary(tool string, in, derived map[string]any) string {
	if cmd, ok := derived["command"].(string); ok && cmd != "" {
		return clip(cmd) // a shell call of any agent
	}
	ti, _ := in["tool_input"].(map[string]any)
	if cmd, ok := ti["command"].(string); ok {
		return clip(cmd)
	}
	path, _ := derived["file_path"].(string)
	if content, ok := ti["content"].(string); ok {
		return fmt.Sprintf("%s (%s)", path, plural.Of(len(content), "byte"))
	}
	if path != "" {
		return path
	}
	if url, ok := ti["url"].(string); ok {
		return clip(url)
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
