// Package wire is the protocol between agentjail-hook and the agentjail
// daemon: request and response types, their framing on the Unix socket,
// a small client, and why a call could not be checked. It imports only
// the standard library (and packages that do: paths, jsonscan and
// unixsock) because the hook links it and must stay tiny and fast to
// start.
package wire

import (
	"encoding/json"
	"fmt"
	"time"
)

// MaxFrame is the largest request or response body either side accepts.
// An event larger than this is not evaluated: the client refuses it with
// CodeTooLarge before dialing and the daemon refuses it from the header.
const MaxFrame = 1 << 20

// Ops a request can name.
const (
	OpDecide = "decide" // evaluate one hook event
	OpStatus = "status" // report health, policy sources and counters
	OpReload = "reload" // reload policies and config from disk now
	OpRecent = "recent" // the caller's latest decisions (Request.Recent)
	// OpObserve reports a tool call that ran (an agent's post-tool
	// event): the daemon checks it was judged and records it if not. It
	// answers with an empty Response; nothing the agent did changes.
	OpObserve = "observe"
)

// Request is one call from a client to the daemon. A connection carries
// exactly one request and its response.
type Request struct {
	Op string `json:"op"`
	// Event is the agent's hook event exactly as read from its stdin.
	Event json.RawMessage `json:"event,omitempty"`
	// Cwd is the client's working directory, used when the event has no
	// absolute cwd of its own.
	Cwd string `json:"cwd,omitempty"`
	// Agent names the agent that sent the event, e.g. "claude-code".
	Agent string `json:"agent,omitempty"`
	// Explain asks the daemon to return the policy input it built.
	Explain bool `json:"explain,omitempty"`
	// Source says who asks: "" for an agent's hook, SourceTry for
	// `agentjail try`. A try decision is logged with its source and never
	// counted, notified or listed among recent blocks: testing a policy
	// must not look like an agent's activity.
	Source string `json:"source,omitempty"`
	// HookTimeoutMillis is the deadline the hook runs with (its --timeout
	// flag, which install wrote into the agent's settings). The daemon
	// answers within the smaller of it and config.yaml's hook_timeout, so
	// a hook installed with a shorter deadline still hears in time.
	HookTimeoutMillis int64 `json:"hook_timeout_ms,omitempty"`
	// HookFailClosed says the hook runs with --fail-closed, so status can
	// say when the installed hook and config.yaml's fail_mode disagree.
	HookFailClosed bool `json:"hook_fail_closed,omitempty"`
	// HookStartMillis is when the hook started (Unix milliseconds): its
	// deadline runs from then, not from when the daemon gets to the
	// request, so time spent waiting for the daemon to accept or read it
	// (a daemon kept busy) is counted, and a request whose hook has given
	// up is not worked on.
	HookStartMillis int64 `json:"hook_start_ms,omitempty"`
	// Recent says which decisions an OpRecent request wants.
	Recent *RecentQuery `json:"recent,omitempty"`
	// HoldMillis is how long the hook may hold a call the policies want
	// a person to approve (its --hold flag, which install wrote with the
	// agent's own hook timeout above it); 0: it may not (see Held).
	HoldMillis int64 `json:"hold_ms,omitempty"`
	// ShowCodes asks OpPending for the one-time codes: `agentjail
	// pending` in a terminal.
	ShowCodes bool `json:"show_codes,omitempty"`
	// Answer is OpAnswer's, Revoke OpRevoke's.
	Answer *ApprovalAnswer `json:"answer,omitempty"`
	Revoke *Revoke         `json:"revoke,omitempty"`
	// CallerUID is the uid of the process that sent the request, read
	// by the daemon from the socket's peer credentials, never from the
	// request; nil until then.
	CallerUID *int `json:"-"`
}

// SourceTry marks a request made by `agentjail try`.
const SourceTry = "try"

// Response answers one Request. Exactly one of Error, Decision, Status
// or Recent is set (Reload answers with Status).
type Response struct {
	Error    *Error    `json:"error,omitempty"`
	Decision *Decision `json:"decision,omitempty"`
	Status   *Status   `json:"status,omitempty"`
	Recent   *Recent   `json:"recent,omitempty"`
	// Held is the first frame of a held call (see Held); Approvals
	// answers the approval ops.
	Held      *Held      `json:"held,omitempty"`
	Approvals *Approvals `json:"approvals,omitempty"`
}

