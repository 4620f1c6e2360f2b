package app

import (
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
)

func TestOrgLine(t *testing.T) {
	tests := []struct {
		name string
		org  *wire.OrgStatus
		want string
	}{
		{name: "no fleet", org: nil, want: ""},
		{name: "not in force yet", org: &wire.OrgStatus{Bundles: []wire.OrgBundle{{Name: "org"}}}, want: "org policy NOT in force"},
		{name: "not in force, download failing", org: &wire.OrgStatus{Bundles: []wire.OrgBundle{{Name: "org", LastError: "server error 500"}}}, want: "org policy NOT in force: server error 500"},
		{name: "in force", org: &wire.OrgStatus{InForce: true, Bundles: []wire.OrgBundle{{Name: "org", InForce: true, Revision: "r3", LastError: "a later bundle was refused"}}}, want: "org policy org r3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := orgLine(tt.org); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
