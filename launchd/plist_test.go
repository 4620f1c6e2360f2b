package launchd

import (
	"flag"
	"os"
	"reflect"
	"testing"

	"howett.net/plist"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestPlistGoldenAndParsesBack(t *testing.T) {
	o := Options{Agentjail: "/Users/dev/Applications/AgentJail.app/Contents/MacOS/agentjail", BundleID: "dev.agentjail.AgentJail", Home: "/Users/dev/.agentjail", Log: "/Users/dev/.agentjail/agentjail.log"}
	got, err := Plist(o)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		os.WriteFile("testdata/agent.plist", got, 0o644)
	}
	want, err := os.ReadFile("testdata/agent.plist")
	if err != nil {
		t.Fatalf("%v (go test ./launchd -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var back map[string]any
	if _, err := plist.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	checks := map[string]any{
		"Label":                       Label,
		"ProgramArguments":            []any{o.Agentjail, "run"},
		"RunAtLoad":                   true,
		"KeepAlive":                   true,
		"ProcessType":                 "Interactive",
		"LimitLoadToSessionType":      "Aqua",
		"AssociatedBundleIdentifiers": []any{o.BundleID},
		"StandardOutPath":             o.Log,
		"StandardErrorPath":           o.Log,
		"EnvironmentVariables":        map[string]any{"AGENTJAIL_HOME": o.Home},
	}
	for k, v := range checks {
		if !reflect.DeepEqual(back[k], v) {
			t.Errorf("%s = %#v, want %#v", k, back[k], v)
		}
	}
}

func TestPlistWithoutBundleID(t *testing.T) {
	got, err := Plist(Options{Agentjail: "/opt/agentjail", Home: "/h", Log: "/h/log"})
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if _, err := plist.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if _, ok := back["AssociatedBundleIdentifiers"]; ok {
		t.Errorf("AssociatedBundleIdentifiers without a bundle: %v", back["AssociatedBundleIdentifiers"])
	}
	if back["LimitLoadToSessionType"] != "Aqua" || back["ProcessType"] != "Interactive" {
		t.Errorf("session keys: %v", back)
	}
}
