package policyset

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentjail/agentjail/internal/wire"
)

func rules(kind wire.Verdict, n int, msg func(int) string) []wire.Rule {
	out := make([]wire.Rule, n)
	for i := range out {
		out[i] = wire.Rule{Kind: kind, ID: "r", Msg: msg(i)}
	}
	return out
}

func TestCapDecision(t *testing.T) {
	short := func(i int) string { return fmt.Sprintf("m%03d", i) }
	tests := []struct {
		name        string
		dec         wire.Decision
		reason      string // exact, or "" to skip
		rules       int
		omitted     int
		maxMsgBytes int
	}{
		{"few short messages are left exactly as evaluated",
			wire.Decision{Verdict: wire.Deny, Reason: "m000; m001", Rules: rules(wire.Deny, 2, short)},
			"m000; m001", 2, 0, 4},
		{"ten messages are not capped",
			wire.Decision{Verdict: wire.Ask, Reason: "kept as is", Rules: rules(wire.Ask, 10, short)},
			"kept as is", 10, 0, 4},
		{"eleven messages: the reason says and 1 more",
			wire.Decision{Verdict: wire.Deny, Rules: rules(wire.Deny, 11, short)},
			"m000; m001; m002; m003; m004; m005; m006; m007; m008; m009; and 1 more", 11, 0, 4},
		{"a flood keeps 50 rules and counts the rest",
			wire.Decision{Verdict: wire.Deny, Rules: rules(wire.Deny, 10000, short)},
			"", 50, 9950, 4},
		{"one huge message is clipped",
			wire.Decision{Verdict: wire.Deny, Reason: strings.Repeat("é", 300000), Rules: []wire.Rule{{Kind: wire.Deny, Msg: strings.Repeat("é", 300000)}}},
			"", 1, 0, 1000},
		{"the reason counts only the winning kind",
			wire.Decision{Verdict: wire.Deny, Rules: append(rules(wire.Deny, 2, short), rules(wire.Ask, 20, short)...)},
			"m000; m001", 22, 0, 4},
		{"duplicate messages shown once, as the engine does",
			wire.Decision{Verdict: wire.Deny, Rules: rules(wire.Deny, 20, func(int) string { return "same" })},
			"same", 20, 0, 4},
		{"a plain allow keeps no reason",
			wire.Decision{Verdict: wire.Allow, Rules: nil},
			"", 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dec := tt.dec
			capDecision(&dec)
			if tt.reason != "" && dec.Reason != tt.reason {
				t.Errorf("reason %.200q, want %q", dec.Reason, tt.reason)
			}
			if len(dec.Rules) != tt.rules || dec.Omitted != tt.omitted {
				t.Errorf("%d rules, %d omitted; want %d, %d", len(dec.Rules), dec.Omitted, tt.rules, tt.omitted)
			}
			for _, r := range dec.Rules {
				if len(r.Msg) > tt.maxMsgBytes || !utf8.ValidString(r.Msg) {
					t.Errorf("message of %d bytes (valid UTF-8: %v)", len(r.Msg), utf8.ValidString(r.Msg))
				}
			}
			if len(dec.Reason) > maxReasonMsgs*maxMsgBytes+100 || !utf8.ValidString(dec.Reason) {
				t.Errorf("reason of %d bytes", len(dec.Reason))
			}
			if b, _ := json.Marshal(&wire.Response{Decision: &dec}); len(b) > wire.MaxFrame/8 {
				t.Errorf("the answer is %d bytes", len(b))
			}
		})
	}
}
