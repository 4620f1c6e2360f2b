// Package agent holds one adapter per agent agentjail guards (Claude Code,
// Codex, Gemini CLI, Copilot CLI, Cursor): each recognises its agent's
// hook event, turns it into the canonical view the policies read under
// input.agentjail, and turns a verdict into that agent's answer (stdout,
// stderr, exit code). The hook links this package, so it imports only the
// standard library, internal/wire and internal/jsonscan.
//
// Adding an agent is one new file here with a type that implements
// Adapter, one entry in adapters, and its installer part.
package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentjail/agentjail/internal/wire"
)

// Tool kinds: what a call does, whatever the agent calls the tool
// (input.agentjail.tool).
const (
	KindShell  = "shell"
	KindRead   = "read"
	KindWrite  = "write"
	KindEdit   = "edit"
	KindSearch = "search"
	KindList   = "list"
	KindFetch  = "fetch"
	KindMCP    = "mcp"
	KindAgent  = "agent"
	// KindAsk only talks to the person: asks a question, presents a plan
	// for approval, reports that the work is done, notifies.
	KindAsk = "ask"
	// KindTodo keeps the agent's own plan or to-do list.
	KindTodo = "todo"
	// KindMemory saves a note to the agent's own memory (its working
	// files, Facts.WorkingFiles).
	KindMemory = "memory"
	// KindControl steers the agent's own session: reads or stops one of
	// its background shells, loads a skill's instructions, switches
	// mode, searches its own tool list.
	KindControl = "control"
	KindOther   = "other"
)

// Adapter is one agent's part.
type Adapter interface {
	// Name is the agent's name in flags, logs and policies ("codex").
	Name() string
	// Recognise reports an event whose shape is unmistakably this
	// agent's, so that no --agent flag is needed to read it. It and
	// Render read only the event's top level (see DecodeTop).
	Recognise(event map[string]any) bool
	// Canonical is the agent-independent view of the call.
	Canonical(event map[string]any) Call
	// Render is the agent's answer to a verdict on event.
	Render(event map[string]any, d *wire.Decision) Answer
	// Identify names the call of event (see CallID), most agents' by
	// their events' top-level keys (TopLevelCall). The accounting matches
	// a call that ran with its decision by it, so it must say the same of
	// the agent's pre-tool event and of its post-tool event for one call.
	Identify(event map[string]any) CallID
}

// Prompter is an adapter whose agent shows the person its own prompt
// for an ask from a hook, for this event. An agent whose adapter is not
// one cannot: agentjail asks the person itself (see Render's ask).
type Prompter interface {
	Prompts(event map[string]any) bool
}

// Answer is what the hook prints and how it exits.
type Answer struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// Exit codes the agents understand.
const (
	ExitOK    = 0
	ExitBlock = 2
)

// Decode reads an event as the adapters see it; nil if it is not a JSON
// object.
func Decode(event []byte) map[string]any {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(event))
	dec.UseNumber()
	if dec.Decode(&m) != nil {
		return nil
	}
	return m
}

// DecodeTop reads an event's top level, which is all that Recognise and
// Render look at: string members as strings, every other member as its
// raw JSON (a json.RawMessage); nil if it is not a JSON object. The hook
// reads events this way, without decoding what only the daemon reads
// (Canonical needs Decode).
func DecodeTop(event []byte) map[string]any {
	var raw map[string]json.RawMessage
	if json.Unmarshal(event, &raw) != nil || raw == nil {
		return nil
	}
	m := make(map[string]any, len(raw))
	for k, v := range raw {
		var s string
		if len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil {
			m[k] = s
		} else {
			m[k] = v
		}
	}
	return m
}

// Call is the canonical view of one tool call.
type Call struct {
	// Tool is the tool as the agent names it.
	Tool string
	// Kind is one of the Kind constants; "" leaves it to the daemon's
	// own reading of Like (an MCP tool that runs commands is a shell).
	Kind string
	// Like is the Claude Code tool of the same meaning, and LikeInput its
	// input in Claude Code's field names (file_path, command, content,
	// old_string ...), so that one derivation of paths, writes and
	// settings edits covers every agent. Fields Claude Code has no name
	// for are kept as the agent sent them.
	Like      string
	LikeInput any
	// Patch is an apply_patch text's files (Codex), when the call has one.
	Patch *Patch
	// Dir is the folder the call runs in when the tool names one of its
	// own (Gemini's run_shell_command dir_path), perhaps relative to the
	// event's cwd; "" means the event's cwd. A command is judged where it
	// runs: `rm -rf build` in / is not `rm -rf build` in a project.
	Dir string
	// NamesOnly says a content search shows the names of the files that
	// match, not their lines (Claude Code's Grep without output_mode
	// "content"): it reads no file's contents out to the agent.
	NamesOnly bool
}

// Input returns LikeInput as an object, or nil.
func (c Call) Input() map[string]any {
	m, _ := c.LikeInput.(map[string]any)
	return m
}

// str is a string field of m, or "".
func Str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// ObjectOrJSON is v as an object: as it is, or decoded when an agent
// sends it as a JSON string (Copilot's toolArgs, Cursor's MCP input) or
// DecodeTop kept it as JSON. ok is false when it is neither.
func ObjectOrJSON(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case string:
		m := Decode([]byte(x))
		return m, m != nil
	case json.RawMessage:
		m := Decode(x)
		return m, m != nil
	}
	return nil, false
}

