package cli

import (
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
)

func TestPrintOrg(t *testing.T) {
	tests := []struct {
		name    string
		org     *wire.OrgStatus
		want    []string
		notWant []string
	}{
		{name: "no fleet configured prints nothing", org: nil, notWant: []string{"org policy"}},
		{name: "no bundle yet", org: &wire.OrgStatus{Bundles: []wire.OrgBundle{{Name: "org", Verification: "signature required (key k)"}}},
			want: []string{"org policy: NOT in force", "bundle org: none in force", "last download never"}},
		{name: "in force", org: &wire.OrgStatus{InForce: true, DecisionLogs: true, PersistDir: "/h/opa", Bundles: []wire.OrgBundle{{
			Name: "org", InForce: true, Revision: "r7", Verification: "signature required (key k)", Verified: true, Persist: true,
			LastDownload: "2026-01-02T03:04:05Z", LastActivation: "2026-01-02T03:04:06Z", LastError: "bundle missing .signatures.json file",
		}}}, want: []string{"org policy: in force", "bundle org: revision r7; verification: signature required (key k)", "last download 2026-01-02T03:04:05Z", "persisted in /h/opa", "last error: bundle missing .signatures.json file", "decision logs: sent"}},
		{name: "could not start", org: &wire.OrgStatus{Error: "opa: unknown service"}, want: []string{"not in force: the opa: section could not be started: opa: unknown service"}},
		{name: "control characters from a server are not sent to the terminal", org: &wire.OrgStatus{Bundles: []wire.OrgBundle{{Name: "org", LastError: "bad\x1b[2Jthing"}}}, notWant: []string{"\x1b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			printOrg(&b, tt.org)
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("missing %q in:\n%s", w, b.String())
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(b.String(), w) {
					t.Errorf("unexpected %q in:\n%s", w, b.String())
				}
			}
		})
	}
}
