package policyset

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/wire"
)

const (
	userDeny = "package agentjail\n\ndeny contains \"mine: no rm\" if input.tool_input.command == \"rm x\"\n"
	userAsk  = "package agentjail\n\nask[msg] {\n  input.tool_input.command == \"ls\"\n  msg := \"mine: ls?\"\n}\n"
	userOpen = "package agentjail\n\nallow contains \"fine\" if true\n"
)

// userHome makes a home with a policy folder and returns both.
func userHome(t *testing.T) (home, dir string) {
	t.Helper()
	home = t.TempDir()
	dir = filepath.Join(home, UserPolicyDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return home, dir
}

func writePolicy(t *testing.T, dir, name, text string, owner int) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if owner != os.Getuid() {
		if err := os.Chown(p, owner, owner); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func bash(cmd string) map[string]any {
	return map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}
}

// verdictOf evaluates set on a Bash command over a silent allow.
func verdictOf(t *testing.T, set *engine.Tightening, cmd string) *wire.Decision {
	t.Helper()
	dec := &wire.Decision{Verdict: wire.Allow}
	if err := tightenDecision(context.Background(), set, bash(cmd), dec); err != nil {
		t.Fatal(err)
	}
	return dec
}

// A system daemon is another user than the caller: a file is trusted when
// it is the caller's or root's, and refused (with its name) when it is a
// third user's, writable by everyone, or not a regular file. A FIFO never
// blocks the look.
func TestUserPoliciesTrust(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give files to other users")
	}
	const caller, stranger = 4242, 65534
	home, dir := userHome(t)
	writePolicy(t, dir, "mine.rego", userDeny, caller)
	writePolicy(t, dir, "root.rego", userAsk, 0)
	theirs := writePolicy(t, dir, "theirs.rego", "package agentjail\n\ndeny contains \"theirs\" if true\n", stranger)
	open := writePolicy(t, dir, "open.rego", "package agentjail\n\ndeny contains \"open\" if true\n", caller)
	if err := os.Chmod(open, 0o666); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.rego")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	writePolicy(t, dir, "mine_test.rego", "package agentjail\n\nallow contains 1\n", caller) // tests are not loaded

	var u userPolicies
	done := make(chan struct{})
	var set *engine.Tightening
	var errs []wire.LoadErr
	go func() {
		defer close(done)
		set, errs = u.For(context.Background(), caller, home)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("For blocked (on the FIFO?)")
	}
	want := map[string]string{theirs: "belongs to uid 65534, not to uid 4242", open: "writable by every user", fifo: "not a regular file"}
	if len(errs) != len(want) {
		t.Errorf("errors %v, want one for each of %v", errs, want)
	}
	for _, e := range errs {
		if !strings.Contains(e.Message, want[e.File]) || want[e.File] == "" {
			t.Errorf("unexpected error %v", e)
		}
	}
	if set == nil || len(set.Sources()) != 2 {
		t.Fatalf("set %v, want mine.rego and root.rego", set)
	}
	if dec := verdictOf(t, set, "rm x"); dec.Verdict != wire.Deny || dec.Reason != "mine: no rm" {
		t.Errorf("rm x: %+v", dec)
	}
	if dec := verdictOf(t, set, "ls"); dec.Verdict != wire.Ask {
		t.Errorf("ls: %+v", dec)
	}

	// A folder of a third user's, or writable by everyone, is not read.
	for _, tt := range []struct {
		name  string
		setup func() error
		want  string
	}{
		{"stranger's folder", func() error { return os.Chown(dir, stranger, stranger) }, "belongs to uid 65534"},
		{"open folder", func() error { return os.Chmod(dir, 0o777) }, "writable by every user"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer os.Chown(dir, 0, 0)
			defer os.Chmod(dir, 0o755)
			if err := tt.setup(); err != nil {
				t.Fatal(err)
			}
			var u userPolicies
			set, errs := u.For(context.Background(), caller, home)
			if set != nil || len(errs) != 1 || errs[0].File != dir || !strings.Contains(errs[0].Message, tt.want) {
				t.Errorf("got %v, %v; want nothing loaded and %q", set, errs, tt.want)
			}
		})
	}
}

