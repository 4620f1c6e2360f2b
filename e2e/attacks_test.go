package e2e

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// attack is one row of testdata/attacks.jsonl: a tool call an agent could
// make to switch agentjail off, blind it or make it lie, or a harmless
// look-alike of one that must stay allowed.
//
// Strings in tool_input, cwd and files may hold placeholders, replaced per
// run: {home} ($HOME), {aj} ($AGENTJAIL_HOME), {proj} (the project the
// agent works in, {home}/project), {sock} (the daemon's socket), {pid} (the
// daemon's pid), {ppid} and {pgid} (its parent's pid, this test, and
// its process group), {cgroup} (its cgroup v2 folder under
// /sys/fs/cgroup). {repeat} becomes Repeat.Unit Repeat.Times times, with {i}
// in the unit numbering the copies; "{nest}" becomes an object nested Nest
// levels deep (arrays with nest_array); "{raw:TEXT}" becomes TEXT as raw JSON (1e400, duplicate
// keys: shapes encoding/json would not write). A files value "@name" is
// the content of testdata/name, placeholders replaced; "->TARGET" makes a
// symbolic link to TARGET and "=>TARGET" a hard link, after the files;
// "tar:", "tgz:" or "zip:" followed by member names, one a line, builds
// that archive, with "NAME -> TARGET" a symbolic link member and
// "NAME => TARGET" a hard one (see archive).
type attack struct {
	Name      string            `json:"name"`
	Class     string            `json:"class"` // issue 9 item number and a short name
	ToolName  string            `json:"tool_name"`
	ToolInput json.RawMessage   `json:"tool_input"`
	Cwd       string            `json:"cwd,omitempty"`
	Files     map[string]string `json:"files,omitempty"` // written before the call
	Repeat    *struct {
		Unit  string `json:"unit"`
		Times int    `json:"times"`
	} `json:"repeat,omitempty"`
	Nest      int    `json:"nest,omitempty"`
	NestArray bool   `json:"nest_array,omitempty"` // nest arrays, not objects
	Expect    string `json:"expect"`               // "stopped" (deny or ask) or "allow"
}

const attacksFile = "testdata/attacks.jsonl"

