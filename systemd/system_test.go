package systemd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The system unit runs the daemon as its service user, never root, with
// the system read-only but for its own folders and the homes readable.
func TestSystemUnit(t *testing.T) {
	u := SystemUnit(SystemOptions{
		Agentjail: "/usr/local/libexec/agentjail/agentjail", User: "agentjail",
		Config: "/etc/agentjail", State: "/var/lib/agentjail", Log: "/var/log/agentjail", Run: "/run/agentjail",
	})
	for _, want := range []string{
		"ExecStart=/usr/local/libexec/agentjail/agentjail run --system\n",
		"User=agentjail\n", "Group=agentjail\n",
		"NoNewPrivileges=yes\n", "ProtectSystem=strict\n", "ProtectHome=read-only\n",
		"StateDirectory=agentjail\n", "LogsDirectory=agentjail\n",
		"RuntimeDirectory=agentjail\n", "RuntimeDirectoryMode=0755\n",
		"CapabilityBoundingSet=\n", "Restart=always\n", "WantedBy=multi-user.target\n",
	} {
		if !strings.Contains(u, want) {
			t.Errorf("the unit lacks %q:\n%s", want, u)
		}
	}
	if strings.Contains(u, "User=root") {
		t.Errorf("the daemon must not run as root:\n%s", u)
	}
	tray := TrayUnit("/usr/local/libexec/agentjail/agentjail")
	if !strings.Contains(tray, "ExecStart=/usr/local/libexec/agentjail/agentjail tray\n") || !strings.Contains(tray, "graphical-session.target") {
		t.Errorf("tray unit:\n%s", tray)
	}
}

// systemd's own checker accepts the unit, where it is installed.
func TestSystemUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed here")
	}
	path := filepath.Join(t.TempDir(), SystemName)
	unit := SystemUnit(SystemOptions{Agentjail: "/bin/true", User: "agentjail", Config: "/etc/agentjail", State: "/var/lib/agentjail", Log: "/var/log/agentjail", Run: "/run/agentjail"})
	if err := os.WriteFile(path, []byte(unit), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(analyze, "verify", path).CombinedOutput(); err != nil {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
