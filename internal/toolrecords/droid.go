package toolrecords

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// Factory Droid: one JSON object a line in
// ~/.factory/sessions/<cwd-slug>/<session>.jsonl (FACTORY_HOME_OVERRIDE
// stands for the home). The first line is
//
//	{"type":"session_start","id":<session>,"cwd":…,"callingSessionId":…}
//
// where callingSessionId marks a subagent's session, and a call is a
// content block of an assistant message:
//
//	{"type":"message","timestamp":…,"message":{"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"Execute","input":{…}}]}}
//
// Droid's hook events carry no id of the call (no tool_use_id), so ID is
// left empty: the daemon names the call by session, tool and input, as
// it names the same call from the hook and from the post-tool event, and
// reports it once.
func parseDroid(line []byte, st *fileState, calls []Call) ([]Call, error) {
	var e struct {
		Type             string `json:"type"`
		ID               string `json:"id"`
		Cwd              string `json:"cwd"`
		CallingSessionID string `json:"callingSessionId"`
		Timestamp        string `json:"timestamp"`
		Message          struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return calls, err
	}
	switch {
	case e.Type == "session_start":
		if e.ID != "" {
			st.session = e.ID
		}
		st.cwd = e.Cwd
		st.subagent = st.subagent || e.CallingSessionID != ""
		return calls, nil
	case e.Type != "message" || e.Message.Role != "assistant" || len(e.Message.Content) == 0 || e.Message.Content[0] != '[':
		return calls, nil
	}
	var blocks []struct {
		Type  string          `json:"type"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(e.Message.Content, &blocks); err != nil {
		return calls, err
	}
	for _, b := range blocks {
		if b.Type == "tool_use" {
			calls = append(calls, Call{Session: st.session, Tool: b.Name, Input: object(b.Input),
				Cwd: st.cwd, Time: parseTime(e.Timestamp), Subagent: st.subagent})
		}
	}
	return calls, nil
}

// droidSession is the session a file is of: its name.
func droidSession(path string, st *fileState) {
	st.session = strings.TrimSuffix(filepath.Base(path), ".jsonl")
}