func loadAttacks(t *testing.T) []attack {
	t.Helper()
	f, err := os.Open(attacksFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []attack
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var a attack
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("%s:%d: %v", attacksFile, n, err)
		}
		if a.Name == "" || a.Class == "" || a.ToolName == "" || (a.Expect != "stopped" && a.Expect != "allow") {
			t.Fatalf("%s:%d: a row needs name, class, tool_name and expect stopped|allow", attacksFile, n)
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// rawValue matches "{raw:TEXT}" as a JSON string.
var rawValue = regexp.MustCompile(`"\{raw:((?:[^"\\]|\\.)*)\}"`)

// event builds the hook event for a, as Claude Code sends it.
func (a attack) event(t *testing.T, vars *strings.Replacer) string {
	t.Helper()
	in := vars.Replace(string(a.ToolInput))
	if a.Repeat != nil {
		var b strings.Builder
		for i := range a.Repeat.Times {
			b.WriteString(strings.ReplaceAll(a.Repeat.Unit, "{i}", strconv.Itoa(i)))
		}
		quoted, _ := json.Marshal(b.String())
		in = strings.ReplaceAll(in, "{repeat}", string(quoted[1:len(quoted)-1]))
	}
	if a.Nest > 0 {
		nested := strings.Repeat(`{"a":`, a.Nest) + `"rm -rf ~"` + strings.Repeat("}", a.Nest)
		if a.NestArray {
			nested = strings.Repeat("[", a.Nest) + `"rm -rf ~"` + strings.Repeat("]", a.Nest)
		}
		in = strings.ReplaceAll(in, `"{nest}"`, nested)
	}
	in = rawValue.ReplaceAllStringFunc(in, func(m string) string {
		text, err := strconv.Unquote(`"` + rawValue.FindStringSubmatch(m)[1] + `"`)
		if err != nil {
			t.Fatalf("%s: %s: %v", a.Name, m, err)
		}
		return text
	})
	cwd := vars.Replace(a.Cwd)
	if cwd == "" {
		cwd = vars.Replace("{proj}")
	}
	head, _ := json.Marshal(map[string]any{
		"session_id": "attacks", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
		"permission_mode": "default", "hook_event_name": "PreToolUse",
		"tool_name": a.ToolName, "tool_use_id": "toolu_attack",
	})
	// tool_input goes in as text: the shapes above must reach the hook unchanged.
	return strings.TrimSuffix(string(head), "}") + `,"tool_input":` + in + "}"
}

// outcome classifies one hook run: "deny", "ask", "allow" (JSON allow or
// silence), or "fail-open" / "broken" for anything else, with a detail.
func outcome(r result) (string, string) {
	if r.stdout == "" {
		if r.code == 0 && r.stderr == "" {
			return "allow", ""
		}
		if r.code == 0 {
			return "fail-open", strings.TrimSpace(r.stderr)
		}
		return "broken", fmt.Sprintf("exit %d, stderr %q", r.code, r.stderr)
	}
	var out hookJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		return "broken", fmt.Sprintf("stdout %.200q is not the hook JSON", r.stdout)
	}
	v := out.HookSpecificOutput.PermissionDecision
	switch {
	case v == "deny" && r.code == 2, v == "ask" && r.code == 0, v == "allow" && r.code == 0 && r.stderr == "":
		return v, out.HookSpecificOutput.PermissionDecisionReason
	}
	return "broken", fmt.Sprintf("exit %d with %q", r.code, v)
}

// TestAttacks drives every row of testdata/attacks.jsonl through the real
// hook binary and one real daemon, from the agent's seat: each attack must
// be stopped (deny or ask, never the fail-open path), each look-alike
// allowed, and the same daemon must still answer afterwards.
func TestAttacks(t *testing.T) {
	attacks := loadAttacks(t)
	e := attackEnv(t)
	e.start()
	pid := e.daemon.Process.Pid

	// AGENTJAIL_ATTACKS_SHOW=1 logs every row's outcome and reason.
	show := os.Getenv("AGENTJAIL_ATTACKS_SHOW") != ""
	vars := attackVars(e)
	var (
		failed                                []string
		attacksN, stopped, harmlessN, allowed int
		classes                               = map[string][2]int{} // class -> held, rows
		classOrder                            []string
	)
	for _, a := range attacks {
		a.place(t, vars)
		got, detail := outcome(e.hook(a.event(t, vars)))
		if show {
			t.Logf("[%s] %s: %s %.200s", a.Class, a.Name, got, detail)
		}
		held := false
		if a.Expect == "stopped" {
			attacksN++
			held = got == "deny" || got == "ask"
			if held {
				stopped++
			}
		} else {
			harmlessN++
			held = got == "allow"
			if held {
				allowed++
			}
		}
		c, seen := classes[a.Class]
		if !seen {
			classOrder = append(classOrder, a.Class)
		}
		c[1]++
		if held {
			c[0]++
		} else {
			if len(detail) > 160 {
				detail = detail[:160] + "…"
			}
			failed = append(failed, fmt.Sprintf("  [%s] %s: want %s, got %s %s", a.Class, a.Name, a.Expect, got, detail))
		}
		classes[a.Class] = c
	}

	// The same daemon, still alive, still answering.
	select {
	case <-e.stopped:
		t.Fatalf("the daemon died during the attacks:\n%s", e.logs)
	default:
	}
	if got, detail := outcome(e.hook(bashEvent("ls ./src"))); got != "allow" {
		t.Errorf("after the attacks a harmless call got %s %s", got, detail)
	}
	if got, _ := outcome(e.hook(bashEvent("rm -rf ~"))); got != "deny" {
		t.Errorf("after the attacks rm -rf ~ got %s", got)
	}
	if e.daemon.Process.Pid != pid {
		t.Errorf("the daemon was replaced")
	}

	// Agent text with control characters (the rows above send CR and ESC)
	// is shown neutralised: nothing can rewrite the user's terminal.
	for _, args := range [][]string{{"logs", "-n", "1000"}, {"status"}} {
		out := e.cli(args...).stdout
		if i := strings.IndexFunc(out, func(r rune) bool {
			return (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0)
		}); i >= 0 {
			t.Errorf("agentjail %s shows a raw control character %q: %.80q", strings.Join(args, " "), out[i], out[max(0, i-40):])
		}
	}

	lines := []string{fmt.Sprintf("attacks: %d stopped of %d, harmless: %d allowed of %d", stopped, attacksN, allowed, harmlessN)}
	for _, c := range classOrder {
		lines = append(lines, fmt.Sprintf("  %-20s %3d/%d held", c, classes[c][0], classes[c][1]))
	}
	// Shown by go test -v, so the figures are visible without a failure.
	if testing.Verbose() {
		fmt.Println(strings.Join(lines, "\n"))
	} else {
		t.Log("\n" + strings.Join(lines, "\n"))
	}
	// make test runs every package without -v, where a passing test's
	// output is not shown: it names a file for the figures instead, and
	// prints them afterwards, so the table runs once.
	if path := os.Getenv("AGENTJAIL_ATTACK_FIGURES"); path != "" {
		if err := appendFile(path, strings.Join(lines, "\n")+"\n"); err != nil {
			t.Errorf("writing the figures for make test: %v", err)
		}
	}
	if attacksN < 70 || harmlessN < 30 {
		t.Errorf("the table has %d attacks and %d look-alikes, want at least 70 and 30", attacksN, harmlessN)
	}
	if len(failed) > 0 {
		t.Errorf("%d rows did not hold:\n%s", len(failed), strings.Join(failed, "\n"))
	}
}

// attackEnv is the installation the attack rows run against, its daemon
// not started: a project, a configured policy folder and a user policy
// an attack may edit.
func attackEnv(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	proj := filepath.Join(e.home, "project")
	teamDir := filepath.Join(e.home, "team-policies")
	for _, dir := range []string{proj, teamDir, filepath.Join(e.home, ".claude")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(e.ajHome, 0o700)
	// The rows judge verdicts: an ask is answered at once (a deny saying
	// a human must approve, where the agent cannot ask), not held for a
	// person.
	if err := os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte("policy_dirs: ["+strconv.Quote(teamDir)+"]\napproval_timeout: 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The user rule compares, so it cannot fail on odd input shapes: those
	// rows must be stopped by agentjail itself, not by an evaluation error.
	e.writePolicy("team.rego", "package agentjail\n\ndeny contains \"no force pushes\" if input.tool_input.command == \"git push --force\"\n")
	return e
}

// attackVars are the placeholders' values for e, its daemon started.
func attackVars(e *env) *strings.Replacer {
	pid := e.daemon.Process.Pid
	pgid, _ := syscall.Getpgid(pid)
	return strings.NewReplacer("{home}", e.home, "{aj}", e.ajHome, "{proj}", filepath.Join(e.home, "project"), "{sock}", e.socket, "{pid}", strconv.Itoa(pid),
		"{ppid}", strconv.Itoa(os.Getpid()), "{pgid}", strconv.Itoa(pgid), "{cgroup}", cgroupOf(pid))
}

// place writes a's files: contents first, then the links.
func (a attack) place(t *testing.T, vars *strings.Replacer) {
	t.Helper()
	for path, content := range a.Files {
		if strings.HasPrefix(content, "->") || strings.HasPrefix(content, "=>") {
			continue
		}
		if name, ok := strings.CutPrefix(content, "@"); ok {
			b, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatalf("%s: %v", a.Name, err)
			}
			content = string(b)
		}
		path = vars.Replace(path)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, archive(t, vars.Replace(content)), 0o644); err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
	}
	for path, content := range a.Files {
		path = vars.Replace(path)
		link := os.Symlink
		target, ok := strings.CutPrefix(content, "->")
		if !ok {
			if target, ok = strings.CutPrefix(content, "=>"); !ok {
				continue
			}
			link = os.Link
		}
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.Remove(path)
		if err := link(vars.Replace(target), path); err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
	}
}

// TestPlantedPolicies places, as only the user could, policy files that
// define the packages the daemon uses internally or the data the locked
// rules read, and checks that after the reload nothing is unlocked: the
// dangerous calls are still denied and the daemon still answers.
func TestPlantedPolicies(t *testing.T) {
	e := newEnv(t)
	e.start()
	pid := strconv.Itoa(e.daemon.Process.Pid)
	dangerous := []struct{ name, event string }{
		{"rm -rf ~", bashEvent("rm -rf ~")},
		{"kill the daemon", bashEvent("kill " + pid)},
		{"Write config.yaml", fmt.Sprintf(`{"tool_name":"Write","cwd":%q,"tool_input":{"file_path":%q,"content":"fail_mode: open\n"}}`, e.home, filepath.Join(e.ajHome, "config.yaml"))},
	}
	tests := []struct{ name, text string }{
		{"verdict package emptied", "package agentjail_verdict\n\ndeny := set()\n\nask := set()\n"},
		{"verdict package, a rule beside it", "package agentjail_verdict\n\nimport rego.v1\n\nallow contains {\"id\": \"x\", \"msg\": \"ok\"} if true\n"},
		{"verdict subpackage", "package agentjail_verdict.extra\n\nx := 1\n"},
		{"config disables the rules", "package config\n\ndisabled_rules := [\"fs.rm_catastrophic\", \"self.stop_daemon\", \"self.home_write\", \"self.protected_write\"]\n"},
		{"config empties the protected paths", "package config\n\nprotected_paths := []\n\nallowed_paths := [\"/\"]\n"},
		{"program groups emptied", "package agentjail\n\nprogram_groups := {}\n"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := fmt.Sprintf("planted%d.rego", i)
			file := filepath.Join(e.ajHome, "policies", name)
			e.writePolicy(name, tt.text)
			// Loaded or refused, the daemon has read it once status names it.
			// The reload is asked for, not left to the file watcher, so the
			// test does not depend on when the watch starts.
			waitFor(t, "the daemon to read "+name, func() bool {
				e.cli("reload")
				return strings.Contains(e.cli("status", "--json").stdout, file)
			})
			for _, d := range dangerous {
				if got, detail := outcome(e.hook(d.event)); got != "deny" {
					t.Errorf("%s: got %s %s", d.name, got, detail)
				}
			}
			if got, detail := outcome(e.hook(bashEvent("ls ./src"))); got == "fail-open" || got == "broken" {
				t.Errorf("a harmless call: %s %s", got, detail)
			}
			os.Remove(file)
			waitFor(t, "the daemon to forget "+name, func() bool {
				e.cli("reload")
				return !strings.Contains(e.cli("status", "--json").stdout, file)
			})
		})
	}
}

