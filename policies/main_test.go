package policies_test

import (
	"os"
	"testing"

	"github.com/agentjail/agentjail/daemon/daemontest"
)

// TestMain gives the daemons these tests start patient budgets: the tests
// here judge verdicts, and on a machine busy with the race detector a
// starved evaluation past the default eval_timeout would read as a deny.
// Speed is measured by the benchmarks (make bench), not here.
func TestMain(m *testing.M) {
	daemontest.Patient = true
	os.Exit(m.Run())
}
