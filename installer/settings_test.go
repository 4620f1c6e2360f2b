package installer

import (
	"encoding/json"
	"flag"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files")

var ourEntry = HookEntry{Matcher: "*", Hooks: []HookCommand{{Type: "command", Command: "/home/u/.agentjail/bin/agentjail-hook", Timeout: 5}}}

// settingsFiles are real-world shapes of ~/.claude/settings.json.
var settingsFiles = []struct {
	name, text string
}{
	{"missing", ""},
	{"empty object", "{}"},
	{"empty object with newline", "{}\n"},
	{"empty object with spaces", "{ }\n"},
	{"plain keys", "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test)\"]\n  }\n}\n"},
	{"other hooks", "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"prettier --write\"}]}\n    ]\n  }\n}\n"},
	{"other PreToolUse hooks", "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"~/bin/audit.sh\"}\n        ]\n      }\n    ]\n  },\n  \"model\": \"sonnet\"\n}\n"},
	{"empty hooks", "{\"hooks\": {}}\n"},
	{"empty PreToolUse", "{\n  \"hooks\": {\n    \"PreToolUse\": []\n  }\n}\n"},
	{"unusual key order and tabs", "{\n\t\"zeta\": 1,\n\t\"hooks\": {\n\t\t\"Stop\": []\n\t},\n\t\"alpha\": [1, 2, 3]\n}\n"},
	{"compact one line", `{"model":"opus","hooks":{"PostToolUse":[]}}`},
	{"unicode and escapes", "{\n  \"note\": \"caf\\u00e9 \\\"quoted\\\" \\\\ path\",\n  \"emoji\": \"✓\"\n}\n"},
	{"our hook already present", "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"*\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"/home/u/.agentjail/bin/agentjail-hook\",\n            \"timeout\": 5\n          }\n        ]\n      }\n    ]\n  }\n}\n"},
	{"large", largeSettings()},
}

func largeSettings() string {
	var b strings.Builder
	b.WriteString("{\n  \"permissions\": {\n    \"allow\": [\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "      \"Bash(tool-%d:*)\",\n", i)
	}
	b.WriteString("      \"Read\"\n    ]\n  },\n  \"hooks\": {\"Notification\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send hi\"}]}]}\n}\n")
	return b.String()
}

func TestAddHookKeepsEverythingElse(t *testing.T) {
	for _, tt := range settingsFiles {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AddHook("settings.json", []byte(tt.text), ourEntry)
			if err != nil {
				t.Fatal(err)
			}
			if !HasHook(got) {
				t.Fatalf("no hook in:\n%s", got)
			}
			// Adding again changes nothing, byte for byte.
			again, err := AddHook("settings.json", got, ourEntry)
			if err != nil || string(again) != string(got) {
				t.Errorf("second run changed the file:\n%s\n---\n%s", got, again)
			}
			// Exactly one entry of ours; everything else as it was.
			var before, after map[string]any
			json.Unmarshal([]byte(tt.text), &before)
			if err := json.Unmarshal(got, &after); err != nil {
				t.Fatalf("result is not JSON: %v\n%s", err, got)
			}
			if n := withoutOurs(after); n != 1 {
				t.Errorf("%d entries of ours, want 1", n)
			}
			withoutOurs(before)
			if before == nil {
				before = map[string]any{}
			}
			if !reflect.DeepEqual(before, after) {
				t.Errorf("other content changed:\nbefore %v\nafter  %v", before, after)
			}
			// The text before the inserted part is untouched.
			if tt.text != "" && !strings.HasPrefix(string(got), commonPrefix(tt.text, string(got))) {
				t.Errorf("prefix changed")
			}
		})
	}
}

