package app

import (
	"strings"

	"github.com/agentjail/agentjail/internal/wire"
)

// orgLine sums up the org policy for the menu: the bundles and revisions
// in force, or that it is not in force (and why, when a download failed).
func orgLine(org *wire.OrgStatus) string {
	if org == nil {
		return ""
	}
	if org.Error != "" || !org.InForce {
		for _, b := range org.Bundles {
			if b.LastError != "" {
				return "org policy NOT in force: " + b.LastError
			}
		}
		return "org policy NOT in force"
	}
	var parts []string
	for _, b := range org.Bundles {
		if b.InForce {
			parts = append(parts, b.Name+" "+b.Revision)
		}
	}
	return "org policy " + strings.Join(parts, ", ")
}
