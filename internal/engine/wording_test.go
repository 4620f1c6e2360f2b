package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
)

// A file written half in v0 and half in v1 is named as such, at its v0
// line; files in one syntax (including v0 with future keywords, and v1
// with a plain mistake) get their own errors or load.
func TestMixedRegoVersions(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		wantErr string // "" when it must load
		line    int
	}{
		{"v0 rule then v1 rule", "package agentjail\n\ndeny[msg] {\n  input.tool_name == \"Bash\"\n  msg := \"x\"\n}\n\nask contains msg if {\n  msg := \"y\"\n}\n",
			"this file mixes Rego v0 and v1: line 3 is written in v0", 3},
		{"v1 rule then v0 rule", "package agentjail\n\nask contains msg if {\n  msg := \"y\"\n}\n\ndeny[msg] {\n  msg := \"x\"\n}\n",
			"this file mixes Rego v0 and v1: line 7 is written in v0 (a rule without `if`, or a set rule without `contains`), line 3 in v1", 7},
		{"import rego.v1 over a v0 rule", "package agentjail\n\nimport rego.v1\n\ndeny[msg] {\n  msg := \"x\"\n}\n",
			"this file mixes Rego v0 and v1: line 5", 5},
		{"v1 rule missing its if", "package agentjail\n\nask contains msg if {\n  msg := \"y\"\n}\n\ndeny contains msg {\n  msg := \"x\"\n}\n",
			"this file mixes Rego v0 and v1: line 7", 7},
		{"all v0", seedV0, "", 0},
		{"all v1", askV1, "", 0},
		{"v0 with future keywords", "package agentjail\n\nimport future.keywords.if\nimport future.keywords.contains\n\ndeny contains msg if {\n  msg := \"x\"\n}\n\nask[msg] {\n  msg := \"y\"\n}\n", "", 0},
		{"v0 with a plain mistake", "package agentjail\n\ndeny[msg] {\n  msg := \n}\n", "mine.rego:5:1: unexpected } token", 0},
		{"the word if in a v0 comment", "package agentjail\n\n# deny if risky\ndeny[msg] {\n  msg := \n}\n", "mine.rego:6:1: unexpected } token", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := Compile(context.Background(), []Source{{Name: "mine.rego", Text: []byte(tt.text)}}, nil, nil)
			if tt.wantErr == "" {
				if len(errs) > 0 {
					t.Fatalf("did not load: %v", errs)
				}
				return
			}
			if len(errs) == 0 {
				t.Fatal("loaded")
			}
			got := errs[0].String()
			if !strings.Contains(got, tt.wantErr) {
				t.Errorf("got %q, want %q", got, tt.wantErr)
			}
			if tt.line > 0 && (len(errs) != 1 || errs[0].Line != tt.line || errs[0].File != "mine.rego") {
				t.Errorf("want one error at mine.rego:%d, got %v", tt.line, errs)
			}
			if tt.line == 0 && strings.Contains(got, "mixes") {
				t.Errorf("not a mix: %q", got)
			}
		})
	}
}

func TestNetworkBuiltinsRefusedInOurWords(t *testing.T) {
	tests := []struct{ name, call, builtin string }{
		{"http.send", `http.send({"method": "get", "url": "http://127.0.0.1/"})`, "http.send"},
		{"net.lookup_ip_addr", `net.lookup_ip_addr("localhost")`, "net.lookup_ip_addr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package agentjail\n\ndeny contains msg if {\n  r := " + tt.call + "\n  r\n  msg := \"x\"\n}\n"
			_, errs := Compile(context.Background(), []Source{{Name: "net.rego", Text: []byte(src)}}, nil, nil)
			if len(errs) == 0 {
				t.Fatal("loaded")
			}
			if got := errs[0].String(); !strings.HasPrefix(errs[0].Message, "policies run offline: "+tt.builtin+" is not available") || !strings.Contains(got, "net.rego:4") {
				t.Errorf("got %q", got)
			}
		})
	}
}

func TestReasonsJoinCleanly(t *testing.T) {
	tests := []struct {
		name string
		msgs []string
		want string
	}{
		{"one keeps its period", []string{"Blocked: a."}, "Blocked: a."},
		{"periods before a separator go", []string{"a.", "b.", "c."}, "a; b; c."},
		{"no periods", []string{"a", "b"}, "a; b"},
		{"an ellipsis is trimmed too", []string{"wait...", "b"}, "wait; b"},
		{"a period inside stays", []string{"use v1.2 instead.", "b"}, "use v1.2 instead; b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := JoinReasons(tt.msgs); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	// Through evaluation: two deny rules ending in periods.
	src := "package agentjail\n\ndeny contains \"First reason.\" if input.x\n\ndeny contains \"Second reason.\" if input.x\n"
	e, errs := Compile(context.Background(), []Source{{Name: "two.rego", Text: []byte(src)}}, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	d, err := e.Eval(context.Background(), map[string]any{"x": true})
	if err != nil || d.Verdict != wire.Deny || d.Reason != "First reason; Second reason." {
		t.Errorf("err %v, decision %+v", err, d)
	}
}

func TestRuleIDs(t *testing.T) {
	src := `package agentjail

deny contains {"id": "team.one", "msg": "a"} if input.x

allow contains "no id" if input.x

helper contains {"id": "not.a.verdict", "msg": "c"} if input.x
`
	v0 := Source{Name: "v0.rego", Text: []byte("package agentjail\n\nask[{\"id\": \"team.two\", \"msg\": \"b\"}] {\n\tinput.x\n}\n")}
	e, errs := Compile(context.Background(), []Source{{Name: "ids.rego", Text: []byte(src)}, v0}, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := strings.Join(e.RuleIDs(), ","); got != "team.one,team.two" {
		t.Errorf("ids %s", got)
	}
	if got := e.UnknownRuleIDs([]string{"team.one", "team.too", "not.a.verdict"}); strings.Join(got, ",") != "team.too,not.a.verdict" {
		t.Errorf("unknown %v", got)
	}
	// A computed id: nothing can be said for sure.
	dyn := src + "\ndeny contains {\"id\": concat(\".\", [\"team\", \"three\"]), \"msg\": \"d\"} if input.x\n"
	e, errs = Compile(context.Background(), []Source{{Name: "ids.rego", Text: []byte(dyn)}}, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := e.UnknownRuleIDs([]string{"team.three", "whatever"}); got != nil {
		t.Errorf("unknown %v with a computed id", got)
	}
	// The default pack's ids are all written out.
	pack, errs := Compile(context.Background(), defaultPack(t, false), nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(pack.RuleIDs()) < 50 || pack.UnknownRuleIDs([]string{"git.force_push_protected"}) != nil || len(pack.UnknownRuleIDs([]string{"git.force_psuh"})) != 1 {
		t.Errorf("pack ids: %d, %v", len(pack.RuleIDs()), pack.UnknownRuleIDs([]string{"git.force_push_protected", "git.force_psuh"}))
	}
}