// The daemon's own uid is no better than any other: for a caller, a file
// the daemon's user owns (when that is not root) is a stranger's. Run as
// the caller here: files it owns load.
func TestUserPoliciesOwnFiles(t *testing.T) {
	home, dir := userHome(t)
	writePolicy(t, dir, "mine.rego", userDeny, os.Getuid())
	var u userPolicies
	set, errs := u.For(context.Background(), os.Getuid(), home)
	if len(errs) > 0 || set == nil {
		t.Fatalf("got %v, %v", set, errs)
	}
	if set, errs := u.For(context.Background(), os.Getuid(), t.TempDir()); set != nil || len(errs) > 0 {
		t.Errorf("a home with no policy folder: %v, %v; want none", set, errs)
	}
}

// A file that would loosen is refused with its file and line; the good
// files beside it still tighten.
func TestUserPoliciesRefusedFile(t *testing.T) {
	home, dir := userHome(t)
	bad := writePolicy(t, dir, "open.rego", userOpen, os.Getuid())
	writePolicy(t, dir, "mine.rego", userDeny, os.Getuid())
	writePolicy(t, dir, "other.rego", "package mine\n\ndeny contains 1\n", os.Getuid())
	var u userPolicies
	set, errs := u.For(context.Background(), os.Getuid(), home)
	if len(errs) != 2 || errs[0].File != bad || errs[0].Line != 3 || !strings.Contains(errs[0].Message, "rule allow is refused") {
		t.Errorf("errors %v, want %s:3 refused first", errs, bad)
	}
	if len(errs) == 2 && (!strings.HasSuffix(errs[1].File, "other.rego") || errs[1].Line != 1) {
		t.Errorf("errors %v, want other.rego:1 refused second", errs)
	}
	if set == nil || len(set.Sources()) != 1 {
		t.Fatalf("set %v, want mine.rego alone", set)
	}
	if dec := verdictOf(t, set, "anything"); dec.Verdict != wire.Allow || dec.Explicit {
		t.Errorf("the refused allow approved: %+v", dec)
	}
}

// The folder is looked at at most once a second per user; a change is
// seen after that, and no change compiles nothing again.
func TestUserPoliciesRefresh(t *testing.T) {
	home, dir := userHome(t)
	p := writePolicy(t, dir, "mine.rego", userDeny, os.Getuid())
	now := time.Unix(1_000_000, 0)
	u := userPolicies{now: func() time.Time { return now }}
	uid := os.Getuid()
	first, _ := u.For(context.Background(), uid, home)
	if first == nil {
		t.Fatal("nothing loaded")
	}

	// Within the second the folder is not looked at.
	writePolicy(t, dir, "mine.rego", userAsk, uid)
	if again, _ := u.For(context.Background(), uid, home); again != first {
		t.Error("looked again within the second")
	}
	// After it, the change is seen.
	now = now.Add(2 * time.Second)
	changed, _ := u.For(context.Background(), uid, home)
	if changed == first || changed == nil {
		t.Fatal("the change was not seen")
	}
	if dec := verdictOf(t, changed, "ls"); dec.Verdict != wire.Ask {
		t.Errorf("ls after the change: %+v", dec)
	}
	// Nothing changed: the same set, not compiled again.
	now = now.Add(2 * time.Second)
	if same, _ := u.For(context.Background(), uid, home); same != changed {
		t.Error("compiled again with nothing changed")
	}
	// A new file, then a file removed.
	writePolicy(t, dir, "more.rego", userDeny, uid)
	now = now.Add(2 * time.Second)
	if set, _ := u.For(context.Background(), uid, home); set == nil || len(set.Sources()) != 2 {
		t.Errorf("new file not seen: %v", set)
	}
	os.Remove(p)
	os.Remove(filepath.Join(dir, "more.rego"))
	now = now.Add(2 * time.Second)
	if set, errs := u.For(context.Background(), uid, home); set != nil || len(errs) > 0 {
		t.Errorf("after removing every file: %v, %v", set, errs)
	}
	// Another home for the same uid is looked at at once.
	other, odir := userHome(t)
	writePolicy(t, odir, "x.rego", userDeny, uid)
	if set, _ := u.For(context.Background(), uid, other); set == nil {
		t.Error("a new home was not looked at")
	}
}

