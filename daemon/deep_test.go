package daemon_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/jsonscan"
	"github.com/agentjail/agentjail/internal/wire"
)

// The agent writes tool_input, so it chooses how deeply an event nests.
// An event nested past jsonscan.MaxDepth is asked about, whether it arrives
// as a request Go still decodes or one past Go's own decoder limit; a
// bad-request error instead would make the hook fail open. One nested
// within the bound is judged as usual.
func TestDeepEventsAreAsked(t *testing.T) {
	d := daemontest.Start(t, nil)
	nest := func(leaf string, n int) string {
		return strings.Repeat(`{"a":`, n) + leaf + strings.Repeat("}", n)
	}
	tests := []struct {
		name    string
		raw     bool // sent as a hand-made frame: Go's client cannot encode it
		event   string
		verdict wire.Verdict
	}{
		{"past the bound", false, `{"tool_name":"Bash","tool_input":{"command":` + nest(`"rm -rf ~"`, jsonscan.MaxDepth+1) + `}}`, wire.Ask},
		{"arrays past the bound", false, `{"tool_name":"Bash","tool_input":{"command":"ls","x":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}`, wire.Ask},
		{"past Go's decoder limit", true, `{"tool_name":"Bash","tool_input":{"command":` + nest(`"rm -rf ~"`, 20000) + `}}`, wire.Ask},
		{"within the bound, harmless", false, `{"tool_name":"Bash","tool_input":{"command":"ls","description":` + nest(`"rm -rf ~"`, 200) + `}}`, wire.Allow},
		{"within the bound, judged", false, `{"tool_name":"Bash","tool_input":{"command":"rm -rf ~","description":` + nest(`"x"`, 200) + `}}`, wire.Deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *wire.Decision
			if tt.raw {
				resp := rawExchange(t, d.Socket, frame(`{"op":"decide","event":`+tt.event+`}`))
				if resp.Error != nil || resp.Decision == nil {
					t.Fatalf("got %+v, want a decision", resp)
				}
				got = resp.Decision
			} else {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				var err error
				if got, err = (&wire.Client{Socket: d.Socket}).Decide(ctx, &wire.Request{Event: []byte(tt.event)}); err != nil {
					t.Fatal(err)
				}
			}
			if got.Verdict != tt.verdict {
				t.Fatalf("got %s %.200q, want %s", got.Verdict, got.Reason, tt.verdict)
			}
			if tt.verdict == wire.Ask && !strings.Contains(got.Reason, "levels deep") {
				t.Errorf("reason %q does not say why", got.Reason)
			}
		})
	}
	if v := decide(t, d.Socket, "rm -rf ~").Verdict; v != wire.Deny {
		t.Errorf("after deep events the daemon answers %s", v)
	}
}
