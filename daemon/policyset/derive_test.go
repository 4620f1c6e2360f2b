package policyset_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

// DeriveInput (what `agentjail policy test` gives a test's raw event)
// is the input the daemon hands the policies for the same event, field
// for field; an event that carries its own agentjail key has it replaced,
// as the daemon replaces it.
func TestDeriveInputIsTheDaemonsInput(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	opts := policyset.Options{Pack: policies.FS, Home: filepath.Join(home, ".agentjail"), UserHome: home, Socket: filepath.Join(home, "s.sock")}
	dec, err := policyset.New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	pack, err := policyset.PackSources(policies.FS, false)
	if err != nil {
		t.Fatal(err)
	}
	eng, errs := engine.Compile(ctx, pack, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, event := range []string{
		`{"tool_name":"Bash","tool_input":{"command":"cd web && sudo npm publish"}}`,
		`{"tool_name":"Read","cwd":"/w","tool_input":{"file_path":"~/.aws/credentials"},"agentjail":{"tool":"forged"}}`,
	} {
		d, err := dec.Decide(ctx, &wire.Request{Op: wire.OpDecide, Event: []byte(event), Cwd: "/proj", Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := policyset.DeriveInput([]byte(event), policyset.InputEnv(eng, opts, "/proj", ""))
		if err != nil {
			t.Fatal(err)
		}
		if !jsonEqual(t, got, d.Input) {
			t.Errorf("%s:\nderived %s\ndaemon  %s", event, got, d.Input)
		}
		if bytes.Contains(got, []byte("forged")) {
			t.Errorf("the event's own agentjail key was kept: %s", got)
		}
	}
	if _, err := policyset.DeriveInput([]byte(`["not an object"]`), policyset.InputEnv(eng, opts, "/proj", "")); err == nil {
		t.Error("an event that is not an object derived without error")
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		t.Fatalf("not JSON: %s / %s", a, b)
	}
	ca, _ := json.Marshal(x)
	cb, _ := json.Marshal(y)
	return bytes.Equal(ca, cb)
}