// The cache remembers a bounded number of users, and a user's folder a
// bounded number of files.
func TestUserPoliciesBounded(t *testing.T) {
	home, dir := userHome(t)
	u := userPolicies{max: 2}
	for uid := range 5 {
		u.For(context.Background(), uid, home)
	}
	if len(u.users) != 2 {
		t.Errorf("%d users cached, want 2", len(u.users))
	}
	for i := range maxUserPolicyFiles + 2 {
		writePolicy(t, dir, fmt.Sprintf("p%03d.rego", i), userDeny, os.Getuid())
	}
	var v userPolicies
	set, errs := v.For(context.Background(), os.Getuid(), home)
	if set == nil || len(set.Sources()) != maxUserPolicyFiles {
		t.Errorf("set %v, want %d files", set, maxUserPolicyFiles)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Message, "the first 64 files at most") {
		t.Errorf("errors %v, want the 2 files past the bound", errs)
	}
}

// mergeTightening never loosens: whatever the system decided and
// whatever a user's rules say, the verdict is at least as strict as
// before, and an allow rule of theirs changes nothing.
func TestTightenMergeNeverLoosens(t *testing.T) {
	strictness := map[wire.Verdict]int{wire.Allow: 0, wire.Ask: 1, wire.Deny: 2}
	starts := []wire.Decision{
		{Verdict: wire.Allow},
		{Verdict: wire.Allow, Explicit: true, Reason: "ok", Rules: []wire.Rule{{Kind: wire.Allow, Msg: "ok"}}},
		{Verdict: wire.Ask, Reason: "sys ask", Rules: []wire.Rule{{Kind: wire.Ask, Msg: "sys ask"}}},
		{Verdict: wire.Deny, Reason: "sys deny", Rules: []wire.Rule{{Kind: wire.Deny, Msg: "sys deny"}}},
		{Verdict: wire.Deny, Reason: "past the budget"}, // a deny with no rule behind it
	}
	tests := []struct {
		name  string
		rules []wire.Rule
		// want per start, in order
		want       []wire.Verdict
		wantReason []string
	}{
		{"none", nil,
			[]wire.Verdict{wire.Allow, wire.Allow, wire.Ask, wire.Deny, wire.Deny},
			[]string{"", "ok", "sys ask", "sys deny", "past the budget"}},
		{"allow only", []wire.Rule{{Kind: wire.Allow, Msg: "mine ok"}},
			[]wire.Verdict{wire.Allow, wire.Allow, wire.Ask, wire.Deny, wire.Deny},
			[]string{"", "ok", "sys ask", "sys deny", "past the budget"}},
		{"ask", []wire.Rule{{Kind: wire.Ask, Msg: "mine ask"}},
			[]wire.Verdict{wire.Ask, wire.Ask, wire.Ask, wire.Deny, wire.Deny},
			[]string{"mine ask", "mine ask", "sys ask; mine ask", "sys deny", "past the budget"}},
		{"deny and ask", []wire.Rule{{Kind: wire.Deny, Msg: "mine deny"}, {Kind: wire.Ask, Msg: "mine ask"}, {Kind: wire.Deny, Msg: "mine deny"}},
			[]wire.Verdict{wire.Deny, wire.Deny, wire.Deny, wire.Deny, wire.Deny},
			[]string{"mine deny", "mine deny", "mine deny", "sys deny; mine deny", "past the budget; mine deny"}},
	}
	for _, tt := range tests {
		for i, start := range starts {
			t.Run(fmt.Sprintf("%s/%s%d", tt.name, start.Verdict, i), func(t *testing.T) {
				dec := start
				dec.Rules = slices.Clone(start.Rules)
				mergeTightening(&dec, tt.rules)
				if strictness[dec.Verdict] < strictness[start.Verdict] {
					t.Fatalf("loosened %s to %s", start.Verdict, dec.Verdict)
				}
				if dec.Verdict != tt.want[i] || dec.Reason != tt.wantReason[i] {
					t.Errorf("got %s %q, want %s %q", dec.Verdict, dec.Reason, tt.want[i], tt.wantReason[i])
				}
				if dec.Explicit && dec.Verdict != wire.Allow {
					t.Error("an ask or deny marked explicit")
				}
				for _, r := range dec.Rules[len(start.Rules):] {
					if !r.User || r.Kind == wire.Allow {
						t.Errorf("merged rule %+v: want a user deny or ask", r)
					}
				}
			})
		}
	}
	// A nil set changes nothing.
	dec := wire.Decision{Verdict: wire.Allow}
	if err := tightenDecision(context.Background(), nil, bash("x"), &dec); err != nil || dec.Verdict != wire.Allow || len(dec.Rules) != 0 {
		t.Errorf("nil set: %+v, %v", dec, err)
	}
}

