package launchd

import (
	"testing"

	"howett.net/plist"
)

// The LaunchDaemon runs `agentjail run --system` as the service user,
// kept alive from boot.
func TestDaemonPlist(t *testing.T) {
	b, err := DaemonPlist(DaemonOptions{Agentjail: "/usr/local/libexec/agentjail/agentjail", User: "_agentjail", State: "/var/lib/agentjail", Log: "/var/log/agentjail/agentjail.log"})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if _, err := plist.Unmarshal(b, &got); err != nil {
		t.Fatalf("not a property list: %v\n%s", err, b)
	}
	args, _ := got["ProgramArguments"].([]any)
	if got["Label"] != DaemonLabel || got["UserName"] != "_agentjail" || got["KeepAlive"] != true || len(args) != 3 || args[2] != "--system" {
		t.Errorf("plist: %v", got)
	}
	b, err = TrayPlist("/usr/local/libexec/agentjail/agentjail")
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	if _, err := plist.Unmarshal(b, &got); err != nil || got["LimitLoadToSessionType"] != "Aqua" {
		t.Errorf("tray plist: %v %v", got, err)
	}
}
