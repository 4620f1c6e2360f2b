// Package safetext makes text that came from an agent safe to show: on a
// terminal (logs, status, try), in the tray and in notifications. An
// agent chooses its commands, tool names and the paths it touches, and
// those reach our output through reasons and the decision log; a raw ESC
// or CR could repaint a terminal (hide a deny, fake an allow, set the
// window title), and a bidi override could make a command read
// differently from what ran. Every such character is shown as a visible
// escape instead. Standard library only, so any package may use it.
package safetext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line neutralises s for a one-line context (a table cell, a menu label,
// a status line): every control character, newline and tab included, and
// every bidi control is replaced by a visible escape.
func Line(s string) string { return clean(s, false) }

// Text is Line for multi-line contexts (a notification body, a reason
// shown in full): newlines and tabs stay, everything else is neutralised.
func Text(s string) string { return clean(s, true) }

// Lines applies Line to each element of ss, in a new slice.
func Lines(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Line(s)
	}
	return out
}

// JSON neutralises the C1 controls and bidi controls in encoded JSON,
// which encoding/json leaves as they are (it escapes only C0 controls
// and U+2028/U+2029). Each becomes a \uXXXX escape, so the result is the
// same JSON value, still valid, but harmless on a terminal. Invalid UTF-8
// is left alone: encoding/json never produces it.
func JSON(b []byte) []byte {
	if !needsJSON(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && unsafeRune(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

func needsJSON(b []byte) bool {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && unsafeRune(r) {
			return true
		}
		i += size
	}
	return false
}

func clean(s string, multiline bool) string {
	if isSafe(s, multiline) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			// A stray byte: a terminal might read it as part of an
			// escape sequence (0x9b is CSI in some encodings).
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case multiline && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isSafe(s string, multiline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && !(multiline && (c == '\n' || c == '\t')) || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			// Check the rest rune by rune.
			for _, r := range s[i:] {
				if r == utf8.RuneError || r < 0x20 && !(multiline && (r == '\n' || r == '\t')) || r == 0x7f || unsafeRune(r) {
					return false
				}
			}
			return true
		}
	}
	return true
}

// unsafeRune reports a non-ASCII rune that changes how a terminal or a
// text renderer shows what follows: C1 controls (U+0080–U+009F, which
// include CSI and OSC), and the bidi embeddings, overrides, isolates and
// marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C).
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e || r == 0x200f || r == 0x061c:
		return true
	}
	return false
}