// withoutOurs strips our entries from settings, then empty PreToolUse
// and hooks, and returns how many entries it stripped.
func withoutOurs(settings map[string]any) int {
	hooks, ok := settings["hooks"].(map[string]any)
	if !ok {
		return 0
	}
	n := 0
	if pre, ok := hooks["PreToolUse"].([]any); ok {
		var kept []any
		for _, e := range pre {
			b, _ := json.Marshal(e)
			if strings.Contains(string(b), "agentjail-hook") {
				n++
			} else {
				kept = append(kept, e)
			}
		}
		hooks["PreToolUse"] = kept
		if len(kept) == 0 {
			delete(hooks, "PreToolUse")
		}
	}
	if len(hooks) == 0 {
		delete(settings, "hooks")
	}
	return n
}

func commonPrefix(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[:i]
}

func TestRemoveHooksRestoresNeighbours(t *testing.T) {
	for _, tt := range settingsFiles {
		if tt.name == "our hook already present" {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			with, err := AddHook("settings.json", []byte(tt.text), ourEntry)
			if err != nil {
				t.Fatal(err)
			}
			without, removed, err := RemoveHooks("settings.json", with)
			if err != nil || !removed {
				t.Fatalf("removed=%v err=%v", removed, err)
			}
			if HasHook(without) {
				t.Errorf("hook still there:\n%s", without)
			}
			// Where the PreToolUse array already had entries, removal is the
			// exact inverse of adding.
			if strings.Contains(tt.text, `"PreToolUse": [`) && strings.Contains(tt.text, "audit.sh") && string(without) != tt.text {
				t.Errorf("not restored:\n%s\nwant\n%s", without, tt.text)
			}
		})
	}
}

