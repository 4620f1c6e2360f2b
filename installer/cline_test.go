package installer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Cline's hook is a file of ours, PreToolUse, mode 0755, that execs the
// hook with --agent cline, and PostToolUse beside it that execs it with
// --post; a user's own hooks beside them stay, a PreToolUse of the
// user's is never overwritten, and uninstall takes ours alone.
func TestClineHookFile(t *testing.T) {
	o := agentOptions(t, "cline")
	t.Setenv("PATH", t.TempDir())
	hooks := filepath.Join(o.UserHome, ".cline", "hooks")
	mine := filepath.Join(hooks, "PreToolUse.sh")
	write(t, mine, "#!/bin/sh\necho '{}'\n")
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(hooks, "PreToolUse")
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("hook file %v, %v: want mode 0755", fi, err)
	}
	got := read(t, path)
	want := "#!/bin/sh\n" + clineMarker("PreToolUse") + "\nexec " + filepath.Join(o.Home, "bin", hookBinary) + " --agent cline\n"
	if got != want {
		t.Errorf("hook file:\n%s\nwant:\n%s", got, want)
	}
	post := filepath.Join(hooks, "PostToolUse")
	wantPost := "#!/bin/sh\n" + clineMarker("PostToolUse") + "\nexec " + filepath.Join(o.Home, "bin", hookBinary) + " --agent cline --post\n"
	if fi, err := os.Stat(post); err != nil || fi.Mode().Perm() != 0o755 || read(t, post) != wantPost {
		t.Errorf("post-tool hook file %v, %v:\n%s\nwant mode 0755 and:\n%s", fi, err, read(t, post), wantPost)
	}
	a := agentState(t, o, "cline")
	if a.Name != "cline" || !a.Wired || len(a.Problems) != 0 {
		t.Errorf("state %+v, want cline wired, no problems", a)
	}
	closed := o
	closed.FailClosed = true
	if p := agentState(t, closed, "cline").Problems; len(p) != 2 || !strings.Contains(p[0], "without --fail-closed") || !strings.Contains(p[1], "PostToolUse") {
		t.Errorf("fail_mode closed, hook without the flag: %v", p)
	}

	// Again: unchanged.
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if read(t, path) != want {
		t.Errorf("second install changed the file")
	}

	o.Agents = []string{"cline"}
	if err := Uninstall(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, post} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("uninstall left %s", p)
		}
	}
	if read(t, mine) != "#!/bin/sh\necho '{}'\n" {
		t.Errorf("uninstall touched the user's hook")
	}
}

func TestClineRefusesTheUsersPreToolUse(t *testing.T) {
	o := agentOptions(t, "cline")
	t.Setenv("PATH", t.TempDir())
	path := filepath.Join(o.UserHome, ".cline", "hooks", "PreToolUse")
	theirs := "#!/bin/sh\n# my own guard\nexec /usr/local/bin/guard\n"
	write(t, path, theirs)
	err := Install(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "is a hook of your own") || !strings.Contains(err.Error(), "PreToolUse.sh") {
		t.Fatalf("install: %v, want a refusal that says how to keep both", err)
	}
	if read(t, path) != theirs {
		t.Errorf("the user's hook was changed")
	}
	if a := agentState(t, o, "cline"); a.Wired {
		t.Errorf("a user's PreToolUse counts as ours: %+v", a)
	}
	// A file that only mentions agentjail-hook is not ours either.
	if isClineHook([]byte("#!/bin/sh\nexec /x/agentjail-hook --agent cline\n")) {
		t.Errorf("a script without the marker counts as ours")
	}
}

// A PostToolUse of the user's is kept, and Cline is wired by its
// PreToolUse alone.
func TestClineKeepsTheUsersPostToolUse(t *testing.T) {
	o := agentOptions(t, "cline")
	t.Setenv("PATH", t.TempDir())
	path := filepath.Join(o.UserHome, ".cline", "hooks", "PostToolUse")
	theirs := "#!/bin/sh\n# my own log\nexec /usr/local/bin/log-calls\n"
	write(t, path, theirs)
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if read(t, path) != theirs {
		t.Errorf("the user's hook was changed")
	}
	if a := agentState(t, o, "cline"); !a.Wired || len(a.Problems) != 0 {
		t.Errorf("state %+v, want cline wired by its PreToolUse", a)
	}
	o.Agents = []string{"cline"}
	if err := Uninstall(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if read(t, path) != theirs {
		t.Errorf("uninstall touched the user's hook")
	}
}

// CLINE_DIR moves Cline's folder, hooks and all; system mode has no
// place to write, and says so.
func TestClinePlaces(t *testing.T) {
	o := agentOptions(t)
	d := filepath.Join(t.TempDir(), "cline")
	t.Setenv("CLINE_DIR", d)
	if got := o.clineHookPath(); got != filepath.Join(d, "hooks", "PreToolUse") {
		t.Errorf("hook path %s", got)
	}
	o.System = true
	if e := (clinePart{}).edits(o); len(e) != 0 {
		t.Errorf("system mode edits %v", e)
	}
	if off := (clinePart{}).off(o); len(off) != 1 || !strings.Contains(off[0], "no machine-wide place") {
		t.Errorf("system mode off %v", off)
	}
}

// agentState is one agent's entry among the agents' states.
func agentState(t *testing.T, o Options, name string) AgentState {
	t.Helper()
	for _, a := range Agents(o) {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no %s among the agents", name)
	return AgentState{}
}