// engine.ConfigNames, which a user file may not define, is every key the
// daemon hands the policies under data.config.
func TestUserPoliciesConfigNames(t *testing.T) {
	cfg, _ := policyData(config.Default())["config"].(map[string]any)
	var keys []string
	for k := range cfg {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	names := slices.Sorted(slices.Values(engine.ConfigNames))
	if !slices.Equal(keys, names) {
		t.Errorf("data.config has %v, engine.ConfigNames %v: keep them the same", keys, names)
	}
}

// One user's files together are bounded in bytes too, so one user cannot
// keep the shared daemon compiling.
func TestUserPoliciesBoundedBytes(t *testing.T) {
	home, dir := userHome(t)
	pad := "\n# " + strings.Repeat("x", MaxPolicyFile-100) + "\n"
	for i := range 6 {
		writePolicy(t, dir, fmt.Sprintf("p%d.rego", i), userDeny+pad, os.Getuid())
	}
	var u userPolicies
	set, errs := u.For(context.Background(), os.Getuid(), home)
	if set == nil || len(set.Sources()) != 4 {
		t.Errorf("set %v, want the 4 files that fit", set)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Message, "may hold 4.0 MiB together") {
		t.Errorf("errors %v, want the 2 files past the bound", errs)
	}
}

// A call that finds another call of the same user's compiling waits no
// longer than its own context, and answers with what was in force.
func TestUserPoliciesWaitEndsWithContext(t *testing.T) {
	home, dir := userHome(t)
	writePolicy(t, dir, "mine.rego", userDeny, os.Getuid())
	now := time.Unix(1_000_000, 0)
	u := userPolicies{now: func() time.Time { return now }}
	first, _ := u.For(context.Background(), os.Getuid(), home)
	if first == nil {
		t.Fatal("nothing loaded")
	}
	e := u.entry(os.Getuid(), now)
	e.lock <- struct{}{} // a compile under way
	defer func() { <-e.lock }()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	now = now.Add(time.Minute)
	if set, _ := u.For(ctx, os.Getuid(), home); set != first {
		t.Errorf("got %v, want the set in force", set)
	}
	// A user never loaded yet gets nothing, and says why.
	other := os.Getuid() + 1
	u.entry(other, now).lock <- struct{}{}
	if set, errs := u.For(ctx, other, home); set != nil || len(errs) != 1 || !strings.Contains(errs[0].Message, "still loading") {
		t.Errorf("got %v, %v", set, errs)
	}
}
