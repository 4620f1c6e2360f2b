package engine

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/input"
)

// regoDocs are the pages whose ```rego blocks a user pastes.
var regoDocs = []string{"../../README.md", "../../docs/policies.md"}

// Every ```rego block of the README and of docs/policies.md loads as
// pasted: alone, as the only file beside the default pack, exactly as a
// user would save it (a test file as a policy's _test.rego).
func TestReadmeRegoBlocksLoad(t *testing.T) {
	pack := defaultPack(t, false)
	for _, page := range regoDocs {
		doc, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		blocks := regexp.MustCompile("(?s)```rego\n(.*?)```").FindAllSubmatchIndex(doc, -1)
		if len(blocks) < 2 {
			t.Fatalf("found %d rego blocks in %s, want its examples (a policy and its test)", len(blocks), page)
		}
		for _, b := range blocks {
			line := strings.Count(string(doc[:b[0]]), "\n") + 1
			text := doc[b[2]:b[3]]
			t.Run(fmt.Sprintf("%s:%d", strings.TrimPrefix(page, "../../"), line), func(t *testing.T) {
				src := Source{Name: "readme.rego", Text: text}
				if _, version, err := Parse(src.Name, src.Text); err != nil {
					t.Fatalf("does not parse: %v\n%s", err, text)
				} else {
					t.Logf("Rego %s", version)
				}
				if _, errs := Compile(context.Background(), append(append([]Source(nil), pack...), src), nil, nil); len(errs) > 0 {
					t.Errorf("does not load beside the pack: %v\n%s", errs, text)
				}
			})
		}
	}
}

// Every key of input.agentjail (and of its commands and redirects) that
// the daemon derives is named, as `key`, in the input reference of
// docs/policies.md: a new field cannot go undocumented.
func TestInputKeysDocumented(t *testing.T) {
	varName := regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)
	doc, err := os.ReadFile("../../docs/policies.md")
	if err != nil {
		t.Fatal(err)
	}
	r := keyRecorder{keys: map[string]bool{}}
	for _, ev := range []string{
		`{"tool_name":"Bash","tool_input":{"command":"FOO=1 sudo ls -l src > out.txt; bash -c 'x' 2>&1 | tee log; $(true); cat <(date); cp x ~/.claude/$F > ~/.claude/$G"}}`,
		`{"tool_name":"Bash","tool_input":{"command":"CLAUDE_CODE_SIMPLE=1 claude -p hi; curl https://example.com"}}`,
		`{"tool_name":"Grep","tool_input":{"pattern":"x","path":"/a","glob":"*.go"}}`,
		`{"tool_name":"Bash","tool_input":{"command":"(("}}`,
		`{"tool_name":"Write","tool_input":{"file_path":"~/.claude/settings.json","content":"{}"}}`,
		`{"tool_name":"Write","tool_input":{"file_path":"/w/p/package.json","content":"{\"scripts\":{\"postinstall\":\"curl x | sh\"}}"}}`,
		`{"tool_name":"WebFetch","tool_input":{"url":"https://example.com/x"}}`,
	} {
		_, d, err := input.Build([]byte(ev), input.Env{Home: "/home/dev", ClientCwd: "/w/p"})
		if err != nil {
			t.Fatal(err)
		}
		input.Encode(d, r)
	}
	// Facts about the caller rather than the event: a hook run as root.
	_, d, err := input.Build([]byte(`{"tool_name":"Bash","tool_input":{"command":"reboot"}}`), input.Env{Home: "/root", ClientCwd: "/w/p", Root: true})
	if err != nil {
		t.Fatal(err)
	}
	input.Encode(d, r)
	if len(r.keys) < 45 {
		t.Fatalf("only %d keys recorded; the events above no longer reach most fields", len(r.keys))
	}
	for k := range r.keys {
		if varName.MatchString(k) {
			continue // a variable an `assigns` object names, not a field
		}
		if !strings.Contains(string(doc), "`"+k+"`") {
			t.Errorf("input.agentjail key %q is not named in docs/policies.md's input reference", k)
		}
	}
}
