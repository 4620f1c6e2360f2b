package approval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/shell"
	"github.com/agentjail/agentjail/internal/wire"
)

func resetCall(session, project string, uid int) Call {
	return Call{
		Agent: "codex", Session: session, Cwd: project, Project: project, Tool: "Bash",
		Summary: "git reset --hard HEAD~1", Reasons: []string{"throws away work"},
		Rules: []string{"git.discard_work"}, Family: "git reset",
		Input: []byte(`{"command":"git reset --hard HEAD~1"}`), UID: uid,
	}
}

// open opens call and returns its id and code (as the person sees it).
func open(t *testing.T, s *Store, call Call) (string, string) {
	t.Helper()
	tk, ok := s.Open(call, time.Now().Add(time.Minute))
	if !ok {
		t.Fatal("not held")
	}
	tickets[tk.ID] = tk
	for _, p := range s.Pending(call.UID, true) {
		if p.ID == tk.ID {
			return tk.ID, p.Code
		}
	}
	t.Fatalf("%s is not pending", tk.ID)
	return "", ""
}

// tickets are the calls open opened, by id.
var tickets = map[string]Ticket{}

func wait(s *Store, ctx context.Context, id string, ended func() string) Outcome {
	return s.Wait(ctx, tickets[id], ended)
}

func never() string { return "timeout" }

