package hook

import (
	"testing"

	"github.com/agentjail/agentjail/internal/paths"
)

// A system hook asks the system socket whatever the environment says,
// fails closed unless its command line says otherwise, and never starts
// a daemon or reads a state file of the user's.
func TestSystemFlag(t *testing.T) {
	t.Setenv("AGENTJAIL_SOCKET", "/tmp/elsewhere.sock")
	t.Setenv("AGENTJAIL_HOME", "/tmp/elsewhere")
	for _, tt := range []struct {
		args       []string
		failClosed bool
	}{
		{[]string{"--system"}, true},
		{[]string{"--system", "--agent", "codex", "--timeout", "3s"}, true},
		{[]string{"-system", "--fail-closed=false"}, false},
		{[]string{"--fail-closed=false", "--system"}, false},
		{[]string{"--system", "--bogus"}, true}, // a broken flag keeps it a system hook
	} {
		opts, _ := parseFlags(tt.args)
		if !opts.System || opts.FailClosed != tt.failClosed || opts.Client == nil || opts.Client.SocketPath() != paths.SystemSocket() || opts.AutoStart != "-" || opts.State != "-" {
			t.Errorf("%v: %+v (socket %v)", tt.args, opts, opts.Client)
		}
	}
	opts, _ := parseFlags(nil)
	if opts.System || opts.Client != nil {
		t.Errorf("no --system: %+v", opts)
	}
}
