package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// fakeModel is a scripted model API on 127.0.0.1 that speaks the three
// dialects the agent CLIs use: the OpenAI Responses API (Codex), OpenAI
// chat completions (Copilot with a bring-your-own-key provider) and the
// Gemini API (Gemini CLI). On the first turn of a conversation that offers
// tools it calls the one tool the test scripted; when the agent sends the
// tool's result back it records it and ends the turn with a text answer.
type fakeModel struct {
	t   *testing.T
	url string // http://127.0.0.1:PORT, no trailing slash

	mu       sync.Mutex
	call     *modelCall // the tool call of the first turn; nil answers text only
	results  []string   // the tool results of the last request that carried any
	requests []string   // method and path of every request, for failure messages
}

// modelCall is one tool call the fake model makes: the tool's name as the
// agent offers it and its arguments.
type modelCall struct {
	Name string
	Args map[string]any
}

func startFakeModel(t *testing.T) *fakeModel {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeModel{t: t, url: "http://" + ln.Addr().String()}
	srv := &http.Server{Handler: http.HandlerFunc(f.serve)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return f
}

// script sets the tool call of the next run and forgets what was recorded.
func (f *fakeModel) script(c *modelCall) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call, f.results, f.requests = c, nil, nil
}

// received is what the agent sent back as the tool's result.
func (f *fakeModel) received() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.results...)
}

func (f *fakeModel) seen() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.requests, "\n")
}

// turn records a request's tool results and says which call to make: the
// scripted one when the request offers tools and no result is back yet.
func (f *fakeModel) turn(r *http.Request, offersTools bool, results []string) *modelCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r.Method+" "+r.URL.String())
	if len(results) > 0 {
		f.results = results
		return nil
	}
	if offersTools {
		return f.call
	}
	return nil
}

func (f *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && p == "/v1/responses":
		f.responses(w, r, body)
	case r.Method == http.MethodPost && p == "/v1/chat/completions":
		f.chat(w, r, body)
	case r.Method == http.MethodGet && p == "/v1/models":
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": copilotModel, "object": "model"}}})
	case r.Method == http.MethodPost && strings.HasPrefix(p, "/v1beta/models/") && strings.HasSuffix(p, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 10})
	case r.Method == http.MethodPost && strings.HasPrefix(p, "/v1beta/models/"):
		f.gemini(w, r, body)
	default:
		f.mu.Lock()
		f.requests = append(f.requests, r.Method+" "+r.URL.String()+" (404)")
		f.mu.Unlock()
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func sseData(w io.Writer, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
}

// textOf flattens a result that is a string or a list of text parts.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// responses is the OpenAI Responses API as Codex streams it: the events
// response.created, response.output_item.done (one function_call, or one
// assistant message) and response.completed.
func (f *fakeModel) responses(w http.ResponseWriter, r *http.Request, body []byte) {
	var req struct {
		Tools []json.RawMessage `json:"tools"`
		Input []struct {
			Type   string          `json:"type"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
	}
	json.Unmarshal(body, &req)
	var results []string
	for _, in := range req.Input {
		if in.Type == "function_call_output" || in.Type == "custom_tool_call_output" {
			results = append(results, textOf(in.Output))
		}
	}
	call := f.turn(r, len(req.Tools) > 0, results)
	var item map[string]any
	if call != nil {
		args, _ := json.Marshal(call.Args)
		item = map[string]any{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": call.Name, "arguments": string(args)}
	} else {
		item = map[string]any{"type": "message", "role": "assistant", "id": "msg_1", "content": []any{map[string]any{"type": "output_text", "text": "done"}}}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sseData(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_1"}})
	sseData(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sseData(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": "resp_1", "usage": map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2},
	}})
}

// copilotModel is the model name the fake offers Copilot.
const copilotModel = "gpt-4.1"

// chat is OpenAI chat completions, streamed or not, as Copilot's
// bring-your-own-key provider uses them.
func (f *fakeModel) chat(w http.ResponseWriter, r *http.Request, body []byte) {
	var req struct {
		Stream   bool              `json:"stream"`
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	json.Unmarshal(body, &req)
	var results []string
	for _, m := range req.Messages {
		if m.Role == "tool" {
			results = append(results, textOf(m.Content))
		}
	}
	call := f.turn(r, len(req.Tools) > 0, results)
	msg := map[string]any{"role": "assistant", "content": "done"}
	finish := "stop"
	if call != nil {
		args, _ := json.Marshal(call.Args)
		msg = map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
			"index": 0, "id": "call_1", "type": "function",
			"function": map[string]any{"name": call.Name, "arguments": string(args)},
		}}}
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": "c1", "object": "chat.completion", "created": 1, "model": copilotModel,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any, usage any) map[string]any {
		c := map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": copilotModel,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		return c
	}
	sseData(w, "", chunk(msg, nil, nil))
	sseData(w, "", chunk(map[string]any{}, finish, usage))
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// gemini is the Gemini API's generateContent, streamed as server-sent
// events (streamGenerateContent?alt=sse) or not.
func (f *fakeModel) gemini(w http.ResponseWriter, r *http.Request, body []byte) {
	var req struct {
		Tools    []json.RawMessage `json:"tools"`
		Contents []struct {
			Parts []struct {
				FunctionResponse *struct {
					Response json.RawMessage `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	json.Unmarshal(body, &req)
	var results []string
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if p.FunctionResponse != nil {
				results = append(results, functionResponseText(p.FunctionResponse.Response))
			}
		}
	}
	call := f.turn(r, len(req.Tools) > 0, results)
	part := map[string]any{"text": "done"}
	if call != nil {
		part = map[string]any{"functionCall": map[string]any{"name": call.Name, "args": call.Args}}
	}
	resp := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
		"modelVersion":  geminiModel,
	}
	if r.URL.Query().Get("alt") != "sse" {
		writeJSON(w, resp)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sseData(w, "", resp)
}

// geminiModel is the model the Gemini CLI is told to use.
const geminiModel = "gemini-2.5-flash"

// functionResponseText is the text of a Gemini functionResponse: its
// "output" or "error" (a run tool or a blocked one), else the raw JSON.
func functionResponseText(raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		var parts []string
		for _, k := range []string{"error", "output"} {
			if s, ok := m[k].(string); ok {
				parts = append(parts, s)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	}
	return string(raw)
}
