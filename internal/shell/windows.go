package shell

import (
	"fmt"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// windows judges a line for cmd.exe or PowerShell run from WSL: it runs
// on this machine, whose Windows drives are under /mnt. The line is cut
// into statements and words (quotes, ; & | ( ) { } and new lines), each
// statement's program named in lower case without its folder or .exe
// (Windows names ignore case), and Windows paths written as the WSL paths
// they are: C:\Users\x is /mnt/c/Users/x, and a Windows home given
// through a variable (%USERPROFILE%, $env:USERPROFILE, ~) is
// /mnt/c/Users/* (any user's, the name is not known here).
func (w *walker) windows(src string, sc scope, via string, depth int, dialect string, s *syntax.Stmt, outer Command) {
	if depth > MaxDepth {
		w.fail(fmt.Sprintf("shells nest more than %d deep", MaxDepth))
		return
	}
	if len(src) > MaxLength {
		w.fail(lengthError(len(src)))
		return
	}
	if !w.spend(0, len(src)) {
		return
	}
	sc.via, sc.depth, sc.pipeFrom, sc.redirects = via, depth, nil, nil
	var prev []string
	for _, st := range winStatements(src, dialect) {
		if len(st.words) == 0 {
			prev = nil
			continue
		}
		if !w.spend(len(st.words), 0) {
			return
		}
		ws := make([]word, len(st.words))
		for i, t := range st.words {
			ws[i] = word{text: winPath(t)}
		}
		prog := strings.ToLower(ws[0].text)
		if i := strings.LastIndexByte(prog, '/'); i >= 0 {
			prog = prog[i+1:]
		}
		ws[0].text = prog
		sub := sc
		if st.piped {
			sub.pipeFrom = prev
		} else {
			prev = nil
		}
		inner := Command{Cwd: sc.cwd, Wrappers: append(append([]string(nil), outer.Wrappers...), base(outer.Program))}
		w.resolve(inner, ws, s, &sub)
		prev = append(append([]string(nil), prev...), strings.TrimSuffix(prog, ".exe"))
	}
}

// winStatement is one simple statement of a Windows line; piped when a
// | joins it to the one before.
type winStatement struct {
	words []string
	piped bool
}

// winStatements cuts a cmd or PowerShell line into statements of words.
// Parentheses and braces end a statement too, so that the commands of
// `iex (iwr URL)` and `& { ... }` are each seen.
func winStatements(src, dialect string) []winStatement {
	var out []winStatement
	cur := winStatement{}
	var sb strings.Builder
	inWord := false
	flushWord := func() {
		if inWord {
			cur.words = append(cur.words, sb.String())
			sb.Reset()
			inWord = false
		}
	}
	flush := func(piped bool) {
		flushWord()
		if len(cur.words) > 0 {
			out = append(out, cur)
		}
		cur = winStatement{piped: piped}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"' || (c == '\'' && dialect == "powershell"):
			j := strings.IndexByte(src[i+1:], c)
			if j < 0 {
				j = len(src) - i - 1
			}
			sb.WriteString(src[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '^' && dialect == "cmd" && i+1 < len(src):
			i++
			sb.WriteByte(src[i])
			inWord = true
		case c == '`' && dialect == "powershell" && i+1 < len(src):
			i++
			sb.WriteByte(src[i])
			inWord = true
		case c == ' ' || c == '\t' || c == ',' && dialect == "cmd":
			flushWord()
		case c == '|':
			if i+1 < len(src) && src[i+1] == '|' {
				i++
				flush(false)
				continue
			}
			flush(true)
		case c == '&' || c == ';' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == '{' || c == '}':
			flush(false)
		default:
			sb.WriteByte(c)
			inWord = true
		}
	}
	flush(false)
	return out
}

var (
	winDrive = regexp.MustCompile(`^([A-Za-z]):(?:[\\/]|$)`)
	// winHome are the spellings of the Windows user's home and profile
	// folders, in a word's start.
	winHome = regexp.MustCompile(`(?i)^(?:%userprofile%|\$env:userprofile|\$home|\$env:home|~|%homedrive%%homepath%|\$env:homedrive\$env:homepath)(?:[\\/]|$)`)
	winApp  = regexp.MustCompile(`(?i)^(?:%appdata%|\$env:appdata|%localappdata%|\$env:localappdata)(?:[\\/]|$)`)
)

// winPath writes a Windows path as the WSL path it is; other words are
// kept.
func winPath(t string) string {
	switch {
	case winDrive.MatchString(t):
		t = "/mnt/" + strings.ToLower(t[:1]) + "/" + strings.TrimLeft(t[2:], `\/`)
	case winHome.MatchString(t):
		m := winHome.FindString(t)
		t = "/mnt/c/Users/*/" + t[len(m):]
	case winApp.MatchString(t):
		m := winApp.FindString(t)
		folder := "Roaming"
		if strings.Contains(strings.ToLower(m), "local") {
			folder = "Local"
		}
		t = "/mnt/c/Users/*/AppData/" + folder + "/" + t[len(m):]
	default:
		if !strings.Contains(t, `\`) {
			return t
		}
	}
	t = strings.ReplaceAll(t, `\`, "/")
	if len(t) > 1 {
		t = strings.TrimSuffix(t, "/")
	}
	return t
}