func TestAnswerNeedsTheCodeOfThatCall(t *testing.T) {
	s := New(Options{})
	a, codeA := open(t, s, resetCall("s1", "/p", 1000))
	other := resetCall("s1", "/p", 1000)
	other.Input = []byte(`{"command":"git reset --hard HEAD~2"}`)
	b, codeB := open(t, s, other)
	if codeA == codeB && codeA != "" {
		t.Skip("two codes met by chance") // one in a million
	}
	terminal := Answerer{Via: wire.ViaTerminal, UID: 1000}
	for _, tc := range []struct {
		name string
		ans  wire.ApprovalAnswer
		by   Answerer
		want string
	}{
		{"no code", wire.ApprovalAnswer{ID: a, Allow: true}, terminal, "one-time code"},
		{"another call's code", wire.ApprovalAnswer{ID: a, Code: codeB, Allow: true}, terminal, "wrong code"},
		{"another user", wire.ApprovalAnswer{ID: a, Code: codeA, Allow: true}, Answerer{Via: wire.ViaTerminal, UID: 1001}, "no call waits"},
		{"no such call", wire.ApprovalAnswer{ID: "nope", Code: codeA, Allow: true}, terminal, "no call waits"},
	} {
		if _, err := s.Answer(tc.ans, tc.by); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
	if len(s.Pending(1000, false)) != 2 {
		t.Fatal("a refused answer closed a call")
	}
	done, err := s.Answer(wire.ApprovalAnswer{ID: b, Code: codeB, Allow: false}, terminal)
	if err != nil || !strings.Contains(done, "denied") {
		t.Fatalf("deny with the right code: %q, %v", done, err)
	}
	if o := wait(s, context.Background(), b, never); o.Allow || o.By != "person" || o.Via != wire.ViaTerminal {
		t.Errorf("outcome %+v", o)
	}
	// The tray's own click needs no code.
	if _, err := s.Answer(wire.ApprovalAnswer{ID: a, Allow: true}, Answerer{Via: wire.ViaTray, Trusted: true}); err != nil {
		t.Fatal(err)
	}
	if o := wait(s, context.Background(), a, never); !o.Allow || o.Via != wire.ViaTray || o.Scope != wire.ScopeOnce {
		t.Errorf("outcome %+v", o)
	}
}

func TestCodesAreOnlyShownWhenAskedAndToTheirUser(t *testing.T) {
	s := New(Options{})
	open(t, s, resetCall("s1", "/p", 1000))
	if p := s.Pending(1000, false); len(p) != 1 || p[0].Code != "" {
		t.Errorf("without codes: %+v", p)
	}
	if p := s.Pending(1001, true); len(p) != 0 {
		t.Errorf("another user sees %+v", p)
	}
	if p := s.Pending(0, true); len(p) != 1 || len(p[0].Code) != 6 {
		t.Errorf("root: %+v", p)
	}
}

func TestWrongCodesDenyTheCall(t *testing.T) {
	s := New(Options{})
	id, code := open(t, s, resetCall("s1", "/p", 1000))
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	for i := 0; i < MaxWrongCodes; i++ {
		s.Answer(wire.ApprovalAnswer{ID: id, Code: wrong, Allow: true}, Answerer{Via: wire.ViaTerminal, UID: 1000})
	}
	if o := wait(s, context.Background(), id, never); o.Allow || o.By != "wrong codes" {
		t.Fatalf("after %d wrong codes: %+v", MaxWrongCodes, o)
	}
	if _, err := s.Answer(wire.ApprovalAnswer{ID: id, Code: code, Allow: true}, Answerer{Via: wire.ViaTerminal, UID: 1000}); err == nil {
		t.Error("the right code still answered a closed call")
	}
}

func TestWaitEndsAsItsContextSays(t *testing.T) {
	s := New(Options{})
	var changes []Change
	var mu sync.Mutex
	s.Watch(func(c Change) { mu.Lock(); changes = append(changes, c); mu.Unlock() })
	id, _ := open(t, s, resetCall("s1", "/p", 1000))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if o := wait(s, ctx, id, func() string { return "gone" }); o.Allow || o.By != "gone" {
		t.Fatalf("outcome %+v", o)
	}
	if len(s.Pending(0, false)) != 0 {
		t.Error("still pending")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(changes) != 2 || !changes[0].Opened || changes[1].Opened || changes[1].Outcome.By != "gone" || changes[0].Pending.Code == "" {
		t.Errorf("changes %+v", changes)
	}
}

func TestPendingIsBounded(t *testing.T) {
	s := New(Options{})
	for i := 0; i < MaxPending; i++ {
		c := resetCall("s1", "/p", 1000)
		c.Input = []byte{byte('a' + i%26), byte('a' + i/26)}
		if _, ok := s.Open(c, time.Now().Add(time.Minute)); !ok {
			t.Fatalf("call %d not held", i)
		}
	}
	if _, ok := s.Open(resetCall("s1", "/p", 1000), time.Now().Add(time.Minute)); ok {
		t.Errorf("call %d held: past MaxPending", MaxPending+1)
	}
}

// grant answers a fresh call for call's family with scope and returns
// the grant's id.
func grant(t *testing.T, s *Store, call Call, scope string) string {
	t.Helper()
	id, _ := open(t, s, call)
	if _, err := s.Answer(wire.ApprovalAnswer{ID: id, Allow: true, Scope: scope}, Answerer{Via: wire.ViaTray, Trusted: true}); err != nil {
		t.Fatal(err)
	}
	o := wait(s, context.Background(), id, never)
	if o.Grant == "" {
		t.Fatalf("no grant: %+v", o)
	}
	return o.Grant
}

func TestGrantsCoverTheirFamilyAndScopeOnly(t *testing.T) {
	now := time.Now()
	clock := func() time.Time { return now }
	s := New(Options{Now: clock, GrantExpiry: time.Hour})
	grant(t, s, resetCall("s1", "/p", 1000), wire.ScopeSession)
	grant(t, s, resetCall("s2", "/q", 1000), wire.ScopeProject)

	family := func(c Call, f string) Call { c.Family = f; return c }
	rules := func(c Call, r ...string) Call { c.Rules = r; return c }
	agent := func(c Call, a string) Call { c.Agent = a; return c }
	for _, tc := range []struct {
		name string
		call Call
		want bool
	}{
		{"the same session", resetCall("s1", "/elsewhere", 1000), true},
		{"another session", resetCall("s9", "/p", 1000), false},
		{"the same session id from another agent", agent(resetCall("s1", "/p", 1000), "gemini"), false},
		{"the granted project, any session", resetCall("s7", "/q", 1000), true},
		{"another project", resetCall("s7", "/r", 1000), false},
		{"another family", family(resetCall("s1", "/q", 1000), "git clean"), false},
		{"a broader family", family(resetCall("s1", "/q", 1000), "git"), false},
		{"more rules asked", rules(resetCall("s1", "/q", 1000), "git.discard_work", "git.history"), false},
		{"another user", resetCall("s1", "/q", 1001), false},
	} {
		if _, got := s.Covers(tc.call); got != tc.want {
			t.Errorf("%s: covered %v, want %v", tc.name, got, tc.want)
		}
	}
	locked := resetCall("s1", "/q", 1000)
	locked.Locked = true
	if _, ok := s.Covers(locked); ok {
		t.Error("a grant covered a locked rule's ask")
	}
	now = now.Add(time.Hour)
	if _, ok := s.Covers(resetCall("s1", "/q", 1000)); ok {
		t.Error("an expired grant still covers")
	}
	if g := s.Grants(1000); len(g) != 0 {
		t.Errorf("expired grants listed: %+v", g)
	}
}

func TestLockedAndFamilylessCallsAreNeverGranted(t *testing.T) {
	s := New(Options{})
	for name, c := range map[string]Call{
		"locked":     func() Call { c := resetCall("s1", "/p", 1000); c.Locked = true; return c }(),
		"no family":  func() Call { c := resetCall("s1", "/p", 1000); c.Family = ""; return c }(),
		"no session": resetCall("", "/p", 1000),
	} {
		id, _ := open(t, s, c)
		_, err := s.Answer(wire.ApprovalAnswer{ID: id, Allow: true, Scope: wire.ScopeSession}, Answerer{Via: wire.ViaTray, Trusted: true})
		if err == nil {
			t.Errorf("%s: a session grant was made", name)
		}
		if len(s.Pending(1000, false)) != 1 {
			t.Errorf("%s: the refused grant closed the call", name)
		}
		s.Answer(wire.ApprovalAnswer{ID: id, Allow: false}, Answerer{Via: wire.ViaTray, Trusted: true})
	}
	if g := s.Grants(0); len(g) != 0 {
		t.Errorf("grants %+v", g)
	}
}

func TestGrantsAreKeptListedAndRevoked(t *testing.T) {
	file := filepath.Join(t.TempDir(), "grants.json")
	s := New(Options{GrantsFile: file})
	g1 := grant(t, s, resetCall("s1", "/p", 1000), wire.ScopeProject)
	grant(t, s, resetCall("s1", "/q", 1000), wire.ScopeProject)
	grant(t, s, resetCall("s1", "/q", 1001), wire.ScopeProject)
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("grants file: %v, %v", fi, err)
	}
	again := New(Options{GrantsFile: file})
	if err := again.LoadError(); err != nil {
		t.Fatal(err)
	}
	if got := again.Grants(1000); len(got) != 2 {
		t.Fatalf("after a restart: %+v", got)
	}
	if _, err := again.Revoke(1001, wire.Revoke{ID: g1}); err == nil {
		t.Error("another user revoked a grant not theirs")
	}
	if _, err := again.Revoke(1000, wire.Revoke{ID: g1}); err != nil {
		t.Fatal(err)
	}
	if _, ok := again.Covers(resetCall("s5", "/p", 1000)); ok {
		t.Error("a revoked grant covers")
	}
	if done, err := again.Revoke(1000, wire.Revoke{All: true}); err != nil || done != "revoked 1 grant" {
		t.Errorf("revoke --all: %q, %v", done, err)
	}
	if got := New(Options{GrantsFile: file}).Grants(0); len(got) != 1 || *got[0].UID != 1001 {
		t.Errorf("left: %+v", got)
	}
}

func TestAGrantsFileNotOursIsNotBelieved(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "grants.json")
	real := filepath.Join(dir, "planted.json")
	os.WriteFile(real, []byte(`{"grants":[{"id":"gx","scope":"project","project":"/p","family":"git reset","rules":["git.discard_work"],"expires":"2999-01-01T00:00:00Z","uid":1000}]}`), 0o600)
	os.Symlink(real, file)
	s := New(Options{GrantsFile: file})
	if s.LoadError() == nil {
		t.Error("a link was read as the grants file")
	}
	if _, ok := s.Covers(resetCall("s1", "/p", 1000)); ok {
		t.Error("a planted grant covers")
	}
	os.Remove(file)
	os.WriteFile(file, []byte(`{"grants":[]}`), 0o666)
	os.Chmod(file, 0o666)
	if New(Options{GrantsFile: file}).LoadError() == nil {
		t.Error("a file others may write was believed")
	}
}

