package toolrecords

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// format reads one agent's record lines. hints are byte strings of which
// a line must hold one to be worth decoding: a line holding none (most of
// them: messages, attachments, token counts) is passed over without
// json.Unmarshal.
type format struct {
	hints [][]byte
	parse func(line []byte, st *fileState, calls []Call) ([]Call, error)
	// start, if set, learns what a file's lines do not say, before its
	// first line is read.
	start func(path string, st *fileState)
}

func (f *format) holds(line []byte) bool {
	for _, h := range f.hints {
		if bytes.Contains(line, h) {
			return true
		}
	}
	return false
}

// formats are the readers by format name (agent.Records.Format).
var formats = map[string]*format{
	"claude-transcript": {hints: hints(`"tool_use"`), parse: parseClaude},
	"codex-rollout":     {hints: hints(`"session_meta"`, `"turn_context"`, `"function_call"`, `"custom_tool_call"`, `"local_shell_call"`), parse: parseCodex},
	"copilot-events":    {hints: hints(`"tool.execution_start"`, `"session.start"`, `"session.resume"`), parse: parseCopilot, start: copilotSession},
	"droid-session":     {hints: hints(`"tool_use"`, `"session_start"`), parse: parseDroid, start: droidSession},
	"gemini-chat":       {hints: hints(`"projectHash"`, `"toolCalls"`), parse: parseGemini, start: geminiCwd},
	"qwen-chat":         {hints: hints(`"functionCall"`), parse: parseQwen},
	"pi-session":        {hints: hints(`"type":"session"`, `"toolCall"`), parse: parsePi},
}

func hints(s ...string) [][]byte {
	out := make([][]byte, len(s))
	for i, h := range s {
		out[i] = []byte(h)
	}
	return out
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// object is raw if it is a JSON object, else {}: Input is always an object.
func object(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return json.RawMessage(`{}`)
	}
	return raw
}

// Claude Code: one JSON object a line in
// <config>/projects/<cwd-slug>/<session>.jsonl, subagents' in
// <session>/subagents/agent-<id>.jsonl beside it. A call is a content
// block of an assistant entry:
//
//	{"type":"assistant","sessionId":…,"cwd":…,"timestamp":…,"isSidechain":false,
//	 "message":{"content":[{"type":"tool_use","id":"toolu_…","name":"Bash","input":{…}}]}}
func parseClaude(line []byte, st *fileState, calls []Call) ([]Call, error) {
	var e struct {
		Type        string `json:"type"`
		SessionID   string `json:"sessionId"`
		Cwd         string `json:"cwd"`
		Timestamp   string `json:"timestamp"`
		IsSidechain bool   `json:"isSidechain"`
		Message     struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return calls, err
	}
	if e.Type != "assistant" || len(e.Message.Content) == 0 || e.Message.Content[0] != '[' {
		return calls, nil
	}
	var blocks []struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(e.Message.Content, &blocks); err != nil {
		return calls, err
	}
	for _, b := range blocks {
		if b.Type != "tool_use" {
			continue
		}
		calls = append(calls, Call{Session: e.SessionID, ID: b.ID, Tool: b.Name, Input: object(b.Input),
			Cwd: e.Cwd, Time: parseTime(e.Timestamp), Subagent: e.IsSidechain || st.subagent})
	}
	return calls, nil
}

// Codex: one {"timestamp","type","payload"} a line in
// $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl. The
// first is a session_meta ({"id","cwd","source"}), each turn_context
// carries the turn's cwd, and a call is a response_item whose payload is
//
//	{"type":"function_call","call_id":…,"name":"exec_command","arguments":"{…}"}
//	{"type":"custom_tool_call","call_id":…,"name":"apply_patch","input":"…"}
//	{"type":"local_shell_call","call_id":…,"action":{"type":"exec","command":[…]}}
//
// A function_call's arguments are a JSON string: Input is what it holds.
// A custom_tool_call's free-form input becomes {"input": …}, a
// local_shell_call's action is its Input.
func parseCodex(line []byte, st *fileState, calls []Call) ([]Call, error) {
	var e struct {
		Timestamp string `json:"timestamp"`
		Type      string `json:"type"`
		Payload   struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			SessionID string          `json:"session_id"`
			Cwd       string          `json:"cwd"`
			Source    json.RawMessage `json:"source"`
			CallID    string          `json:"call_id"`
			Name      string          `json:"name"`
			Arguments *string         `json:"arguments"`
			Input     *string         `json:"input"`
			Action    json.RawMessage `json:"action"`
		} `json:"payload"`
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return calls, err
	}
	p := &e.Payload
	switch e.Type {
	case "session_meta":
		st.session = p.ID
		if st.session == "" {
			st.session = p.SessionID
		}
		st.cwd = p.Cwd
		// A thread a subagent runs records source {"subagent": …}.
		st.subagent = bytes.HasPrefix(bytes.TrimSpace(p.Source), []byte(`{"subagent"`))
		return calls, nil
	case "turn_context":
		if p.Cwd != "" {
			st.cwd = p.Cwd
		}
		return calls, nil
	case "response_item":
	default:
		return calls, nil
	}
	c := Call{Session: st.session, ID: p.CallID, Tool: p.Name, Cwd: st.cwd, Time: parseTime(e.Timestamp), Subagent: st.subagent}
	switch p.Type {
	case "function_call":
		c.Input = json.RawMessage(`{}`)
		if p.Arguments != nil {
			if json.Valid([]byte(*p.Arguments)) {
				c.Input = object(json.RawMessage(*p.Arguments))
			} else {
				c.Input, _ = json.Marshal(map[string]string{"arguments": *p.Arguments})
			}
		}
	case "custom_tool_call":
		in := ""
		if p.Input != nil {
			in = *p.Input
		}
		c.Input, _ = json.Marshal(map[string]string{"input": in})
	case "local_shell_call":
		c.Tool = "local_shell"
		c.Input = object(p.Action)
	default:
		return calls, nil
	}
	return append(calls, c), nil
}

