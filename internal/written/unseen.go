package written

import (
	"strings"
)

// unseenEdit is what an Edit (or MultiEdit) of a file the daemon cannot
// see would change: the agent may see a file the daemon does not (its
// own container, a remote workspace, a file made earlier in the same
// turn), so the edit is judged on its own text, as if the file held just
// the old strings: what the new strings add is what it adds. ok is false
// for other tools and for edits that cannot be read.
func unseenEdit(tool string, input map[string]any) (before, after []byte, ok bool) {
	var edits []any
	switch tool {
	case "Edit":
		edits = []any{input}
	case "MultiEdit":
		edits, _ = input["edits"].([]any)
	default:
		return nil, nil, false
	}
	if len(edits) == 0 || len(edits) > maxUnseenEdits {
		return nil, nil, false
	}
	olds := make([]string, 0, len(edits))
	for _, e := range edits {
		m, _ := e.(map[string]any)
		old, ok1 := m["old_string"].(string)
		if _, ok2 := m["new_string"].(string); !ok1 || !ok2 {
			return nil, nil, false
		}
		if old != "" {
			olds = append(olds, old)
		}
	}
	text := strings.Join(olds, "\n")
	orig := text
	for _, e := range edits {
		m := e.(map[string]any)
		old, repl := m["old_string"].(string), m["new_string"].(string)
		switch {
		case old == "":
			text += repl
		case m["replace_all"] == true:
			text = strings.ReplaceAll(text, old, repl)
		default:
			text = strings.Replace(text, old, repl, 1)
		}
	}
	if text == orig {
		return nil, nil, false
	}
	return []byte(orig), []byte(text), true
}

// maxUnseenEdits bounds the edits of one call judged this way.
const maxUnseenEdits = 64

// closeJSON makes a JSON fragment (the lines an edit replaces, cut from
// the middle of a file) a document: wrapped in braces when it does not
// start one, with the brackets it leaves open closed. Trailing commas are
// left to the parser, which allows them. A fragment that is no JSON stays
// broken and is judged by its lines.
func closeJSON(b []byte) []byte {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return b
	}
	if s[0] != '{' && s[0] != '[' {
		s = "{" + s
	}
	var open []byte
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{':
			open = append(open, '}')
		case c == '[':
			open = append(open, ']')
		case (c == '}' || c == ']') && len(open) > 0 && open[len(open)-1] == c:
			open = open[:len(open)-1]
		}
	}
	if inString {
		return b
	}
	s = strings.TrimRight(s, " \t\r\n")
	for i := len(open) - 1; i >= 0; i-- {
		s += string(open[i])
	}
	return []byte(s)
}
