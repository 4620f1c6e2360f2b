package daemon

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/jail"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/wire"
)

// Accounting: every tool call an agent made is matched with a decision.
// The daemon learns what ran from the agents' post-tool events (observe)
// and from their own records of tool calls (reconcile); a call it never
// judged is recorded as unchecked, with its likely cause.

// ledgerMax bounds the judged calls remembered; ledgerWindow is how long
// one is.
const (
	ledgerMax    = 20000
	ledgerWindow = 24 * time.Hour
)

// uncheckedGrace is how long after a call is recorded its decision may
// still come: the agent writes the call down before its hook runs.
const uncheckedGrace = 15 * time.Second

// ledger remembers the calls the daemon judged, by the agent's tool-use
// id and by session, tool and input, and the sessions it has seen.
type ledger struct {
	mu       sync.Mutex
	ids      map[string]time.Time // tool-use id -> when judged
	digests  map[string]time.Time // session|tool|input digest -> when judged
	sessions map[string]time.Time // session id -> last judged
	order    []string             // keys of ids and digests, oldest first
	reported map[string]bool      // calls reported unchecked (id or digest), so each is once
	notWired map[string]bool      // agents reported as not wired
	counts   wire.Accounting      // what status shows of it
}

// count counts one sighting of a call the agents ran, and whether it was
// found judged.
func (l *ledger) count(c ranCall, judged bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case c.Source == sourcePost:
		l.counts.PostEvents++
	case c.Subagent:
		l.counts.SubagentCalls++
		l.counts.RecordCalls++
	default:
		l.counts.RecordCalls++
	}
	if judged {
		l.counts.Judged++
	}
}

func newLedger() *ledger {
	return &ledger{ids: map[string]time.Time{}, digests: map[string]time.Time{}, sessions: map[string]time.Time{}, reported: map[string]bool{}, notWired: map[string]bool{}}
}

// judged records a call the daemon decided, as its agent names it.
func (l *ledger) judged(call agent.CallID, now time.Time) {
	session, id, tool, input := callParts(call)
	l.mu.Lock()
	defer l.mu.Unlock()
	if id != "" {
		k := idKey(session, id)
		l.ids[k] = now
		l.order = append(l.order, "i"+k)
	}
	if d := callDigest(session, tool, input); d != "" {
		l.digests[d] = now
		l.order = append(l.order, "d"+d)
	}
	if session != "" {
		l.sessions[session] = now
	}
	l.trim(now)
}

// forget undoes judged for a call whose answer never reached its hook:
// it ran unchecked, or not at all.
func (l *ledger) forget(call agent.CallID) {
	session, id, tool, input := callParts(call)
	l.mu.Lock()
	defer l.mu.Unlock()
	if id != "" {
		delete(l.ids, idKey(session, id))
	}
	if d := callDigest(session, tool, input); d != "" {
		delete(l.digests, d)
	}
}

// trim drops the oldest entries past ledgerMax or ledgerWindow.
func (l *ledger) trim(now time.Time) {
	for len(l.order) > 0 {
		k := l.order[0]
		m := l.ids
		if k[0] == 'd' {
			m = l.digests
		}
		t, ok := m[k[1:]]
		if len(l.order) <= ledgerMax && ok && now.Sub(t) < ledgerWindow {
			break
		}
		if ok && (len(l.order) > ledgerMax || now.Sub(t) >= ledgerWindow) {
			delete(m, k[1:])
		}
		l.order = l.order[1:]
	}
	if len(l.sessions) > ledgerMax {
		clear(l.sessions)
	}
	if len(l.reported) > ledgerMax {
		clear(l.reported)
	}
}

// seen reports whether a call was judged, and whether its session was.
func (l *ledger) seen(id, session, tool string, input []byte) (call, sess bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if id != "" {
		_, call = l.ids[idKey(session, id)]
	}
	if !call {
		if d := callDigest(session, tool, input); d != "" {
			_, call = l.digests[d]
		}
	}
	_, sess = l.sessions[session]
	return call, sess
}

// report marks a call reported; false if it was already.
func (l *ledger) report(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.reported[key] {
		return false
	}
	l.reported[key] = true
	return true
}

// idKey is a tool-use id within its session: ids are the model's, and
// only unique within a conversation.
func idKey(session, id string) string { return session + "\x00" + id }

