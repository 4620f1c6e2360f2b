package policies_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	agentkit "github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

// The session every case runs in.
const (
	caseHome    = "/home/dev"
	caseProject = caseHome + "/project"
)

type tableCase struct {
	file, line string
	lineNo     int
	want       wire.Verdict
	rule       string // the rule id that must be among those that fire: deny:ID, ask:ID
	event      []byte
	agent      string // the hook's --agent, "" for Claude Code
	home       string // the session's home: caseHome unless the file sets another
	uid        int    // the hook's uid: daemontest.UID unless the file sets another
	protected  string // config.yaml's protected_paths, as a YAML list, when the file sets them
}

// request is the hook's request for the case.
func (c tableCase) request() *wire.Request {
	return &wire.Request{Event: c.event, Cwd: caseProjectIn(c.home), Agent: c.agent}
}

// caseProjectIn is the session's project in home: caseProject in caseHome.
func caseProjectIn(home string) string { return home + "/project" }

// caseDaemons decides each case in a daemon for its session (home and
// uid): caseHome's as daemontest.UID is d, one for each other session is
// started when first needed.
type caseDaemons struct {
	t      testing.TB
	byHome map[caseSession]*daemontest.Daemon
}

// caseSession is whom a case file's calls come from.
type caseSession struct {
	home      string
	uid       int
	protected string
}

func (s caseSession) String() string {
	return fmt.Sprintf("HOME=%s uid %d protected_paths %s", s.home, s.uid, s.protected)
}

func newCaseDaemons(t testing.TB, d *daemontest.Daemon) *caseDaemons {
	return &caseDaemons{t: t, byHome: map[caseSession]*daemontest.Daemon{{caseHome, daemontest.UID, ""}: d}}
}

func (s *caseDaemons) decide(c tableCase) (*wire.Decision, error) {
	session := caseSession{c.home, c.uid, c.protected}
	d := s.byHome[session]
	switch {
	case d != nil:
	case c.protected != "":
		cfg := "confine: false\nprotected_paths: " + c.protected + "\n"
		if daemontest.Patient {
			cfg += "hook_timeout: 20s\neval_timeout: 10s\n"
		}
		d = daemontest.StartForConfig(s.t, c.home, cfg)
		s.byHome[session] = d
	default:
		d = daemontest.StartAs(s.t, c.home, c.uid, nil)
		s.byHome[session] = d
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return (&wire.Client{Socket: d.Socket}).Decide(ctx, c.request())
}

// loadCases reads policies/cases/*.txt (format in cases/README.md).
func loadCases(t testing.TB, ajHome string) map[string][]tableCase {
	t.Helper()
	files, _ := filepath.Glob("cases/*.txt")
	if len(files) == 0 {
		t.Fatal("no case files in policies/cases")
	}
	out := map[string][]tableCase{}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		category := strings.TrimSuffix(filepath.Base(file), ".txt")
		home, uid, protected := caseHome, daemontest.UID, ""
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if h, ok := strings.CutPrefix(line, "home: "); ok {
				if len(out[category]) > 0 || !filepath.IsAbs(h) || filepath.Clean(h) != h {
					t.Fatalf("%s:%d: `home: PATH` takes a clean absolute path, before the file's first case", file, n)
				}
				home = h
				continue
			}
			if u, ok := strings.CutPrefix(line, "uid: "); ok {
				n2, err := strconv.Atoi(u)
				if len(out[category]) > 0 || err != nil || n2 < 0 {
					t.Fatalf("%s:%d: `uid: N` takes a uid, before the file's first case", file, n)
				}
				uid = n2
				continue
			}
			if p, ok := strings.CutPrefix(line, "protected: "); ok {
				if len(out[category]) > 0 || uid != daemontest.UID {
					t.Fatalf("%s:%d: `protected: [PATH, ...]` comes before the file's first case, in a file of the user's own uid", file, n)
				}
				protected = p
				continue
			}
			if (home != caseHome || protected != "") && strings.Contains(line, "{aj}") {
				t.Fatalf("%s:%d: {aj} is the home of the daemon for %s; this file's session runs in %s", file, n, caseHome, home)
			}
			head, call, _ := strings.Cut(line, " ")
			call = strings.TrimSpace(call)
			verdict, rule, _ := strings.Cut(head, ":")
			switch wire.Verdict(verdict) {
			case wire.Allow, wire.Ask, wire.Deny:
			default:
				t.Fatalf("%s:%d: verdict %q is not allow, ask or deny", file, n, verdict)
			}
			if rule != "" && !ruleID.MatchString(rule) {
				t.Fatalf("%s:%d: %q is not a rule id (family.name)", file, n, rule)
			}
			call = strings.NewReplacer(`\n`, "\n", "{aj}", ajHome, "{pid}", strconv.Itoa(os.Getpid()), "{ppid}", strconv.Itoa(os.Getppid())).Replace(call)
			ev, agentName, err := caseEvent(call, caseProjectIn(home))
			if err != nil {
				t.Fatalf("%s:%d: %v", file, n, err)
			}
			out[category] = append(out[category], tableCase{file: file, line: line, lineNo: n, want: wire.Verdict(verdict), rule: rule, event: ev, agent: agentName, home: home, uid: uid, protected: protected})
		}
		f.Close()
	}
	return out
}

