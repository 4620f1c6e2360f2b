package installer

import (
	"testing"

	"github.com/agentjail/agentjail/internal/service"
	"github.com/agentjail/agentjail/launchd"
	"github.com/agentjail/agentjail/systemd"
)

// The hook names the service in its advice without linking the
// installer: its copies of the names must be the ones install registers.
func TestHookKnowsTheServiceNames(t *testing.T) {
	tests := []struct{ name, hook, installed string }{
		{"systemd unit", service.SystemdUnit, systemd.Name},
		{"launchd label", service.LaunchdLabel, launchd.Label},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.hook != tt.installed {
				t.Errorf("the hook says %q, install registers %q", tt.hook, tt.installed)
			}
		})
	}
}
