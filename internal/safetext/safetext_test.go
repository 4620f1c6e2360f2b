package safetext

import (
	"encoding/json"
	"testing"
)

func TestLineAndText(t *testing.T) {
	tests := []struct {
		name, in, line, text string
	}{
		{"plain ASCII unchanged", "rm -rf ~/x", "rm -rf ~/x", "rm -rf ~/x"},
		{"accents and emoji unchanged", "café ✓ 日本 🎉", "café ✓ 日本 🎉", "café ✓ 日本 🎉"},
		{"ESC sequence shown", "ls\x1b[2J\x1b[1;1Hallowed", `ls\x1b[2J\x1b[1;1Hallowed`, `ls\x1b[2J\x1b[1;1Hallowed`},
		{"CR cannot overwrite the line", "rm -rf /\rls", `rm -rf /\x0dls`, `rm -rf /\x0dls`},
		{"newline and tab kept only in text", "a\nb\tc", `a\x0ab\x09c`, "a\nb\tc"},
		{"BEL, backspace, NUL, DEL", "a\x07b\x08c\x00d\x7f", `a\x07b\x08c\x00d\x7f`, `a\x07b\x08c\x00d\x7f`},
		{"C1 CSI and OSC", "a\u009b2Jb\u009d0;title\u009c", `a\u009B2Jb\u009D0;title\u009C`, `a\u009B2Jb\u009D0;title\u009C`},
		{"bidi override", "cat \u202Egnp.exe", `cat \u202Egnp.exe`, `cat \u202Egnp.exe`},
		{"bidi isolates and marks", "\u2066a\u2069\u200e\u200f\u061c", `\u2066a\u2069\u200E\u200F\u061C`, `\u2066a\u2069\u200E\u200F\u061C`},
		{"invalid UTF-8 byte", "a\x9bb\xffc", `a\x9bb\xffc`, `a\x9bb\xffc`},
		{"a real U+FFFD is kept", "a\uFFFDb", "a\uFFFDb", "a\uFFFDb"},
		{"look-alikes of bidi stay", "\u2029\u2070\u2065\u202F", "\u2029\u2070\u2065\u202F", "\u2029\u2070\u2065\u202F"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Line(tt.in); got != tt.line {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.line)
			}
			if got := Text(tt.in); got != tt.text {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.text)
			}
		})
	}
}

func TestJSONStaysTheSameValue(t *testing.T) {
	tests := []struct {
		name string
		in   string
		safe bool // the encoding needs no change
	}{
		{"plain", "ls -la", true},
		{"ESC already escaped by encoding/json", "a\x1b[31mb", true},
		{"C1 CSI", "a\u009b31mb", false},
		{"bidi override", "x\u202Ey", false},
		{"non-ASCII text kept", "é ✓", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := json.Marshal(map[string]string{"summary": tt.in})
			got := JSON(b)
			if (string(got) == string(b)) != tt.safe {
				t.Errorf("JSON(%s) = %s", b, got)
			}
			for _, r := range string(got) {
				if unsafeRune(r) || r < 0x20 {
					t.Errorf("%q left in %s", r, got)
				}
			}
			var back map[string]string
			if err := json.Unmarshal(got, &back); err != nil || back["summary"] != tt.in {
				t.Errorf("round trip: %q, %v", back["summary"], err)
			}
		})
	}
}
