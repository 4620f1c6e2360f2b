// Package jsonscan is a small reader for the few JSON fields the hook
// looks at in the daemon's answer (the verdict, or a hold), and a bound
// on how deeply an event nests. It walks the bytes without reflection:
// in a process that reads one answer, encoding/json's Unmarshal would
// first build decoders for every type involved and grow the stack for
// its recursion, which costs the hook more than the reading itself. Callers pass JSON that json.Valid
// accepts; on anything else the reader answers false rather than guess,
// and it never reads out of bounds. It imports only the standard library.
package jsonscan

import (
	"unicode/utf16"
	"unicode/utf8"
)

// ObjectMembers calls fn with the key and the raw value of each member
// of the JSON object b, in order, so that a repeated key's last value
// wins when fn stores them, as in encoding/json. It reports false when b
// is not an object.
func ObjectMembers(b []byte, fn func(key string, value []byte)) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		end := skipValue(b, i)
		key, ok := UnquoteString(b[i:max(end, i)])
		if !ok {
			return false
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		end = skipValue(b, i)
		if end < 0 {
			return false
		}
		fn(key, b[i:end])
		i = skipSpace(b, end)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case '}':
			return true
		case ',':
			i = skipSpace(b, i+1)
		default:
			return false
		}
	}
	return false
}

// UnquoteString is the string a raw JSON string value holds, decoded as
// encoding/json decodes it (invalid UTF-8 and lone surrogates become
// U+FFFD); ok is false when value is not a string.
func UnquoteString(value []byte) (s string, ok bool) {
	if len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
		return "", false
	}
	in := value[1 : len(value)-1]
	plain := 0
	for plain < len(in) {
		c := in[plain]
		if c == '\\' || c == '"' || c < ' ' {
			break
		}
		r, size := utf8.DecodeRune(in[plain:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		plain += size
	}
	if plain == len(in) {
		return string(in), true
	}
	out := make([]byte, plain, len(in)+utf8.UTFMax)
	copy(out, in)
	for i := plain; i < len(in); {
		c := in[i]
		switch {
		case c == '\\':
			if i+1 >= len(in) {
				return "", false
			}
			switch e := in[i+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(in[i:])
				if r < 0 {
					return "", false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if pair := utf16.DecodeRune(r, hex4(in[i:])); pair != utf8.RuneError {
						out = utf8.AppendRune(out, pair)
						i += 6
						continue
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default:
				return "", false
			}
			i += 2
		case c == '"' || c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(in[i:])
			out = utf8.AppendRune(out, r)
			i += size
		}
	}
	return string(out), true
}

// hex4 is the code unit of a \uXXXX escape at the start of b, or -1.
func hex4(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

func skipSpace(b []byte, i int) int {
	for i >= 0 && i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue is the index just past the JSON value that starts at b[i],
// or -1 if there is none.
func skipValue(b []byte, i int) int {
	if i < 0 || i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := skipValue(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
