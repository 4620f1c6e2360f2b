package systemd

import (
	"strings"
	"testing"
)

func TestUnit(t *testing.T) {
	u := Unit("/home/dev/.agentjail/bin/agentjail", "/home/dev/my home/.agentjail")
	for _, want := range []string{
		"ExecStart=/home/dev/.agentjail/bin/agentjail run\n",
		"Environment=\"AGENTJAIL_HOME=/home/dev/my home/.agentjail\"\n",
		"Restart=always\n",
		"WantedBy=default.target\n",
	} {
		if !strings.Contains(u, want) {
			t.Errorf("unit lacks %q:\n%s", want, u)
		}
	}
}
