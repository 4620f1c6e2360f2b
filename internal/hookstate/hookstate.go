// Package hookstate is the file through which the daemon tells the hook
// what to do when no daemon answers (paths.HookState). It imports only
// the standard library and privatefile: the hook links it.
package hookstate

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentjail/agentjail/internal/privatefile"
)

// State is what the daemon keeps current in paths.HookState for the
// hook's failure path: config.yaml's fail_mode and hook_timeout as last
// loaded. The hook reads it only when no daemon answers, so the checked
// path reads no file; and it can only make the hook stricter (fail-closed
// wins over the --fail-closed flag's absence, never the other way), so a
// stale, missing or forged file can at worst block calls, never let one
// through unchecked.
type State struct {
	FailMode    string `json:"fail_mode"`    // "open" or "closed"
	HookTimeout string `json:"hook_timeout"` // a Go duration, for status and people
	Written     string `json:"written"`      // RFC 3339
}

// maxState bounds what the hook reads from the state file.
const maxState = 4 << 10

// Read reads the state file at path. It trusts the file only as
// privatefile.Read does (the rules the hook applies to the socket's
// folder); any other file is an error and means the hook's own flags
// decide.
func Read(path string) (State, error) {
	var st State
	b, _, err := privatefile.Read(path, maxState)
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return State{}, fmt.Errorf("%s: %w", path, err)
	}
	return st, nil
}

// Write replaces the state file at path atomically (a private temp file
// beside it, renamed over it), mode 0600. The rename replaces whatever
// was at path, a planted symlink included, never its target.
func Write(path string, st State) error {
	if st.Written == "" {
		st.Written = time.Now().UTC().Format(time.RFC3339)
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return privatefile.Write(path, append(b, '\n'))
}