func TestRefusesBrokenSettings(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"trailing comma", "{\n  \"model\": \"opus\",\n}\n", "settings.json:3:1:"},
		{"unclosed", "{\n  \"hooks\": {\n", "settings.json:3:1:"},
		{"comment", "{\n  // my settings\n  \"a\": 1\n}\n", "settings.json:2:3:"},
		{"not an object", "[1, 2]\n", "not a JSON object"},
		{"hooks not an object", "{\"hooks\": []}", "\"hooks\" is not an object"},
		{"PreToolUse not an array", "{\"hooks\": {\"PreToolUse\": {}}}", "\"hooks.PreToolUse\" is not an array"},
		{"hooks written twice", "{\n  \"hooks\": {\"Stop\": []},\n  \"model\": \"opus\",\n  \"hooks\": {\"PostToolUse\": []}\n}\n", `the key "hooks" is written twice (lines 2 and 4)`},
		{"hooks written twice in one line", `{"hooks":{},"hooks":{}}`, `the key "hooks" is written twice (lines 1 and 1)`},
		{"PreToolUse written twice", "{\"hooks\": {\n  \"PreToolUse\": [],\n  \"PreToolUse\": []\n}}\n", `the key "hooks.PreToolUse" is written twice (lines 2 and 3)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := AddHook("settings.json", []byte(tt.text), ourEntry)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestAddHookGolden(t *testing.T) {
	for _, tt := range settingsFiles {
		switch tt.name {
		case "other hooks", "compact one line", "unusual key order and tabs", "missing":
		default:
			continue
		}
		got, err := Options{}.addHooks("claude-code", "settings.json", []byte(tt.text), ourEntry)
		if err != nil {
			t.Fatal(err)
		}
		sameAsGolden(t, strings.ReplaceAll(tt.name, " ", "_")+".golden.json", got)
	}
}

// The PostToolUse entry goes beside the PreToolUse one, the same command
// with --post and a short timeout; adding both again changes nothing,
// and where both arrays were there, removing gives the file back byte
// for byte.
func TestPostEntryRoundTrip(t *testing.T) {
	user := "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"audit.sh\"}]}\n    ],\n    \"PostToolUse\": [\n      {\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"prettier --write\"}]}\n    ]\n  }\n}\n"
	o := Options{Home: "/home/u/.agentjail", FailClosed: true, ApprovalTimeout: time.Minute}
	got, err := o.addHooks("claude-code", "settings.json", []byte(user), o.entry())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hooks map[string][]HookEntry `json:"hooks"`
	}
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	pre, post := doc.Hooks["PreToolUse"], doc.Hooks["PostToolUse"]
	if len(pre) != 2 || len(post) != 2 {
		t.Fatalf("want the user's entry and ours under each event:\n%s", got)
	}
	p := post[1].Hooks[0]
	if p.Command != pre[1].Hooks[0].Command+" --post" || p.Timeout != 5 || p.OnFailure != "" || post[1].Matcher != "*" {
		t.Errorf("post entry %+v, pre %+v", p, pre[1].Hooks[0])
	}
	again, err := o.addHooks("claude-code", "settings.json", got, o.entry())
	if err != nil || string(again) != string(got) {
		t.Errorf("a second run changed the file (%v):\n%s", err, again)
	}
	back, removed, err := RemoveHooks("settings.json", got)
	if err != nil || !removed || string(back) != user {
		t.Errorf("removed=%v err=%v:\n%s\nwant\n%s", removed, err, back, user)
	}
}

func TestDiff(t *testing.T) {
	old := strings.Repeat("keep\n", 1000) + "a\nb\n" + strings.Repeat("tail\n", 1000)
	new := strings.Repeat("keep\n", 1000) + "a\nB\nc\n" + strings.Repeat("tail\n", 1000)
	got := Diff("s.json", old, new)
	want := "--- s.json\n+++ s.json (after)\n keep\n keep\n a\n-b\n+B\n+c\n tail\n tail\n tail\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Keys written twice elsewhere are not ours to judge: only the two
// objects install writes into are checked.
func TestDuplicatesElsewhereAreLeftAlone(t *testing.T) {
	tests := []struct{ name, text string }{
		{"in permissions", "{\"permissions\": {\"allow\": [], \"allow\": []}}\n"},
		{"in another hook's entry", "{\"hooks\": {\"Stop\": [{\"matcher\": \"a\", \"matcher\": \"b\", \"hooks\": []}]}}\n"},
		{"same name at two levels", "{\"hooks\": {\"hooks\": []}}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AddHook("settings.json", []byte(tt.text), ourEntry)
			if err != nil || !HasHook(got) {
				t.Errorf("err %v:\n%s", err, got)
			}
		})
	}
}

// A file with CR LF line ends gets CR LF on the lines install adds, and
// uninstall gives it back byte for byte.
func TestCRLFKept(t *testing.T) {
	tests := []struct{ name, text string }{
		{"no hooks", "{\r\n  \"model\": \"opus\"\r\n}\r\n"},
		{"other PreToolUse hooks", "{\r\n  \"hooks\": {\r\n    \"PreToolUse\": [\r\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"audit\"}]}\r\n    ]\r\n  }\r\n}\r\n"},
		{"empty hooks", "{\r\n\t\"hooks\": {}\r\n}\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AddHook("settings.json", []byte(tt.text), ourEntry)
			if err != nil {
				t.Fatal(err)
			}
			if n, crlf := strings.Count(string(got), "\n"), strings.Count(string(got), "\r\n"); n != crlf || n <= strings.Count(tt.text, "\n") {
				t.Errorf("%d line ends, %d of them CR LF:\n%q", n, crlf, got)
			}
			back, removed, err := RemoveHooks("settings.json", got)
			if err != nil || !removed || !HasHook(got) || HasHook(back) {
				t.Fatalf("removed=%v err=%v", removed, err)
			}
			if strings.Contains(tt.text, "audit") && string(back) != tt.text {
				t.Errorf("not restored:\n%q\nwant\n%q", back, tt.text)
			}
		})
	}
	// An LF file gets no CR.
	got, _ := AddHook("settings.json", []byte("{\n  \"a\": 1\n}\n"), ourEntry)
	if strings.Contains(string(got), "\r") {
		t.Errorf("CR added to an LF file:\n%q", got)
	}
}