// caseEvent builds the hook event for one case, as Claude Code sends it,
// or as another agent does for `@agent:tool JSON`; agent is the hook's
// --agent for it.
func caseEvent(call, project string) (event []byte, agent string, err error) {
	if name, rest, ok := strings.Cut(call, " "); ok && strings.HasPrefix(name, "@") && strings.Contains(name, ":") {
		agent, tool, _ := strings.Cut(name[1:], ":")
		var input map[string]any
		if err := json.Unmarshal([]byte(rest), &input); err != nil || input == nil {
			return nil, "", fmt.Errorf("%q: want @agent:tool JSON, the tool's input as a JSON object: %v", call, err)
		}
		ev, err := agentEvent(agent, tool, input, project)
		return ev, agent, err
	}
	ev, err := claudeEvent(call, project)
	return ev, "", err
}

// agentEvent is a call of tool with input as agent's hook receives it,
// in the case table's session.
func agentEvent(agent, tool string, input map[string]any, project string) ([]byte, error) {
	var ev map[string]any
	switch agent {
	case "codex":
		ev = map[string]any{"session_id": "cases", "turn_id": "t", "cwd": project, "hook_event_name": "PreToolUse", "model": "m", "tool_name": tool, "tool_input": input}
	case "gemini":
		ev = map[string]any{"session_id": "cases", "transcript_path": "/tmp/t.json", "cwd": project, "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00Z", "tool_name": tool, "tool_input": input}
	case "copilot":
		// Copilot CLI 1.0.102 sends toolArgs as an object.
		ev = map[string]any{"timestamp": 1, "cwd": project, "toolName": tool, "toolArgs": input}
	case "cursor":
		ev = map[string]any{"conversation_id": "cases", "generation_id": "g", "hook_event_name": "preToolUse", "workspace_roots": []any{project}, "cwd": project, "tool_name": tool, "tool_input": input, "tool_use_id": "t"}
	default:
		// Any other agent's event as its adapter builds it (Example keeps
		// a tool name and fields of the agent's own as they are).
		a, known := agents.Lookup(agent)
		ex, builds := a.(agentkit.Exampler)
		if !known || !builds {
			return nil, fmt.Errorf("agent %q: the case table knows %s (Claude Code's calls have no agent prefix)", agent, strings.Join(agents.Names()[1:], ", "))
		}
		ev = ex.Example(tool, input, project)
	}
	return json.Marshal(ev)
}

// claudeEvent builds a Claude Code event from a Bash command or
// `@Tool PATH [JSON]`.
func claudeEvent(call, project string) ([]byte, error) {
	tool, input := "Bash", map[string]any{"command": call, "description": "case"}
	if strings.HasPrefix(call, "@") {
		fields := strings.SplitN(call[1:], " ", 3)
		if len(fields) < 2 {
			return nil, fmt.Errorf("%q: want @Tool PATH [JSON]", call)
		}
		tool, input = fields[0], map[string]any{}
		key := "file_path"
		switch tool {
		case "Grep", "Glob":
			key = "path"
		case "NotebookEdit":
			key = "notebook_path"
		case "WebFetch":
			key = ""
		}
		if key != "" {
			input[key] = fields[1]
		}
		if len(fields) == 3 {
			if err := json.Unmarshal([]byte(fields[2]), &input); err != nil {
				return nil, fmt.Errorf("%q: %v", call, err)
			}
			if key != "" {
				input[key] = fields[1]
			}
		}
	}
	return json.Marshal(map[string]any{
		"session_id": "cases", "transcript_path": "/tmp/t.jsonl", "cwd": project,
		"permission_mode": "default", "hook_event_name": "PreToolUse",
		"tool_name": tool, "tool_input": input, "tool_use_id": "toolu_cases",
	})
}

