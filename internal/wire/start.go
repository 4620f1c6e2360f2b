package wire

import "time"

// The daemon's lock file says what its holder is doing, after its pid
// and start time. A daemon listens before it compiles its policies, so
// a hook's call can wait on the socket's backlog while it starts; the
// hook tells that daemon from a stuck one by this word.
const (
	LockStarting = "starting" // listening, compiling its policies
	LockServing  = "serving"  // answering calls
)

// StartGrace is how much longer than its deadline (--timeout) a hook
// waits for a daemon that is starting, rather than failing open; install
// leaves room for it in every agent's own timeout of the hook.
const StartGrace = 2 * time.Second