// RecentQuery asks for the latest decisions the daemon keeps in memory
// (the newest MaxRecent of every caller, the tail of its decision log
// read at start included). The system daemon answers a caller with its
// own decisions only, unless the caller is root; a user's daemon
// answers its user with all of them.
type RecentQuery struct {
	// Limit is how many of the newest matching decisions; 0 or more
	// than MaxRecent means MaxRecent.
	Limit int `json:"limit,omitempty"`
	// Verdict, when set, keeps only that verdict.
	Verdict Verdict `json:"verdict,omitempty"`
	// After, when set (RFC 3339, nanoseconds kept), keeps only the
	// decisions made after it: a client following the log passes the
	// time of the last decision it has.
	After string `json:"after,omitempty"`
	// Source is "" for the agents' calls, SourceTry for those of
	// `agentjail try` alone, or RecentAllSources for both.
	Source string `json:"source,omitempty"`
}

// RecentAllSources is RecentQuery.Source for every decision.
const RecentAllSources = "all"

// MaxRecent is the most decisions one OpRecent answer holds, and how
// many the daemon keeps in memory to answer from.
const MaxRecent = 1000

// Recent answers an OpRecent request.
type Recent struct {
	// Records are the matching decisions, oldest first, each exactly as
	// the decision log writes it (internal/decisionlog.Record): one
	// schema, not a copy of it here.
	Records []json.RawMessage `json:"records"`
	// Omitted counts the matching decisions left out, oldest first, so
	// the answer fits in a frame (MaxFrame).
	Omitted int `json:"omitted,omitempty"`
}

// Verdict is what agentjail says about a tool call.
type Verdict string

const (
	Allow Verdict = "allow"
	Ask   Verdict = "ask"
	Deny  Verdict = "deny"
)

// Decision is the daemon's answer to one event.
type Decision struct {
	Verdict Verdict `json:"verdict"`
	// Explicit is true when an allow came from a policy allow rule rather
	// than from no rule firing. Only an explicit allow is passed on to the
	// agent, because it skips the agent's own permission checks.
	Explicit bool `json:"explicit,omitempty"`
	// Reason is the text shown to the agent: every message of the winning
	// kind, in a stable order, joined by "; ".
	Reason string `json:"reason,omitempty"`
	// Rules lists every message that fired, of every kind.
	Rules []Rule `json:"rules,omitempty"`
	// EvalMicros is the time spent building the input and evaluating it.
	EvalMicros int64 `json:"eval_us"`
	// Revision identifies the policy set that decided.
	Revision string `json:"revision,omitempty"`
	// Input is the policy input, returned only when Request.Explain is set.
	Input json.RawMessage `json:"input,omitempty"`
	// Omitted counts the rule messages left out of Rules so the answer
	// fits in a frame; Reason then ends with "and N more".
	Omitted int `json:"omitted,omitempty"`
	// Jail is the file of the confinement profile a shell call that is
	// not denied runs under (see package jail); "" runs it unconfined.
	Jail string `json:"jail,omitempty"`
}

// Rule is one message a policy added to deny, ask or allow.
type Rule struct {
	Kind Verdict `json:"kind"`
	ID   string  `json:"id,omitempty"`
	Msg  string  `json:"msg"`
	// Org is set for a rule of an org bundle (package agentjail.org):
	// locked, whatever its id.
	Org bool `json:"org,omitempty"`
	// User is set for a rule of the calling user's own policies in system
	// mode, which may only tighten: it is a deny or an ask, never locked.
	User bool `json:"user,omitempty"`
}

// Error codes a daemon can answer with.
const (
	CodeBadRequest = "bad_request" // not a frame, not JSON, or not a JSON object
	CodeTooLarge   = "too_large"   // the frame is over MaxFrame
	CodeTimeout    = "timeout"     // the request did not arrive in time
	CodeUnknownOp  = "unknown_op"  // Request.Op is not one this daemon knows
	CodeInternal   = "internal"    // the daemon failed; the message says how
	CodeBusy       = "busy"        // a try, status, reload or recent found no capacity left beside the agents' calls
)