// TestCaseTable runs every case through a real daemon and prints, per
// category, how many dangerous calls were stopped and harmless ones let
// through. Every case must get its verdict.
func TestCaseTable(t *testing.T) {
	d := daemontest.StartFor(t, caseHome, nil)
	cases := loadCases(t, d.Home)
	daemons := newCaseDaemons(t, d)

	type tally struct{ dangerous, stopped, harmless, allowed int }
	totals := map[string]*tally{}
	var categories []string
	all := 0
	fired := map[string]bool{}
	for category, list := range cases {
		categories = append(categories, category)
		tl := &tally{}
		totals[category] = tl
		for _, c := range list {
			all++
			dec, err := daemons.decide(c)
			if err != nil {
				t.Fatalf("%s:%d: %v", c.file, c.lineNo, err)
			}
			if c.want == wire.Allow {
				tl.harmless++
				if dec.Verdict == wire.Allow {
					tl.allowed++
				}
			} else {
				tl.dangerous++
				if dec.Verdict == c.want {
					tl.stopped++
				}
			}
			if dec.Verdict != c.want {
				t.Errorf("%s:%d: %s\n    got %s (%s)", c.file, c.lineNo, c.line, dec.Verdict, dec.Reason)
			}
			ids := make([]string, 0, len(dec.Rules))
			for _, r := range dec.Rules {
				fired[r.ID] = true
				ids = append(ids, r.ID)
			}
			switch {
			case c.rule != "" && !slices.Contains(ids, c.rule):
				t.Errorf("%s:%d: %s\n    %s did not fire (%s did)", c.file, c.lineNo, c.line, c.rule, strings.Join(ids, ", "))
			case c.rule == "" && c.want != wire.Allow && *nameRules && dec.Verdict == c.want:
				named.add(c, firstOfKind(dec.Rules, c.want))
			case c.rule == "" && c.want != wire.Allow:
				t.Errorf("%s:%d: %s\n    names no rule: write %s:ID with the id of the rule that must stop it", c.file, c.lineNo, c.line, c.want)
			}
		}
	}
	checkEveryRuleFires(t, fired)
	named.write(t)
	if all < 300 {
		t.Errorf("the table has %d cases, want at least 300", all)
	}
	for session, d := range daemons.byHome {
		st, err := (&wire.Client{Socket: d.Socket}).Status(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if st.EvalErrors != 0 {
			t.Errorf("%s: %d evaluation errors (last: %s); rules must never fail at evaluation time", session, st.EvalErrors, st.LastEvalErr)
		}
	}

	sort.Strings(categories)
	var sum tally
	lines := []string{"quality: category      dangerous stopped  harmless allowed"}
	for _, c := range categories {
		tl := totals[c]
		lines = append(lines, fmt.Sprintf("quality: %-12s %5d/%-5d      %5d/%-5d", c, tl.stopped, tl.dangerous, tl.allowed, tl.harmless))
		sum.dangerous += tl.dangerous
		sum.stopped += tl.stopped
		sum.harmless += tl.harmless
		sum.allowed += tl.allowed
	}
	lines = append(lines, fmt.Sprintf("quality: %-12s %5d/%-5d      %5d/%-5d   (%d cases)", "all", sum.stopped, sum.dangerous, sum.allowed, sum.harmless, all))
	report(t, lines)
	checkDocFigures(t, lines)
}

// firedByPackTestsOnly are the rules no case line can show at work,
// because they answer file-system state a line cannot make, with where
// they are shown instead. Nothing else may be missing from the table.
var firedByPackTestsOnly = map[string]string{
	// More than realpath.MaxLookups distinct path prefixes in one call,
	// which a command within the shell's work budget cannot name.
	"self.paths_unresolved": "self_paths_test.rego, internal/input/identity_test.go",
	// A script the daemon's user cannot read: the table's daemon runs
	// as the test's user (root in CI), who reads every file.
	"self.unreadable_script": "self_unjudged_test.rego, internal/shell/unread_denied_test.go",
}

// checkEveryRuleFires fails for each rule id of the default pack that no
// case of the table fired: a rule nothing shows at work is a rule nobody
// knows still works (or ever could).
func checkEveryRuleFires(t *testing.T, fired map[string]bool) {
	t.Helper()
	for id := range firedByPackTestsOnly {
		if fired[id] {
			t.Errorf("%s fires in a case now: take it out of firedByPackTestsOnly", id)
		}
		fired[id] = true
	}
	names, _ := fs.Glob(policies.FS, "*.rego")
	var never []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.rego") {
			continue
		}
		text, err := fs.ReadFile(policies.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		rules, err := engine.FileRules(name, text)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rules {
			if !fired[r.ID] && !slices.Contains(never, r.ID+" ("+name+")") {
				never = append(never, r.ID+" ("+name+")")
			}
		}
	}
	if len(never) > 0 {
		t.Errorf("%d rule ids of the pack fire in no case of policies/cases: write a case that shows each at work (and its harmless look-alike), or remove the rule:\n  %s", len(never), strings.Join(never, "\n  "))
	}
}

