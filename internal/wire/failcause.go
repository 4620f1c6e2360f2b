package wire

import "encoding/json"

// FailRecord is one line of the hook's failure log: a call the hook
// answered itself because the daemon could not judge it, and which call
// it was, as far as the event said (nothing of a bad event but the
// agent of the hook's flag), so that the daemon accounts for it once.
type FailRecord struct {
	Time string `json:"time"` // RFC 3339, to the millisecond in new records
	Mode string `json:"mode"` // "open", "closed" or "ask": what the hook answered
	// Cause is why the call could not be checked: one of the Cause
	// constants (CauseText names it); "" in records of older hooks.
	Cause   string `json:"cause,omitempty"`
	Error   string `json:"error"`
	Agent   string `json:"agent,omitempty"`
	Session string `json:"session,omitempty"`
	Tool    string `json:"tool,omitempty"`
	// ToolUseID is the agent's id of the call, where its event has one.
	ToolUseID string `json:"tool_use_id,omitempty"`
	Cwd       string `json:"cwd,omitempty"`
	// Input is the tool's input (the command, the file), left out when
	// over FailInputMax.
	Input json.RawMessage `json:"input,omitempty"`
}

// FailInputMax bounds the tool input a failure record keeps.
const FailInputMax = 16 << 10

// Why a call could not be checked: the cause the hook records with each
// failure (FailRecord's cause) and status names, so that a bad event from
// the agent is not blamed on the daemon, nor a removed socket on a
// daemon that is not running.
const (
	CauseBadEvent         = "bad_event"          // stdin was not one JSON object
	CauseTooLarge         = "too_large"          // the event is over the frame limit
	CauseTooDeep          = "too_deep"           // the event nests too deeply
	CauseNoDaemon         = "no_daemon"          // no daemon runs
	CauseStarting         = "daemon_starting"    // one was starting; it did not answer in time
	CauseSocketGone       = "socket_gone"        // a daemon runs but its socket file is gone
	CauseSocketFolderGone = "socket_folder_gone" // the socket's folder is gone
	CauseNotSocket        = "not_a_socket"       // another file sits where the socket belongs
	CauseNotListening     = "not_listening"      // a daemon runs but does not listen on the socket
	CauseTimeout          = "timeout"            // the daemon did not answer within the hook's deadline
	CauseUntrusted        = "untrusted_peer"     // the server or its folder is not the user's own
	CauseDaemonError      = "daemon_error"       // the daemon answered with an error or garbage
)

// causeText names each cause for people.
var causeText = map[string]string{
	CauseBadEvent:         "the agent sent an event that is not one JSON object",
	CauseTooLarge:         "the event was too large to check",
	CauseTooDeep:          "the event was nested too deeply to check",
	CauseNoDaemon:         "no daemon was running",
	CauseStarting:         "the daemon was starting and did not answer in time",
	CauseSocketGone:       "the daemon's socket had been removed",
	CauseSocketFolderGone: "the socket's folder had been removed",
	CauseNotSocket:        "another file sat where the socket belongs",
	CauseNotListening:     "the daemon ran but did not listen on its socket",
	CauseTimeout:          "the daemon did not answer in time",
	CauseUntrusted:        "the server on the socket was not the user's own",
	CauseDaemonError:      "the daemon answered with an error",
}

// CauseText names a recorded cause for people; a record without one
// (written by an older hook) is "cause not recorded".
func CauseText(cause string) string {
	if t, ok := causeText[cause]; ok {
		return t
	}
	if cause == "" {
		return "cause not recorded"
	}
	return cause
}

// DaemonCause reports whether cause is about the daemon (not running,
// unreachable, slow), as opposed to what the agent sent.
func DaemonCause(cause string) bool {
	switch cause {
	case CauseBadEvent, CauseTooLarge, CauseTooDeep:
		return false
	}
	return true
}
