package written

import "testing"

func TestUnseenEdit(t *testing.T) {
	tests := []struct {
		name          string
		tool          string
		input         map[string]any
		before, after string
		ok            bool
	}{
		{"edit", "Edit", map[string]any{"old_string": "a: 1", "new_string": "a: 1\nb: 2"}, "a: 1", "a: 1\nb: 2", true},
		{"create", "Edit", map[string]any{"old_string": "", "new_string": "x"}, "", "x", true},
		{"multi", "MultiEdit", map[string]any{"edits": []any{
			map[string]any{"old_string": "a", "new_string": "b"},
			map[string]any{"old_string": "c", "new_string": "d"},
		}}, "a\nc", "b\nd", true},
		{"no change", "Edit", map[string]any{"old_string": "a", "new_string": "a"}, "", "", false},
		{"unreadable", "Edit", map[string]any{"old_string": 1, "new_string": "a"}, "", "", false},
		{"write", "Write", map[string]any{"content": "x"}, "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, a, ok := unseenEdit(tc.tool, tc.input)
			if ok != tc.ok || string(b) != tc.before || string(a) != tc.after {
				t.Errorf("unseenEdit = %q, %q, %v; want %q, %q, %v", b, a, ok, tc.before, tc.after, tc.ok)
			}
		})
	}
}

func TestCloseJSON(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"fragment", `"scripts": {` + "\n" + `"postinstall": "x",`, `{"scripts": {` + "\n" + `"postinstall": "x",}}`},
		{"whole", `{"a": [1]}`, `{"a": [1]}`},
		{"braces in strings", `"a": "{[",`, `{"a": "{[",}`},
		{"open string", `"a": "x`, `"a": "x`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(closeJSON([]byte(tc.in))); got != tc.want {
				t.Errorf("closeJSON(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestFragmentKeyMatch(t *testing.T) {
	whole, frag := &Row{}, &Row{fragment: true}
	tests := []struct {
		pattern string
		at      []string
		whole   bool
		frag    bool
	}{
		{"dependencies/*/git", []string{"dependencies", "serde", "git"}, true, true},
		{"dependencies/*/git", []string{"serde", "git"}, false, true},
		{"jobs/*/steps/*/run", []string{"0", "run"}, false, true},
		{"mcpServers/*", []string{"github"}, false, false}, // a tail of wildcards names nothing
		{"permissions", []string{"x", "permissions"}, false, false},
	}
	for _, tc := range tests {
		if got := whole.keyMatch(tc.pattern, tc.at); got != tc.whole {
			t.Errorf("whole keyMatch(%q, %q) = %v", tc.pattern, tc.at, got)
		}
		if got := frag.keyMatch(tc.pattern, tc.at); got != tc.frag {
			t.Errorf("fragment keyMatch(%q, %q) = %v", tc.pattern, tc.at, got)
		}
	}
}
