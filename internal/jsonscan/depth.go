package jsonscan

// MaxDepth is how deeply an event may nest objects and arrays. The
// agent writes tool_input, so it controls the nesting: past Go's own
// decoder limit (10,000) an event would not even decode, and the request
// that wraps it adds a level. Hook and daemon both refuse to judge an
// event nested deeper than this and ask instead, well below that limit;
// no agent's real tool call comes near it.
const MaxDepth = 1000

// TooDeep reports whether b, JSON or something that starts like it,
// nests objects and arrays more than MaxDepth levels. It only counts
// brackets outside strings, so it answers for broken JSON too, and it is
// one pass with no allocation: a shallow event of any size costs little,
// and one shorter than MaxDepth bytes cannot be too deep at all.
func TooDeep(b []byte) bool {
	if len(b) <= MaxDepth {
		return false
	}
	depth := 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > MaxDepth {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}
