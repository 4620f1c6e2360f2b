package toolrecords

import "encoding/json"

// pi: one JSON object a line in
// <agent dir>/sessions/<cwd-slug>/<time>_<session>.jsonl, the first a
// header {"type":"session","id":…,"cwd":…}, whose id is the session id
// agentjail's extension sends the hook. pi writes the file at its first
// answer from the model and appends an entry a line after. A call is a
// content block of an assistant message, its id the toolCallId of the
// hook's event:
//
//	{"type":"message","timestamp":…,"message":{"role":"assistant",
//	 "content":[{"type":"toolCall","id":"call_1","name":"bash","arguments":{…}}]}}
func parsePi(line []byte, st *fileState, calls []Call) ([]Call, error) {
	var e struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		Cwd       string `json:"cwd"`
		Timestamp string `json:"timestamp"`
		Message   struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return calls, err
	}
	if e.Type == "session" {
		st.session, st.cwd = e.ID, e.Cwd
		return calls, nil
	}
	if e.Type != "message" || e.Message.Role != "assistant" || len(e.Message.Content) == 0 || e.Message.Content[0] != '[' {
		return calls, nil
	}
	var blocks []struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(e.Message.Content, &blocks); err != nil {
		return calls, err
	}
	for _, b := range blocks {
		if b.Type != "toolCall" {
			continue
		}
		calls = append(calls, Call{Session: st.session, ID: b.ID, Tool: b.Name, Input: object(b.Arguments),
			Cwd: st.cwd, Time: parseTime(e.Timestamp), Subagent: st.subagent})
	}
	return calls, nil
}
