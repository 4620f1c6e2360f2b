package policyset_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

// The fuzzed session: a fixed home, so seeds that name it mean something.
const (
	fuzzHome = "/home/dev"
	fuzzProj = "/home/dev/project"
)

// FuzzDecide feeds event bytes to the decide path (input building,
// shell parsing, derivation, evaluation with the embedded pack) and checks
// what must hold for every input: no panic; a verdict that is allow, ask
// or deny, or a *wire.Error only for bytes that are not one JSON object; a
// call whose shell parse hit a bound, or a shell tool whose command is not
// a string, is never allowed; a shell tool (Bash in any case) is allowed
// only on a command the daemon read (under any key or case) and parsed.
// The seeds are the policy case table and the end-to-end attack table;
// `make test` fuzzes for a short while on top.
func FuzzDecide(f *testing.F) {
	for _, ev := range caseTableSeeds(f) {
		f.Add(ev)
	}
	for _, ev := range attackSeeds(f) {
		f.Add(ev)
	}
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":1e400}}`))
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf ~"}}`))
	f.Add([]byte(`{"tool_name":"BAsh","tool_input":{"CommAnd":"rm -rf ~"}}`))
	f.Add([]byte(`{"tool_name":"bash","tool_input":{"Command":"ls","COMMAND":"rm -rf ~"}}`))
	f.Add([]byte(`[1,2,3]`))
	f.Add([]byte(`{}`))

	ctx := context.Background()
	dec, err := policyset.New(ctx, policyset.Options{Pack: policies.FS, Home: f.TempDir(), UserHome: fuzzHome})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, event []byte) {
		d, err := dec.Decide(ctx, &wire.Request{Event: event, Cwd: fuzzProj, Explain: true})
		if err != nil {
			var werr *wire.Error
			if !errors.As(err, &werr) {
				t.Fatalf("error %v (%T) is not a *wire.Error", err, err)
			}
			if isObject(event) {
				t.Fatalf("a JSON object was refused: %v", err)
			}
			return
		}
		if d == nil {
			t.Fatal("no decision and no error")
		}
		switch d.Verdict {
		case wire.Allow, wire.Ask, wire.Deny:
		default:
			t.Fatalf("verdict %q", d.Verdict)
		}
		if d.Verdict != wire.Allow {
			return
		}
		// A map, not a struct: encoding/json matches struct fields without
		// regard to case, and "tool_nAme" is not "tool_name".
		var in map[string]any
		dj := json.NewDecoder(bytes.NewReader(d.Input))
		dj.UseNumber() // 1e400 is a valid JSON number, not a float64
		if err := dj.Decode(&in); err != nil {
			t.Fatalf("the explained input does not decode: %v", err)
		}
		derived, _ := in["agentjail"].(map[string]any)
		if pe, _ := derived["parse_error"].(string); pe != "" {
			t.Fatalf("allowed although the parse hit a bound: %s", pe)
		}
		// A shell tool is judged on the command the daemon reads, under
		// whatever key or case the agent put it (CommAnd, CMD): Bash in
		// any case is one, and an allowed one had a command string that
		// was parsed. Where no command string is found the parse error
		// above asks.
		if name, _ := in["tool_name"].(string); strings.EqualFold(name, "Bash") && derived["tool_kind"] != "shell" {
			t.Fatalf("a %s call was allowed as %v, not judged as a shell call", name, derived["tool_kind"])
		}
		if derived["tool_kind"] == "shell" {
			if _, ok := derived["command"].(string); !ok {
				t.Fatalf("a shell call whose command is %T was allowed", derived["command"])
			}
			if _, ok := derived["commands"].([]any); !ok {
				t.Fatalf("a shell call was allowed without its commands parsed: %v", derived["commands"])
			}
		}
	})
}

// isObject reports whether b is exactly one JSON object, as the daemon
// reads events.
func isObject(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return false
	}
	return !dec.More()
}