// Error is a typed failure. The client also returns it for failures it
// detects itself (CodeTooLarge) so callers can branch on Code.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Status describes a running daemon.
type Status struct {
	PID       int    `json:"pid"`
	Version   string `json:"version"`
	StartedAt string `json:"started_at"` // RFC 3339
	Socket    string `json:"socket"`
	Home      string `json:"home"`
	Mode      string `json:"mode"` // how it runs, e.g. "headless"
	// Confinement says what the shell calls the policies let run are
	// confined by: "landlock ABI 7", "seatbelt", or "off: " and why.
	Confinement string `json:"confinement,omitempty"`
	// Answers says where a person's answers to held calls are taken
	// from and why not elsewhere: the desktop (menu bar, notification
	// buttons) only where confined calls cannot reach the session bus.
	Answers string `json:"answers,omitempty"`
	// Headless says the daemon has no desktop session: no menu bar or
	// notification shows a held call, only a terminal does.
	Headless bool `json:"headless,omitempty"`
	// Tray says whether the daemon's tray (menu bar) is shown and if not,
	// why: "shown by <the program showing it>", "no tray host on the
	// session bus (…)", "running" (macOS, where the menu bar always
	// shows it), "no desktop session", "headless by flag", or "not in
	// this build (…how to get one)". Empty from a daemon that predates
	// the field. TrayShown is true when a tray host shows the icon, false
	// when the daemon knows nothing does, and absent when it cannot tell.
	Tray      string `json:"tray,omitempty"`
	TrayShown *bool  `json:"tray_shown,omitempty"`
	// Notify is the fate of the last desktop notification; nil when the
	// daemon sends none (no desktop session, --headless).
	Notify     *NotifyStatus `json:"notify,omitempty"`
	Revision   string        `json:"revision"`
	Rules      int           `json:"rules"`     // deny, ask and allow rules in force
	LoadedAt   string        `json:"loaded_at"` // RFC 3339, last successful load
	Sources    []Source      `json:"sources"`
	LoadErrors []LoadErr     `json:"load_errors,omitempty"` // from the last load attempt
	// ConfigError is set when config.yaml could not be used; what is in
	// force instead (the last good configuration, or the defaults) is
	// ConfigInForce.
	ConfigError string `json:"config_error,omitempty"`
	// ConfigLastGood, set only with ConfigError, is when the
	// configuration in force last loaded cleanly (RFC 3339); empty with
	// ConfigError: none ever did, and the defaults are in force.
	ConfigLastGood string `json:"config_last_good,omitempty"`
	// ConfigInForce says in a sentence what is in force while config.yaml
	// has an error (see config.DescribeFallback); empty when it has none.
	ConfigInForce string `json:"config_in_force,omitempty"`
	// LastGoodError says why the last good configuration could not be
	// kept (or, at start, used).
	LastGoodError string `json:"last_good_error,omitempty"`
	// Decisions counts the decisions served since DecisionsSince (RFC
	// 3339): the daemon's start, so a restart (install does one) resets
	// them; the decision log keeps every decision.
	Decisions      map[Verdict]int64 `json:"decisions"`
	DecisionsSince string            `json:"decisions_since"`
	EvalErrors     int64             `json:"eval_errors"`
	LastEvalErr    string            `json:"last_eval_error,omitempty"`
	// LogErrors counts decisions the decision log could not record (disk
	// full, unwritable file, failed rotation); LastLogError says why.
	// Any makes the daemon degraded: decisions are being lost.
	LogErrors    int64  `json:"log_errors"`
	LastLogError string `json:"last_log_error,omitempty"`
	// FailMode and HookTimeout are config.yaml's, as the daemon loaded
	// them; Hook is what the installed hook runs with, when known.
	FailMode    string     `json:"fail_mode,omitempty"`
	HookTimeout string     `json:"hook_timeout,omitempty"`
	Hook        *HookFlags `json:"hook,omitempty"`
	// The rest of config.yaml in force, so status can show what guards:
	// the rules switched off, the paths protected or allowed, and every
	// user policy folder read ($AGENTJAIL_HOME/policies first).
	DisabledRules  []string `json:"disabled_rules,omitempty"`
	ProtectedPaths []string `json:"protected_paths,omitempty"`
	AllowedPaths   []string `json:"allowed_paths,omitempty"`
	PolicyDirs     []string `json:"policy_dirs,omitempty"`
	Notifications  *bool    `json:"notifications,omitempty"`
	// Problems are what makes the daemon degraded now, each with how to
	// fix or clear it. None means healthy. Errors that are over (an
	// evaluation error, a lost decision, a fail-open) count for an hour.
	Problems []Problem `json:"problems,omitempty"`
	// FailOpenRun is the last run of fail-opens (FailOpenRunCount or
	// more within FailOpenRunWindow), while within ProblemWindow: calls
	// that ran unchecked one after another, as an agent loading the
	// daemon would make them. A desktop notification said so at once.
	FailOpenRun *FailOpenRun `json:"fail_open_run,omitempty"`
	// Org is the org policy (config.yaml's opa: section): nil when no
	// fleet is configured.
	Org *OrgStatus `json:"org,omitempty"`
	// Accounting says what the daemon learnt of the calls the agents
	// ran, since it started: nil when it reads no records.
	Accounting *Accounting `json:"accounting,omitempty"`
}