// callDigest names a call by session, tool and its input; "" when there
// is nothing to name it by.
func callDigest(session, tool string, input []byte) string {
	if session == "" || tool == "" || len(input) == 0 {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s%d:%s", len(session), session, len(tool), tool)
	h.Write(canonicalJSON(input))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// canonicalJSON is b with its object members in key order and its numbers
// written one way: a record keeps the input as the model wrote it, while
// the judged side is re-encoded from the decoded event, so the same input
// must give the same bytes either way. b itself if it is not JSON.
func canonicalJSON(b []byte) []byte {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}

// callOf names the call of an event as its agent's adapter does
// (agent.Adapter's Identify). The pre-tool and the post-tool event of
// one call must come out the same.
func callOf(a agent.Adapter, ev map[string]any) (session, id, tool string, input []byte) {
	return callParts(a.Identify(ev))
}

// callParts are c's parts, its input as JSON.
func callParts(c agent.CallID) (session, id, tool string, input []byte) {
	if c.Input != nil {
		input, _ = json.Marshal(c.Input)
	}
	return c.Session, c.ID, c.Tool, input
}

// ranCall is one tool call an agent made, as its own record or its
// post-tool event says.
type ranCall struct {
	Agent, Session, ID, Tool, Cwd string
	Input                         json.RawMessage
	Time                          time.Time
	Subagent                      bool
	// Source is where the daemon learned of it: "post-tool event" or
	// "the agent's record".
	Source string
	// Done: its decision, if any, was made already (a post-tool event
	// comes after it), so it is settled at once.
	Done bool
	// Cause, when the source knows it (the hook's failure log, an answer
	// the hook did not wait for), is why it ran unchecked.
	Cause string
	// Key names a call its event gave no id or input for (a bad event):
	// it is reported once by it.
	Key string
}

// Causes of an unchecked call, worst first.
const (
	// causeProjectOff is followed by ": " and the project's file.
	causeProjectOff = "its project's settings switch the agent's hooks off"
	causeHooksOff   = "its session's hooks did not run (hooks switched off, or a nested agent started without them)"
	causeSubagent   = "a subagent's call, which the agent did not send to the hook"
	causeFailOpen   = "the hook could not reach the daemon and let it run (failed open)"
	causeNoPreHook  = "the agent ran its post-tool hook but not its pre-tool hook for this tool"
	causeNoHook     = "the hook did not run for it"
)

// causeOrder ranks causes for status: the first is the worst.
var causeOrder = []string{causeProjectOff, causeHooksOff, causeSubagent, causeFailOpen, causeNoPreHook, causeNoHook}

// causeRank is a cause's place in causeOrder (a cause may carry its
// detail after ": "), -1 for one not there.
func causeRank(cause string) int {
	return slices.IndexFunc(causeOrder, func(c string) bool { return cause == c || strings.HasPrefix(cause, c+": ") })
}

// noCheckTools need no check by design (the agent's own to-do list and
// plan): they are never unchecked.
var noCheckTools = []string{"TodoWrite", "TodoRead", "ExitPlanMode", "update_plan", "todowrite", "todoread", "write_todos"}

// account settles calls that ran: each one never judged, and past its
// grace, is recorded unchecked once. Calls still within their grace are
// returned to be looked at again.
func (d *Daemon) account(calls []ranCall, now time.Time) (later []ranCall) {
	for _, c := range calls {
		if slices.Contains(noCheckTools, c.Tool) {
			continue
		}
		if c.Source == sourceRecord && !d.wired(c.Agent) {
			// Not wired at all: said once, as the agent, not per call.
			if d.ledger.report("not wired|" + c.Agent) {
				d.log.Warn("an agent that is not wired made calls", "agent", c.Agent, "fix", "agentjail install --for "+c.Agent)
				d.ledger.mu.Lock()
				d.ledger.notWired[c.Agent] = true
				d.ledger.mu.Unlock()
			}
			continue
		}
		call, sess := d.ledger.seen(c.ID, c.Session, c.Tool, c.Input)
		if call {
			d.ledger.count(c, true)
			continue
		}
		if !c.Done && !c.Time.IsZero() && now.Sub(c.Time) < uncheckedGrace {
			later = append(later, c)
			continue
		}
		d.ledger.count(c, false)
		key := c.Key
		if key != "" {
		} else if c.ID != "" {
			key = idKey(c.Session, c.ID)
		} else {
			key = callDigest(c.Session, c.Tool, c.Input)
		}
		if key == "" || !d.ledger.report(c.Agent+"|"+key) {
			continue
		}
		d.recordUnchecked(c, d.causeOf(c, sess))
	}
	return later
}

// wired reports whether agent has agentjail's hook (assumed so when the
// daemon cannot tell), asking the installer at most every wiredCheck.
func (d *Daemon) wired(agent string) bool {
	if d.opts.AgentWired == nil {
		return true
	}
	d.wiredMu.Lock()
	defer d.wiredMu.Unlock()
	if w, ok := d.wiredSeen[agent]; ok && time.Since(w.at) < wiredCheck {
		return w.wired
	}
	if d.wiredSeen == nil {
		d.wiredSeen = map[string]wiredAt{}
	}
	w := d.opts.AgentWired(agent)
	d.wiredSeen[agent] = wiredAt{w, time.Now()}
	return w
}

// wiredCheck is how long an agent's wiring is taken as known.
const wiredCheck = 30 * time.Second

type wiredAt struct {
	wired bool
	at    time.Time
}

// notWiredProblems report each agent that made calls without being
// wired, once.
func (d *Daemon) notWiredProblems() []wire.Problem {
	d.ledger.mu.Lock()
	defer d.ledger.mu.Unlock()
	var out []wire.Problem
	for a := range d.ledger.notWired {
		if d.wired(a) {
			continue
		}
		out = append(out, wire.Problem{Kind: "agent_not_wired", Message: a + " made tool calls that agentjail never checked: it is not wired", Fix: "agentjail install --for " + a})
	}
	slices.SortFunc(out, func(a, b wire.Problem) int { return strings.Compare(a.Message, b.Message) })
	return out
}

// causeOf tells the likely cause of c going unchecked.
func (d *Daemon) causeOf(c ranCall, sessionJudged bool) string {
	switch {
	case c.Cause != "":
		return c.Cause
	case d.failedOpenNear(c.Time):
		return causeFailOpen
	case c.Subagent:
		return causeSubagent
	case c.Source == sourcePost:
		return causeNoPreHook
	case !sessionJudged:
		if d.opts.ProjectOff != nil {
			if files := d.opts.ProjectOff(c.Agent, c.Cwd); len(files) > 0 {
				return causeProjectOff + ": " + files[0]
			}
		}
		return causeHooksOff
	}
	return causeNoHook
}

const (
	sourcePost    = "post-tool event"
	sourceRecord  = "the agent's record"
	sourceFailLog = "the hook's failure log"
	sourceLate    = "the daemon's answer, which the hook did not wait for"
)

// recordUnchecked writes an unchecked call to the decision log.
func (d *Daemon) recordUnchecked(c ranCall, cause string) {
	var in map[string]any
	json.Unmarshal(c.Input, &in)
	rec := decisionlog.Record{
		Time: time.Now().UTC(), ID: newID(), SessionID: c.Session, Agent: c.Agent, Cwd: c.Cwd, Tool: c.Tool,
		Summary: summary(&policyset.Call{ID: agent.CallID{Tool: c.Tool, Input: in}}), Verdict: decisionlog.VerdictUnchecked,
		Unchecked: &decisionlog.Unchecked{Cause: cause, Source: c.Source, ToolUseID: c.ID, Subagent: c.Subagent},
	}
	if rec.Summary == c.Tool {
		rec.Summary = summaryOfInput(in)
	}
	if !c.Time.IsZero() {
		rec.Time = c.Time.UTC()
	}
	d.decisions.Append(rec)
	d.log.Warn("a tool call ran unchecked", "agent", c.Agent, "session", c.Session, "tool", c.Tool, "cause", cause)
	// A fail-open is notified by the failure log's own watcher, once a
	// run (failrun.go): not again, call by call, here.
	if d.opts.OnDecision != nil && c.Source != sourceFailLog && c.Source != sourceLate {
		d.opts.OnDecision(rec)
	}
}

// summaryOfInput is a one-line view of an input no summary rule knows:
// the first string field that looks like a command or a path. A list of
// command lines (Cline's commands) reads as one script.
func summaryOfInput(in map[string]any) string {
	for _, k := range []string{"cmd", "command", "commands", "file_path", "path", "url"} {
		switch v := in[k].(type) {
		case string:
			return clip(v)
		case []any:
			var parts []string
			for _, p := range v {
				if s, ok := p.(string); ok {
					parts = append(parts, s)
				}
			}
			if k == "commands" {
				return clip(strings.Join(parts, "; "))
			}
			return clip(fmt.Sprint(parts))
		}
	}
	return ""
}

// observe settles an agent's post-tool event: the call ran.
func (d *Daemon) observe(req *wire.Request) {
	ev := agent.Decode(req.Event)
	if ev == nil {
		return
	}
	a := agents.For(ev, req.Agent)
	session, id, tool, input := callOf(a, ev)
	c := ranCall{Agent: a.Name(), Session: session, ID: id, Tool: tool, Input: unjailed(input), Source: sourcePost, Time: time.Now(), Done: true}
	c.Cwd, _ = ev["cwd"].(string)
	if c.Cwd == "" {
		c.Cwd = a.Canonical(ev).Dir // an event that names no cwd
	}
	d.account([]ranCall{c}, time.Now())
}

// failedOpenNear reports whether the hook failed open within a few
// seconds of t (its failure log).
func (d *Daemon) failedOpenNear(t time.Time) bool {
	if t.IsZero() {
		return false
	}
	f, err := os.Open(filepath.Join(d.opts.Home, paths.FailLogName))
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > 64<<10 {
		f.Seek(-64<<10, io.SeekEnd)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r struct {
			Time, Mode string
		}
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Mode != "open" {
			continue
		}
		if at, err := time.Parse(time.RFC3339, r.Time); err == nil && at.Sub(t).Abs() <= 5*time.Second {
			return true
		}
	}
	return false
}

// uncheckedWindow is how far back status counts unchecked calls.
const uncheckedWindow = 24 * time.Hour

// uncheckedProblem says how many calls ran unchecked in the last
// uncheckedWindow, the worst cause first; nil when none did.
func (d *Daemon) uncheckedProblem(now time.Time) *wire.Problem {
	since := now.Add(-uncheckedWindow)
	recs := d.decisions.Latest(1000, func(r decisionlog.Record) bool {
		return r.Verdict == decisionlog.VerdictUnchecked && r.Time.After(since)
	})
	if len(recs) == 0 {
		return nil
	}
	worst := len(causeOrder)
	cause := ""
	for _, r := range recs {
		if r.Unchecked == nil {
			continue
		}
		if i := causeRank(r.Unchecked.Cause); i >= 0 && i < worst {
			worst, cause = i, r.Unchecked.Cause
		}
	}
	return &wire.Problem{
		Kind:    "unchecked",
		Message: fmt.Sprintf("%s ran unchecked in the last 24 h; the worst cause: %s", plural.Of(len(recs), "call"), cause),
		Fix:     "`agentjail logs --unchecked` lists them and `agentjail audit` counts them per session; re-run `agentjail install` for an agent not wired, and keep its hooks on",
	}
}

// fillAccounting puts the accounting's counts in st.
func (d *Daemon) fillAccounting(st *wire.Status) {
	d.ledger.mu.Lock()
	defer d.ledger.mu.Unlock()
	if d.readsRecords() || d.ledger.counts != (wire.Accounting{}) {
		c := d.ledger.counts
		st.Accounting = &c
	}
}

// unjailed is a tool input as the call was judged: an agent whose
// post-tool event carries the command rewritten to run in the jail
// (Copilot CLI's does; Cline's a list of them) names the call by its
// original.
func unjailed(input []byte) []byte {
	if !bytes.Contains(input, []byte(jail.LaunchArg)) {
		return input
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	if dec.Decode(&m) != nil {
		return input
	}
	changed := false
	original := func(v any) any {
		if s, ok := v.(string); ok {
			if orig, ok := jail.Original(s); ok {
				changed = true
				return orig
			}
		}
		return v
	}
	for k, v := range m {
		if list, ok := v.([]any); ok {
			for i, e := range list {
				list[i] = original(e)
			}
			continue
		}
		m[k] = original(v)
	}
	if !changed {
		return input
	}
	out, err := json.Marshal(m)
	if err != nil {
		return input
	}
	return out
}
