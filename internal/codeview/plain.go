package codeview

import (
	"encoding/base64"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Ruby and Perl have no parser here (see the package comment), so their
// view is not of calls: it is the code written plainly, each of the
// spellings below turned into the one the tables read. A command run
// by %x{...} or qx(...) becomes a backtick literal; a string decoded
// from a constant (pack("H*", ...), decode_base64, .unpack1("m"))
// becomes the string; Kernel.send(:system, ...) becomes system(...).

// Plain returns the plain writing of Ruby or Perl code, or "" when it
// holds none of the spellings it rewrites.
func Plain(code string) string {
	out := rewriteQuotes(code)
	for _, r := range plainRewrites {
		out = r.re.ReplaceAllStringFunc(out, func(m string) string {
			if s, ok := r.with(r.re.FindStringSubmatch(m)); ok {
				return s
			}
			return m
		})
	}
	if out == code {
		return ""
	}
	return out
}

// quoteOps are the quote-like operators: qx and %x run a command (a
// backtick literal), the others are strings.
var quoteOps = regexp.MustCompile(`(?:^|[^\w$@%])(%[xqQ]|qx|qq|q)\s*([{(\[<|/!'"])`)

var closers = map[byte]byte{'{': '}', '(': ')', '[': ']', '<': '>'}

// rewriteQuotes writes %x{cmd} and qx(cmd) as `cmd`, and q{s}, qq{s},
// %q{s} and %Q{s} as "s" (bracket delimiters nest).
func rewriteQuotes(code string) string {
	var out strings.Builder
	rest := code
	for {
		m := quoteOps.FindStringSubmatchIndex(rest)
		if m == nil {
			out.WriteString(rest)
			return out.String()
		}
		op := rest[m[2]:m[3]]
		body, end := delimited(rest, m[5])
		if end < 0 {
			out.WriteString(rest)
			return out.String()
		}
		out.WriteString(rest[:m[2]])
		switch op {
		case "%x", "qx":
			out.WriteString("`" + strings.ReplaceAll(body, "`", "\\`") + "`")
		case "q", "%q":
			out.WriteString("'" + strings.ReplaceAll(body, "'", "\\'") + "'")
		default:
			out.WriteString(`"` + strings.ReplaceAll(body, `"`, `\"`) + `"`)
		}
		rest = rest[end:]
	}
}

// delimited is the text between the delimiter at i-1 and its closer,
// and where the closer ends (-1 when it does not).
func delimited(s string, i int) (string, int) {
	open := s[i-1]
	closer, nests := closers[open]
	if !nests {
		closer = open
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case closer:
			if depth == 0 {
				return s[i:j], j + 1
			}
			depth--
		case open:
			if nests {
				depth++
			}
		}
	}
	return "", -1
}

type plainRewrite struct {
	re   *regexp.Regexp
	with func(m []string) (string, bool)
}

// lit is a single- or double-quoted literal's pattern and its text.
const lit = `(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')`

func litText(m []string, i int) string {
	if m[i] != "" || m[i+1] == "" {
		return m[i]
	}
	return m[i+1]
}

// plainQuote writes s as a double-quoted literal of either language.
func plainQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "@", `\@`, "\n", `\n`).Replace(s) + `"`
}

func decodedLiteral(s, enc string) (string, bool) {
	var b []byte
	var err error
	switch enc {
	case "hex":
		b, err = hex.DecodeString(strings.Join(strings.Fields(s), ""))
	default:
		b, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(strings.ReplaceAll(s, `\n`, "")), ""))
	}
	if err != nil || !utf8.Valid(b) {
		return "", false
	}
	return plainQuote(string(b)), true
}

var plainRewrites = []plainRewrite{
	// Perl's pack("H*", "...") and Ruby's ["..."].pack("H*").
	{regexp.MustCompile(`\bpack\s*\(?\s*['"]H\*['"]\s*,\s*` + lit + `\s*\)?`), func(m []string) (string, bool) {
		return decodedLiteral(litText(m, 1), "hex")
	}},
	{regexp.MustCompile(`\[\s*` + lit + `\s*\]\s*\.pack\s*\(?\s*['"]H\*['"]\s*\)?`), func(m []string) (string, bool) {
		return decodedLiteral(litText(m, 1), "hex")
	}},
	// Perl's decode_base64("...") and Ruby's Base64.decode64("...").
	{regexp.MustCompile(`\b(?:MIME::Base64::)?decode_base64\s*\(?\s*` + lit + `\s*\)?`), func(m []string) (string, bool) {
		return decodedLiteral(litText(m, 1), "base64")
	}},
	{regexp.MustCompile(`\bBase64\.(?:strict_|urlsafe_)?decode64\s*\(?\s*` + lit + `\s*\)?`), func(m []string) (string, bool) {
		return decodedLiteral(litText(m, 1), "base64")
	}},
	// Ruby's "...".unpack1("m") and "...".unpack("m")[0].
	{regexp.MustCompile(lit + `\s*\.unpack(?:1\s*\(?\s*['"]m0?['"]\s*\)?|\s*\(?\s*['"]m0?['"]\s*\)?\s*(?:\[\s*0\s*\]|\.first))`), func(m []string) (string, bool) {
		return decodedLiteral(litText(m, 1), "base64")
	}},
	// Ruby's "...".reverse, Perl's scalar reverse("...").
	{regexp.MustCompile(lit + `\.reverse\b`), func(m []string) (string, bool) {
		return plainQuote(reverse(litText(m, 1))), true
	}},
	{regexp.MustCompile(`\bscalar\s+reverse\s*\(?\s*` + lit + `\s*\)?`), func(m []string) (string, bool) {
		return plainQuote(reverse(litText(m, 1))), true
	}},
	// Ruby's Kernel.send(:system, ...) and method(:system).call(...).
	{regexp.MustCompile(`\b(?:(?:Kernel|Object|self)\s*\.\s*)?(?:__send__|public_send|send)\s*\(\s*:["']?(system|exec|spawn|eval|open|require|load|instance_eval)["']?\s*,\s*`), func(m []string) (string, bool) {
		return m[1] + "(", true
	}},
	{regexp.MustCompile(`\b(?:Kernel\s*\.\s*)?method\s*\(\s*:["']?(system|exec|spawn|eval)["']?\s*\)\s*\.\s*(?:call|\[\]|===)\s*\(`), func(m []string) (string, bool) {
		return m[1] + "(", true
	}},
}