// Accounting counts, since the daemon started, what it read of the calls
// the agents say they ran (their records and post-tool events) and how
// many of those it had judged.
type Accounting struct {
	RecordFiles   int   `json:"record_files"`   // the agents' record files followed
	RecordCalls   int64 `json:"record_calls"`   // tool calls read from them
	SubagentCalls int64 `json:"subagent_calls"` // of those, subagents' calls
	PostEvents    int64 `json:"post_events"`    // post-tool events heard
	Judged        int64 `json:"judged"`         // sightings of either found judged
}

// OrgStatus is the state of the org policy that OPA's bundle plugin
// downloads: proof, for an auditor, of what this machine enforces.
type OrgStatus struct {
	// InForce is true when an org bundle's rules take part in every
	// verdict; false means the org policy is not enforced here (yet).
	InForce bool        `json:"in_force"`
	Bundles []OrgBundle `json:"bundles,omitempty"`
	// PersistDir holds the persisted bundles (protected like policies).
	PersistDir string `json:"persist_dir,omitempty"`
	// DecisionLogs is true when decisions go to a collector.
	DecisionLogs bool `json:"decision_logs"`
	// Error is set when the opa: section could not be started.
	Error string `json:"error,omitempty"`
}

// OrgBundle is one configured bundle.
type OrgBundle struct {
	Name     string `json:"name"`
	InForce  bool   `json:"in_force"`
	Revision string `json:"revision,omitempty"` // the revision in force
	// Verification says how its signature is checked; Verified is true
	// when a signature is required (so what is in force was verified).
	Verification   string `json:"verification"`
	Verified       bool   `json:"verified"`
	Persist        bool   `json:"persist"`
	LastDownload   string `json:"last_download,omitempty"`   // RFC 3339, last successful download
	LastActivation string `json:"last_activation,omitempty"` // RFC 3339, last bundle put in force
	LastError      string `json:"last_error,omitempty"`      // the last download or activation error
}

// NotifyStatus is the fate of the last desktop notification (of a deny,
// or a reason the tray was asked to show).
type NotifyStatus struct {
	// State is "none yet", "delivered" or "failed".
	State string `json:"state"`
	At    string `json:"at,omitempty"`    // RFC 3339, when the last one was sent
	Title string `json:"title,omitempty"` // the last one's title
	Error string `json:"error,omitempty"` // why the last one failed
}

// Notification states.
const (
	NotifyNone      = "none yet"
	NotifyDelivered = "delivered"
	NotifyFailed    = "failed"
)

// HookFlags are the flags the installed hook runs with.
type HookFlags struct {
	Timeout    string `json:"timeout"`
	FailClosed bool   `json:"fail_closed"`
	// From says how the daemon knows: "hook call" (the hook said so with
	// its last request) or the settings file it read them from.
	From string `json:"from"`
}

// Problem is one cause of a degraded daemon.
type Problem struct {
	Kind    string `json:"kind"` // policy, config, eval, decision_log, fail_open, hook_timeout, fail_mode, notifications
	Message string `json:"message"`
	Fix     string `json:"fix"` // what to run or change to fix or clear it
}

// FailOpenRun is a run of calls the hook let run unchecked within
// FailOpenRunWindow of each other (see Status.FailOpenRun).
type FailOpenRun struct {
	Count  int      `json:"count"`  // fail-opens within the window
	First  string   `json:"first"`  // RFC 3339
	Last   string   `json:"last"`   // RFC 3339
	Causes []string `json:"causes"` // their causes, once each, in order
	// Notified is when the desktop notification was asked for (RFC 3339),
	// "" when nothing shows notifications.
	Notified string `json:"notified,omitempty"`
}

// FailOpenRunCount fail-opens within FailOpenRunWindow make a run.
const (
	FailOpenRunCount  = 3
	FailOpenRunWindow = time.Minute
)

// ProblemWindow is how long an error that is over still degrades health.
const ProblemWindow = time.Hour

// Source is one policy file in force.
type Source struct {
	Name        string `json:"name"`         // "default/ssh.rego" or a path
	RegoVersion string `json:"rego_version"` // "v0" or "v1"
}

// LoadErr is one problem found while loading policies.
type LoadErr struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

func (e LoadErr) String() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Message)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message)
	case e.File != "":
		return fmt.Sprintf("%s: %s", e.File, e.Message)
	}
	return e.Message
}