// rename copies m with the keys renamed as in names (from -> to), the
// first present source winning for each target; other keys are kept.
func Rename(m map[string]any, names [][2]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	for _, n := range names {
		from, to := n[0], n[1]
		if v, ok := m[from]; ok {
			if _, taken := m[to]; !taken || from == to {
				out[to] = v
			}
		}
	}
	return out
}

// humanMustApprove turns an ask into a deny for an agent that cannot ask
// from a hook: the reason says a person has to approve, and how.
func HumanMustApprove(agentName, reason string) string {
	if reason == "" {
		reason = "agentjail's policies want a person to approve this call"
	}
	return fmt.Sprintf("%s. A human must approve this call, and %s cannot ask from a hook: ask the user to run it themselves in a terminal, or to allow it in agentjail's policies (`agentjail try` shows which rule fired).", strings.TrimRight(reason, ". "), agentName)
}

// denyReason is the reason of a deny, never empty: some agents run the
// tool when a deny comes without one.
func DenyReason(d *wire.Decision) string {
	if strings.TrimSpace(d.Reason) != "" {
		return d.Reason
	}
	return "Blocked by agentjail's policies."
}

// unknownVerdict is the reason for a verdict this hook does not know:
// never let it pass as allow.
func UnknownVerdict(d *wire.Decision) string {
	return fmt.Sprintf("agentjail: the daemon answered an unknown verdict %q; upgrade agentjail-hook to match the daemon", d.Verdict)
}

// encodeJSON writes v as one line, with <, > and & kept literal: reasons
// are read by people and models.
func EncodeJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return buf.Bytes()
}

// mcpKind: an MCP tool, left to the daemon to tell whether it runs
// commands.
func MCPCall(tool, like string, input any) Call {
	return Call{Tool: tool, Kind: "", Like: like, LikeInput: input}
}

// Exampler is an adapter whose agent sends another shape than Claude
// Code's: `agentjail try --agent NAME` builds the event it would send for
// a call Claude Code names tool with input (in Claude Code's field names)
// in the folder cwd.
type Exampler interface {
	Example(tool string, input map[string]any, cwd string) map[string]any
}

// CopyRenamed is a copy of m with keys renamed from -> to where present.
func CopyRenamed(m map[string]any, names map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if to, ok := names[k]; ok {
			k = to
		}
		out[k] = v
	}
	return out
}

// Notifier is an adapter whose agent shows a hook's message to the user
// on a call the hook lets run, in a channel of its own (the systemMessage
// of Claude Code, Gemini CLI and Codex): the hook's stderr on exit 0 is
// not shown.
type Notifier interface {
	// Notice is the answer that lets the call go on as if the hook had
	// said nothing, and shows msg to the user.
	Notice(event map[string]any, msg string) Answer
}

// Notice is a's answer that lets a call go on and tells the user msg: in
// its agent's own channel where it has one, and on stderr always (the
// agent's log, a terminal running the hook by hand).
func Notice(a Adapter, event map[string]any, msg string) Answer {
	if n, ok := a.(Notifier); ok {
		return n.Notice(event, msg)
	}
	return Answer{Stderr: msg + "\n", Exit: ExitOK}
}

// SystemMessage is the output of Claude Code's, Gemini CLI's and Codex's
// hooks that shows a message to the user and decides nothing.
type SystemMessage struct {
	SystemMessage string `json:"systemMessage"`
}

// CallID names one tool call: the session (or conversation) it is of,
// the agent's id of it, unique within that session, and its tool and
// input as the agent sent them; with the name of the hook event that
// carried it and the agent's transcript of the session, where the event
// gives them. Empty fields are unknown.
type CallID struct {
	Session, ID, Tool string
	Input             any
	Event, Transcript string
	// Turn is the agent's id of the turn the call is of (Cursor's
	// generation_id), where its events give one.
	Turn string
}

// TopLevelCall names the call of an event by the top-level keys most
// agents use: session_id (sessionId, Cursor's conversation_id, opencode's
// sessionID), tool_use_id (and its spellings, opencode's callID),
// tool_name (toolName, tool), tool_input (toolArgs, tool_args, args,
// input), hook_event_name, transcript_path and generation_id.
func TopLevelCall(event map[string]any) CallID {
	c := CallID{
		Session:    first(event, "session_id", "sessionId", "conversation_id", "sessionID"),
		ID:         first(event, "tool_use_id", "toolUseId", "tool_call_id", "call_id", "toolCallId", "callID"),
		Tool:       first(event, "tool_name", "toolName", "tool"),
		Event:      Str(event, "hook_event_name"),
		Transcript: Str(event, "transcript_path"),
		Turn:       Str(event, "generation_id"),
	}
	for _, k := range []string{"tool_input", "toolArgs", "tool_args", "args", "input"} {
		if v, ok := event[k]; ok {
			c.Input = v
			break
		}
	}
	return c
}

// first is the first of keys that holds a non-empty string in event.
func first(event map[string]any, keys ...string) string {
	for _, k := range keys {
		if s := Str(event, k); s != "" {
			return s
		}
	}
	return ""
}