// Gemini CLI: one JSON object a line in
// ~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl, the first a
// header {"sessionId","projectHash","startTime",…}. A model message is
// written when it starts and again with its calls:
//
//	{"id":…,"timestamp":…,"type":"gemini","toolCalls":[{"id":…,"name":"run_shell_command","args":{…},"timestamp":…}]}
//
// and {"$set":{"messages":[…]}} rewrites the list, so a call is reported
// once by id. The working directory is in <project>/.project_root.
func parseGemini(line []byte, st *fileState, calls []Call) ([]Call, error) {
	type toolCall struct {
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Args      json.RawMessage `json:"args"`
		Timestamp string          `json:"timestamp"`
	}
	type message struct {
		Timestamp string     `json:"timestamp"`
		Type      string     `json:"type"`
		ToolCalls []toolCall `json:"toolCalls"`
	}
	var e struct {
		message
		SessionID   string `json:"sessionId"`
		ProjectHash string `json:"projectHash"`
		Set         *struct {
			Messages []message `json:"messages"`
		} `json:"$set"`
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return calls, err
	}
	if e.ProjectHash != "" && e.SessionID != "" {
		st.session = e.SessionID
		return calls, nil
	}
	msgs := []message{e.message}
	if e.Set != nil {
		msgs = e.Set.Messages
	}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.ID != "" && !st.remember(tc.ID) {
				continue
			}
			ts := tc.Timestamp
			if ts == "" {
				ts = m.Timestamp
			}
			calls = append(calls, Call{Session: st.session, ID: tc.ID, Tool: tc.Name, Input: object(tc.Args),
				Cwd: st.cwd, Time: parseTime(ts), Subagent: st.subagent})
		}
	}
	return calls, nil
}

// geminiCwd reads the project's directory from <project>/.project_root,
// beside the chats directory.
func geminiCwd(path string, st *fileState) {
	f, err := os.Open(filepath.Join(filepath.Dir(filepath.Dir(path)), ".project_root"))
	if err != nil {
		return
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 4096))
	st.cwd = strings.TrimSpace(string(b))
}

// Qwen Code: one JSON object a line in
// <runtime>/projects/<cwd-slug>/chats/<session>.jsonl. A call is a part
// of an assistant entry:
//
//	{"type":"assistant","sessionId":…,"cwd":…,"timestamp":…,
//	 "message":{"role":"model","parts":[{"functionCall":{"id":"call_1","name":"run_shell_command","args":{…}}}]}}
func parseQwen(line []byte, st *fileState, calls []Call) ([]Call, error) {
	var e struct {
		Type      string `json:"type"`
		SessionID string `json:"sessionId"`
		Cwd       string `json:"cwd"`
		Timestamp string `json:"timestamp"`
		Message   struct {
			Parts []struct {
				FunctionCall *struct {
					ID   string          `json:"id"`
					Name string          `json:"name"`
					Args json.RawMessage `json:"args"`
				} `json:"functionCall"`
			} `json:"parts"`
		} `json:"message"`
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return calls, err
	}
	if e.Type != "assistant" {
		return calls, nil
	}
	for _, p := range e.Message.Parts {
		if fc := p.FunctionCall; fc != nil {
			calls = append(calls, Call{Session: e.SessionID, ID: fc.ID, Tool: fc.Name, Input: object(fc.Args),
				Cwd: e.Cwd, Time: parseTime(e.Timestamp), Subagent: st.subagent})
		}
	}
	return calls, nil
}

// maxSeen bounds the ids a file remembers; past it they are forgotten (a
// message rewritten after that many calls reports its calls again).
const maxSeen = 4096

// remember records id and says whether it is new.
func (st *fileState) remember(id string) bool {
	if st.seen[id] {
		return false
	}
	if st.seen == nil || len(st.seen) >= maxSeen {
		st.seen = map[string]bool{}
	}
	st.seen[id] = true
	return true
}