// caseTableSeeds turns every fourth line of policies/cases/*.txt (format
// in its README) into an event: enough to reach every rule group, few
// enough that the fuzzer's baseline run fits its short time in CI.
func caseTableSeeds(f *testing.F) [][]byte {
	files, _ := filepath.Glob("../../policies/cases/*.txt")
	if len(files) == 0 {
		f.Fatal("no case files in ../../policies/cases")
	}
	r := strings.NewReplacer(`\n`, "\n", "{aj}", fuzzHome+"/.agentjail", "{pid}", strconv.Itoa(os.Getpid()))
	var out [][]byte
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") || i%4 != 0 {
				continue
			}
			_, call, _ := strings.Cut(line, " ")
			call = r.Replace(strings.TrimSpace(call))
			tool, input := "Bash", map[string]any{"command": call}
			if strings.HasPrefix(call, "@") {
				fields := strings.SplitN(call[1:], " ", 3)
				tool, input = fields[0], map[string]any{}
				if len(fields) > 1 {
					input["file_path"] = fields[1]
				}
				if len(fields) == 3 {
					json.Unmarshal([]byte(fields[2]), &input)
				}
			}
			ev, _ := json.Marshal(map[string]any{"tool_name": tool, "tool_input": input, "cwd": fuzzProj, "hook_event_name": "PreToolUse"})
			out = append(out, ev)
		}
	}
	return out
}

// attackSeeds turns ../../e2e/testdata/attacks.jsonl into events, expanding
// its placeholders (documented in e2e/attacks_test.go) for the fuzzed
// session. Repetitions are kept small: the fuzzer grows inputs itself,
// and the full-size rows run end to end in TestAttacks.
func attackSeeds(f *testing.F) [][]byte {
	file, err := os.Open("../../e2e/testdata/attacks.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	defer file.Close()
	vars := strings.NewReplacer("{home}", fuzzHome, "{aj}", fuzzHome+"/.agentjail", "{proj}", fuzzProj,
		"{sock}", fuzzHome+"/.agentjail/agentjail.sock", "{pid}", strconv.Itoa(os.Getpid()))
	var out [][]byte
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var a struct {
			ToolName  string          `json:"tool_name"`
			ToolInput json.RawMessage `json:"tool_input"`
			Repeat    *struct {
				Unit  string `json:"unit"`
				Times int    `json:"times"`
			} `json:"repeat"`
			Nest      int  `json:"nest"`
			NestArray bool `json:"nest_array"`
		}
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			f.Fatal(err)
		}
		in := vars.Replace(string(a.ToolInput))
		if a.Repeat != nil {
			var b strings.Builder
			for i := range min(a.Repeat.Times, 300) {
				b.WriteString(strings.ReplaceAll(a.Repeat.Unit, "{i}", strconv.Itoa(i)))
			}
			q, _ := json.Marshal(b.String())
			in = strings.ReplaceAll(in, "{repeat}", string(q[1:len(q)-1]))
		}
		if a.Nest > 0 {
			n := min(a.Nest, 300)
			nested := strings.Repeat(`{"a":`, n) + `"rm -rf ~"` + strings.Repeat("}", n)
			if a.NestArray {
				nested = strings.Repeat("[", n) + `"rm -rf ~"` + strings.Repeat("]", n)
			}
			in = strings.ReplaceAll(in, `"{nest}"`, nested)
		}
		in = strings.NewReplacer(`"{raw:1e400}"`, "1e400").Replace(in)
		if strings.HasPrefix(in, `"{raw:`) {
			s, _ := strconv.Unquote(in)
			in = strings.TrimSuffix(strings.TrimPrefix(s, "{raw:"), "}")
		}
		name, _ := json.Marshal(a.ToolName)
		out = append(out, []byte(`{"tool_name":`+string(name)+`,"cwd":"`+fuzzProj+`","hook_event_name":"PreToolUse","tool_input":`+in+`}`))
	}
	if err := sc.Err(); err != nil {
		f.Fatal(err)
	}
	return out
}
