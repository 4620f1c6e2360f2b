package toolrecords

import (
	"encoding/json"
	"path/filepath"
)

// Copilot CLI: one event a line in
// $COPILOT_HOME/session-state/<session>/events.jsonl (COPILOT_HOME is
// ~/.copilot unless set). The first is session.start, whose context holds
// the working directory (session.resume's too, when a session goes on),
// and a tool that starts running is
//
//	{"type":"tool.execution_start","data":{"toolCallId":"call_1","toolName":"bash","arguments":{…}},
//	 "timestamp":…,"agentId":…}
//
// agentId (or the older data.parentToolCallId) marks a subagent's call.
// Copilot's hook events carry no id of the call, so ID is left empty: the
// daemon names the call by session, tool and input, as it names the same
// call from the hook and from the post-tool event, and reports it once.
func parseCopilot(line []byte, st *fileState, calls []Call) ([]Call, error) {
	var e struct {
		Type      string `json:"type"`
		Timestamp string `json:"timestamp"`
		AgentID   string `json:"agentId"`
		Data      struct {
			SessionID string `json:"sessionId"`
			Context   struct {
				Cwd string `json:"cwd"`
			} `json:"context"`
			ToolName         string          `json:"toolName"`
			Arguments        json.RawMessage `json:"arguments"`
			ParentToolCallID string          `json:"parentToolCallId"`
		} `json:"data"`
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return calls, err
	}
	switch e.Type {
	case "session.start", "session.resume":
		if e.Data.SessionID != "" {
			st.session = e.Data.SessionID
		}
		if e.Data.Context.Cwd != "" {
			st.cwd = e.Data.Context.Cwd
		}
		return calls, nil
	case "tool.execution_start":
	default:
		return calls, nil
	}
	return append(calls, Call{Session: st.session, Tool: e.Data.ToolName, Input: object(e.Data.Arguments),
		Cwd: st.cwd, Time: parseTime(e.Timestamp), Subagent: st.subagent || e.AgentID != "" || e.Data.ParentToolCallID != ""}), nil
}

// copilotSession is the session a file is of: the name of its directory.
func copilotSession(path string, st *fileState) {
	st.session = filepath.Base(filepath.Dir(path))
}