// report prints figures to the test's output: shown by `go test -v`
// (`make test` runs this test verbosely to print them).
func report(t *testing.T, lines []string) {
	if testing.Verbose() {
		fmt.Println(strings.Join(lines, "\n"))
	} else {
		t.Log("\n" + strings.Join(lines, "\n"))
	}
}

// anchorCorpus is another guard's own test cases with its verdicts,
// shipped beside the repository as reference data.
const anchorCorpus = "../../shared/corpus/anchor-agentjail.jsonl"

// TestAnchorCorpus reports how often agentjail agrees with another
// guard's verdicts. Its choices differ from ours on purpose in places (it
// asks about anything unknown; it denies sudo, we ask), so this measures,
// it does not judge; it fails only on evaluation errors.
func TestAnchorCorpus(t *testing.T) {
	f, err := os.Open(anchorCorpus)
	if err != nil {
		t.Skipf("no reference corpus here: %v", err)
	}
	defer f.Close()
	d := daemontest.StartFor(t, "/Users/dev", nil)
	client := &wire.Client{Socket: d.Socket}

	type tally struct{ n, same, sameStop int }
	byGroup := map[string]*tally{}
	var groups []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var row struct {
			ToolName  string         `json:"tool_name"`
			ToolInput map[string]any `json:"tool_input"`
			Cwd       string         `json:"cwd"`
			Expect    wire.Verdict   `json:"expect"`
			Category  string         `json:"category"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("corpus line: %v", err)
		}
		ev, _ := json.Marshal(map[string]any{"tool_name": row.ToolName, "tool_input": row.ToolInput, "cwd": row.Cwd, "hook_event_name": "PreToolUse"})
		dec, err := client.Decide(context.Background(), &wire.Request{Event: ev, Cwd: row.Cwd})
		if err != nil {
			t.Fatal(err)
		}
		group, _, _ := strings.Cut(row.Category, "/")
		tl := byGroup[group]
		if tl == nil {
			tl = &tally{}
			byGroup[group] = tl
			groups = append(groups, group)
		}
		tl.n++
		if dec.Verdict == row.Expect {
			tl.same++
		}
		if (dec.Verdict == wire.Allow) == (row.Expect == wire.Allow) {
			tl.sameStop++
		}
	}
	st, err := client.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.EvalErrors != 0 {
		t.Errorf("%d evaluation errors on the corpus (last: %s)", st.EvalErrors, st.LastEvalErr)
	}
	sort.Strings(groups)
	lines := []string{"corpus: group             cases  same verdict  same stop/allow"}
	var sum tally
	for _, g := range groups {
		tl := byGroup[g]
		lines = append(lines, fmt.Sprintf("corpus: %-16s %5d  %5d (%3.0f%%)  %5d (%3.0f%%)", g, tl.n, tl.same, pct(tl.same, tl.n), tl.sameStop, pct(tl.sameStop, tl.n)))
		sum.n += tl.n
		sum.same += tl.same
		sum.sameStop += tl.sameStop
	}
	lines = append(lines, fmt.Sprintf("corpus: %-16s %5d  %5d (%3.0f%%)  %5d (%3.0f%%)", "all", sum.n, sum.same, pct(sum.same, sum.n), sum.sameStop, pct(sum.sameStop, sum.n)))
	report(t, lines)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// BenchmarkCaseTable measures the daemon's work per decision (building
// the input, parsing the shell command, evaluating the whole pack): over
// the everyday cases ("typical") and over the whole table, with the
// median and p99 per decision.
func BenchmarkCaseTable(b *testing.B) {
	// Every case evaluated, as a distinct call would be: the decision
	// cache would otherwise answer all but the first round.
	ctx := engine.NoCache(context.Background())
	home := b.TempDir()
	uid := daemontest.UID
	dec, err := policyset.New(ctx, policyset.Options{Pack: policies.FS, Home: home, UserHome: caseHome, UID: &uid})
	if err != nil {
		b.Fatal(err)
	}
	cases := loadCases(b, home)
	var typical, all []*wire.Request
	for category, list := range cases {
		for _, c := range list {
			if c.home != caseHome || c.uid != uid { // the decider's session
				continue
			}
			r := c.request()
			all = append(all, r)
			if category == "everyday" {
				typical = append(typical, r)
			}
		}
	}
	for _, r := range all { // warm up
		dec.Decide(ctx, r)
	}
	for _, set := range []struct {
		name string
		reqs []*wire.Request
	}{{"typical", typical}, {"all", all}} {
		b.Run(set.name, func(b *testing.B) {
			durations := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				dec.Decide(ctx, set.reqs[i%len(set.reqs)])
				durations = append(durations, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(durations)
			b.ReportMetric(float64(durations[len(durations)/2].Nanoseconds())/1e3, "median-µs")
			b.ReportMetric(float64(durations[len(durations)*99/100].Nanoseconds())/1e3, "p99-µs")
		})
	}
}

// Paths strictly inside the working directory skip some checks; a session
// whose working directory is itself sensitive must not benefit from that.
func TestSensitiveWorkingDirectory(t *testing.T) {
	d := daemontest.StartFor(t, caseHome, nil)
	client := &wire.Client{Socket: d.Socket}
	tests := []struct {
		cwd, command string
		want         wire.Verdict
	}{
		{caseHome + "/.aws", "cat credentials", wire.Deny},
		{caseHome + "/.ssh", "cp id_rsa /tmp/k", wire.Deny},
		{d.Home + "/policies", "rm -rf old", wire.Deny},
		{d.Home, "echo x > config.yaml", wire.Deny},
		{caseHome + "/.aws", "ls", wire.Allow},
		{caseProject, "cat README.md", wire.Allow},
	}
	for _, tt := range tests {
		ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": tt.cwd, "tool_input": map[string]any{"command": tt.command}})
		dec, err := client.Decide(context.Background(), &wire.Request{Event: ev})
		if err != nil {
			t.Fatal(err)
		}
		if dec.Verdict != tt.want {
			t.Errorf("in %s, %q: %s (%s), want %s", tt.cwd, tt.command, dec.Verdict, dec.Reason, tt.want)
		}
	}
}

// ruleID is how a rule id is written: family.name, lower case.
var ruleID = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$`)

var nameRules = flag.Bool("name-rules", false, "write into each deny or ask case that names no rule the id of the first rule of its verdict that fires now")

// caseNames collects, under -name-rules, the rule id to write into each
// case line that names none.
type caseNames map[string]map[int]string // file, line number: rule id

var named = caseNames{}

func (n caseNames) add(c tableCase, id string) {
	if id == "" {
		return
	}
	if n[c.file] == nil {
		n[c.file] = map[int]string{}
	}
	n[c.file][c.lineNo] = id
}

// write puts each collected id after its line's verdict (deny -> deny:ID),
// leaving the rest of the line as it was.
func (n caseNames) write(t *testing.T) {
	for file, ids := range n {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for lineNo, id := range ids {
			line := lines[lineNo-1]
			i := strings.IndexAny(line, " \t")
			lines[lineNo-1] = line[:i] + ":" + id + line[i:]
		}
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// firstOfKind is the id of the first rule of kind that fired.
func firstOfKind(rules []wire.Rule, kind wire.Verdict) string {
	for _, r := range rules {
		if r.Kind == kind {
			return r.ID
		}
	}
	return ""
}
