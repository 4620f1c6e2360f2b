package shell

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ExShellLine is the shell command line an editor's Ex command runs
// (vim -c CMD, nvim --cmd CMD), or "" for one that runs none: `!CMD`
// and its forms (`r !CMD`, `w !CMD`, `%!CMD`, `silent !CMD`), `terminal
// CMD`, `call system("CMD")` and the other functions that run a
// command, and the code of an embedded interpreter as that
// interpreter's command (`lua CODE` is `lua -e CODE`, `py3 CODE` is
// `python3 -c CODE`), so what the code does is judged as the
// interpreter's code is. Several commands joined by | are each read.
func ExShellLine(ex string) string {
	var lines []string
	for _, part := range exParts(ex) {
		if l := exOne(part); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

var (
	exModifiers = regexp.MustCompile(`^(?:(?:sil(?:ent)?!?|exe(?:cute)?|keepalt|noautocmd|unsilent|vert(?:ical)?|bel(?:owright)?|tab)\s+)+`)
	exBang      = regexp.MustCompile(`^(?:[.%$0-9,]*|r(?:ead)?\s*|w(?:rite)?\s*)!(.*)$`)
	exTerminal  = regexp.MustCompile(`^ter(?:m|mi|min|mina|minal)?!?\s+(.+)$`)
	exCall      = regexp.MustCompile(`\b(?:system|systemlist|jobstart|termopen|vim\.fn\.system|vim\.system|os\.execute|io\.popen)\s*\(\s*\[?\s*(?:'([^']*)'|"([^"]*)")`)
	exCode      = regexp.MustCompile(`^(lua|luado|py3|python3|py|python|pyx|pythonx|perl|ruby|rub)\s+(.+)$`)
)

// exInterpreters are the programs that run an embedded interpreter's
// code, with the option that takes it.
var exInterpreters = map[string]string{
	"lua": "lua -e", "luado": "lua -e",
	"py3": "python3 -c", "python3": "python3 -c", "py": "python3 -c", "python": "python3 -c", "pyx": "python3 -c", "pythonx": "python3 -c",
	"perl": "perl -e", "ruby": "ruby -e", "rub": "ruby -e",
}

func exOne(cmd string) string {
	cmd = strings.TrimLeft(cmd, ": \t")
	cmd = exModifiers.ReplaceAllString(cmd, "")
	if m := exBang.FindStringSubmatch(cmd); m != nil {
		return strings.TrimSpace(m[1])
	}
	if m := exTerminal.FindStringSubmatch(cmd); m != nil {
		return strings.TrimSpace(m[1])
	}
	if m := exCode.FindStringSubmatch(cmd); m != nil {
		q, err := syntax.Quote(m[2], syntax.LangBash)
		if err != nil {
			return ""
		}
		return exInterpreters[m[1]] + " " + q
	}
	if m := exCall.FindStringSubmatch(cmd); m != nil {
		return m[1] + m[2]
	}
	return ""
}

// exParts splits an Ex command line on the bars that separate commands;
// a bar inside a !CMD, an interpreter's code or a string of an
// expression belongs to it, as in vim.
func exParts(ex string) []string {
	var parts []string
	for {
		t := exModifiers.ReplaceAllString(strings.TrimLeft(ex, ": \t"), "")
		if exBang.MatchString(t) || exCode.MatchString(t) || exTerminal.MatchString(t) {
			return append(parts, ex)
		}
		i := barOutsideQuotes(ex)
		if i < 0 {
			return append(parts, ex)
		}
		parts = append(parts, ex[:i])
		ex = ex[i+1:]
	}
}

// barOutsideQuotes is the index of the first | not inside a quoted
// string, or -1.
func barOutsideQuotes(s string) int {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '"' || c == '\'':
			quote = c
		case c == '|':
			return i
		}
	}
	return -1
}