// archive is a files value's bytes: the archive a "tar:", "tgz:" or
// "zip:" value describes, else the text itself.
func archive(t *testing.T, content string) []byte {
	kind, spec, ok := strings.Cut(content, ":")
	if !ok || (kind != "tar" && kind != "tgz" && kind != "zip") {
		return []byte(content)
	}
	var buf bytes.Buffer
	var tw *tar.Writer
	var zw *zip.Writer
	if kind == "zip" {
		zw = zip.NewWriter(&buf)
	} else {
		tw = tar.NewWriter(&buf)
	}
	for _, line := range strings.Split(spec, "\n") {
		if line == "" {
			continue
		}
		name, target, hard := line, "", false
		if n, tg, ok := strings.Cut(line, " -> "); ok {
			name, target = n, tg
		} else if n, tg, ok := strings.Cut(line, " => "); ok {
			name, target, hard = n, tg, true
		}
		var err error
		if zw != nil {
			h := &zip.FileHeader{Name: name}
			if target != "" {
				h.SetMode(os.ModeSymlink | 0o777)
			}
			var f io.Writer
			if f, err = zw.CreateHeader(h); err == nil {
				_, err = f.Write([]byte(target))
			}
		} else {
			h := &tar.Header{Name: name, Mode: 0o644, Typeflag: tar.TypeReg}
			switch {
			case hard:
				h.Typeflag, h.Linkname = tar.TypeLink, target
			case target != "":
				h.Typeflag, h.Linkname = tar.TypeSymlink, target
			}
			err = tw.WriteHeader(h)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if zw != nil {
		zw.Close()
		return buf.Bytes()
	}
	tw.Close()
	if kind == "tar" {
		return buf.Bytes()
	}
	var z bytes.Buffer
	gw := gzip.NewWriter(&z)
	gw.Write(buf.Bytes())
	gw.Close()
	return z.Bytes()
}

// appendFile adds text to the end of the file at path, made if need be:
// more than one test writes its figures there.
func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// cgroupOf is the cgroup v2 folder of process pid ("/sys/fs/cgroup/..."),
// or a folder no process is in where it has none.
func cgroupOf(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "0::"); ok {
			return filepath.Join("/sys/fs/cgroup", rest)
		}
	}
	return "/sys/fs/cgroup/agentjail-none"
}
