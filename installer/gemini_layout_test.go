package installer

import (
	"strings"
	"testing"
)

// Gemini's entry is written in the settings file's own layout: on lines
// of its own with the file's indentation unit at its depth, or on one
// line in a file that is all on one line; the file's other lines are
// kept as they were.
func TestGeminiEntryTakesTheFilesLayout(t *testing.T) {
	o := Options{Home: "/h"}
	tests := []struct {
		name, old string
		want      []string // lines, or parts of the one line, that must appear
		oneLine   bool
	}{
		{"new file: two spaces", "", []string{"{\n  \"hooks\": {\n    \"BeforeTool\": [\n      {\n        \"hooks\": [\n", "\n}\n"}, false},
		{"four spaces, hooks there", "{\n    \"theme\": \"dark\",\n    \"hooks\": {\n        \"BeforeTool\": [\n            {\"matcher\": \"x\", \"hooks\": []}\n        ]\n    }\n}\n",
			[]string{"    \"theme\": \"dark\",\n", "            {\"matcher\": \"x\", \"hooks\": []},\n            {\n                \"hooks\": [\n", "                \"matcher\": \"*\"\n            }\n        ]\n    }\n}\n"}, false},
		{"tabs, empty hooks", "{\n\t\"hooks\": {}\n}", []string{"{\n\t\"hooks\": {\n\t\t\"BeforeTool\": [\n\t\t\t{\n", "\t\t]\n\t}\n}"}, false},
		{"comments kept", "// mine\n{\n  \"theme\": \"dark\" // dark\n}\n", []string{"// mine\n{\n  \"theme\": \"dark\", // dark\n  \"hooks\": {\n    \"BeforeTool\": [\n"}, false},
		{"one line stays one line", `{"theme":"dark"}`, []string{`{"theme":"dark","hooks":{"BeforeTool":[{"hooks":[{`}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := addGeminiHook("settings.json", []byte(tt.old), o.geminiEntry())
			if err != nil {
				t.Fatal(err)
			}
			s := string(got)
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("lacks %q:\n%s", w, s)
				}
			}
			if lines := strings.Count(strings.TrimSpace(s), "\n"); tt.oneLine != (lines == 0) {
				t.Errorf("%d line breaks:\n%s", lines, s)
			}
			if !tt.oneLine && strings.Contains(s, `"command":"`) {
				t.Errorf("a compact entry in a laid-out file:\n%s", s)
			}
			// Installing again changes nothing; uninstalling takes only ours.
			again, err := addGeminiHook("settings.json", got, o.geminiEntry())
			if err != nil || string(again) != s {
				t.Errorf("second install changed the file: %v\n%s", err, again)
			}
			back, removed, err := removeGeminiHooks("settings.json", got)
			if err != nil || !removed || strings.Contains(string(back), "agentjail") {
				t.Errorf("uninstall: %v %v\n%s", removed, err, back)
			}
		})
	}
}