func TestTheDigestBindsEveryPartOfTheCall(t *testing.T) {
	base := resetCall("s1", "/p", 1000)
	seen := map[string]string{base.Digest(): "base"}
	for name, c := range map[string]Call{
		"input":   func() Call { c := base; c.Input = []byte(`{"command":"git reset --hard"}`); return c }(),
		"cwd":     func() Call { c := base; c.Cwd = "/q"; return c }(),
		"session": func() Call { c := base; c.Session = "s2"; return c }(),
		"tool":    func() Call { c := base; c.Tool = "Shell"; return c }(),
		"agent":   func() Call { c := base; c.Agent = "gemini"; return c }(),
		// Parts are length-prefixed: moving a boundary is another digest.
		"boundary": func() Call { c := base; c.Cwd, c.Session = "/ps", "1"; return c }(),
	} {
		d := c.Digest()
		if other, ok := seen[d]; ok {
			t.Errorf("%s: same digest as %s", name, other)
		}
		seen[d] = name
	}
}

func TestFamily(t *testing.T) {
	shellCall := func(cmds ...shell.Command) *input.Derived {
		return &input.Derived{ToolKind: "shell", Shell: &shell.Result{Commands: cmds}}
	}
	cmd := func(name string, operands ...string) shell.Command {
		return shell.Command{Name: name, Operands: operands}
	}
	for _, tc := range []struct {
		name    string
		derived *input.Derived
		want    string
	}{
		{"a subcommand", shellCall(cmd("git", "reset", "HEAD~1")), "git reset"},
		{"by path", shellCall(cmd("/usr/bin/npm", "publish")), "npm publish"},
		{"each command", shellCall(cmd("cd", "x"), cmd("git", "push"), cmd("git", "push")), "cd x; git push"},
		{"found at run time", shellCall(shell.Command{Name: "$X", Dynamic: true}), ""},
		{"a file", &input.Derived{ToolKind: "write", Paths: []string{"/p/.env"}}, "write /p/.env"},
		{"a file by its main path", &input.Derived{ToolKind: "read", FilePath: "/p/.env"}, "read /p/.env"},
		{"nothing to name", &input.Derived{ToolKind: "fetch"}, ""},
		{"nothing derived", nil, ""},
	} {
		if got := family(tc.derived); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestProjectOf(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "repo", ".git"), 0o700)
	os.MkdirAll(filepath.Join(root, "repo", "src", "deep"), 0o700)
	os.MkdirAll(filepath.Join(root, "loose"), 0o700)
	if got := ProjectOf(filepath.Join(root, "repo", "src", "deep")); got != filepath.Join(root, "repo") {
		t.Errorf("in a repository: %s", got)
	}
	if got := ProjectOf(filepath.Join(root, "loose")); got != filepath.Join(root, "loose") {
		t.Errorf("outside one: %s", got)
	}
}
