package daemon

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentjail/agentjail/daemon/policyset"
)

// One tool call can reach the hook twice, once in each of two shapes:
// Cursor runs its preToolUse hook and then its beforeShellExecution (or
// beforeMCPExecution, beforeReadFile) hook for the same shell call, and an
// agent that also runs another agent's hooks (Copilot running Claude
// Code's from .claude/settings.json, Cursor with third-party hooks on)
// sends it in both dialects. Both events are decided and answered, since
// the agent waits on each; the decision log, the tray's counts and the
// notifications hear of the call once.

// RepeatWindow is how long after a call the same call in another shape
// counts as a second event of it rather than a new call.
const RepeatWindow = 10 * time.Second

// repeatMax bounds how many recent calls are remembered; past it, the
// oldest are forgotten (a repeat of one of those is logged again, which
// is harmless).
const repeatMax = 1024

// repeats remembers the recent calls, by what they do.
type repeats struct {
	mu     sync.Mutex
	window time.Duration
	calls  map[string]*seenCall
}

// seenCall is one recent call: when it was logged, the event shapes it
// has been seen in, its verdict and the identifiers its events carried.
type seenCall struct {
	at      time.Time
	shapes  []string
	verdict string
	ids     map[string]string
}

// repeated reports whether call with verdict is a second event of a
// call logged in the last window, seen then in another shape; otherwise
// it remembers the call as a new one. A call seen again in a shape it
// was already seen in is a new call (the agent ran it again).
func (r *repeats) repeated(call *policyset.Call, verdict string, now time.Time) bool {
	key, shape := callKey(call), eventShape(call)
	if key == "" {
		return false
	}
	// What identifies a conversation or a turn: two events that both
	// carry one with different values are different calls.
	ids := map[string]string{}
	for k, v := range map[string]string{"session": call.ID.Session, "turn": call.ID.Turn} {
		if v != "" {
			ids[k] = v
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls = map[string]*seenCall{}
	}
	window := r.window
	if window == 0 {
		window = RepeatWindow
	}
	if c, ok := r.calls[key]; ok && now.Sub(c.at) < window && c.verdict == verdict && !slices.Contains(c.shapes, shape) && sameIDs(c.ids, ids) {
		c.shapes = append(c.shapes, shape)
		return true
	}
	if len(r.calls) >= repeatMax {
		r.forget(now, window)
	}
	r.calls[key] = &seenCall{at: now, shapes: []string{shape}, verdict: verdict, ids: ids}
	return false
}

// forget drops the calls older than window, and if that frees nothing,
// the oldest half: the map stays bounded whatever the rate of calls.
func (r *repeats) forget(now time.Time, window time.Duration) {
	for k, c := range r.calls {
		if now.Sub(c.at) >= window {
			delete(r.calls, k)
		}
	}
	if len(r.calls) < repeatMax {
		return
	}
	times := make([]time.Time, 0, len(r.calls))
	for _, c := range r.calls {
		times = append(times, c.at)
	}
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	cut := times[len(times)/2]
	for k, c := range r.calls {
		if !c.at.After(cut) {
			delete(r.calls, k)
		}
	}
}

// sameIDs reports that no identifier both events carry differs.
func sameIDs(a, b map[string]string) bool {
	for k, v := range a {
		if w, ok := b[k]; ok && w != v {
			return false
		}
	}
	return true
}

// callKey is what the call does, in the canonical view every agent's
// event is read into: a shell call by its command line, any other by its
// kind, paths and URLs (or, naming none, its tool and raw input). ""
// when the call has no canonical view.
func callKey(call *policyset.Call) string {
	d := call.Derived
	if d == nil {
		return ""
	}
	if d.ToolKind == "shell" && d.Command != "" {
		return "shell\x00" + d.Command
	}
	var b strings.Builder
	b.WriteString(d.ToolKind)
	for _, p := range d.Paths {
		b.WriteString("\x00paths:" + p)
	}
	for _, u := range d.URLs {
		b.WriteString("\x00urls:" + u)
	}
	if b.Len() > len(d.ToolKind) {
		return b.String()
	}
	// Nothing canonical to tell calls apart by: only the same tool with
	// the same input is the same call.
	raw, _ := json.Marshal(call.ID.Input)
	return d.ToolKind + "\x00tool:" + d.ToolName + "\x00" + string(raw)
}

// eventShape names the dialect of the event: the agent that read it and
// its event name (Cursor's preToolUse and beforeShellExecution are two
// shapes of one agent).
func eventShape(call *policyset.Call) string {
	name := ""
	if call.Derived != nil {
		name = call.Derived.Agent
	}
	return name + "/" + call.ID.Event
}
