package input

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/agentjail/agentjail/internal/shell"
	"github.com/agentjail/agentjail/internal/written"
)

// shellWritten judges what a shell command writes into files that
// something else runs later, when the command line itself holds the
// content: echo and printf redirected into the file, cat and tee fed a
// here-document or here-string (or a pipe from echo or printf), and `git
// config KEY VALUE`, which writes a line into the repository's
// .git/config. The file it leaves is judged exactly as a file tool's
// Write of that content, so `echo 'curl … | sh' > .envrc` and a Write
// of the same .envrc get the same verdict. Content only known when the
// command runs (cp, sed -i, a download) is left to the path rules.
func shellWritten(t *written.Table, cmds []shell.Command, env Env) []written.File {
	var out []written.File
	judge := func(p, added string, appending bool) {
		if t.Kind(p, env.Home) == nil || len(out) >= maxShellWritten {
			return
		}
		content := added
		if appending {
			content = current(p, env) + added
		}
		out = append(out, t.JudgeContent(p, content, env.Home, env.ReadFile)...)
	}
	for i, c := range cmds {
		if c.Remote {
			continue
		}
		if p, text, ok := gitConfigLine(c); ok {
			judge(p, text, true)
			continue
		}
		text, ok := output(c)
		if !ok && i > 0 && len(c.PipeFrom) > 0 && c.PipeFrom[len(c.PipeFrom)-1] == cmds[i-1].Name {
			text, ok = output(cmds[i-1]) // echo … | tee FILE
			if ok && !(c.Name == "tee" || c.Name == "cat") {
				ok = false
			}
		}
		if !ok {
			continue
		}
		for _, r := range c.Redirects {
			if r.Path == "" {
				continue
			}
			switch r.Op {
			case ">", ">|", "1>", "&>", "1>|":
				judge(r.Path, text, false)
			case ">>", "1>>", "&>>":
				judge(r.Path, text, true)
			}
		}
		if c.Name == "tee" {
			appending := hasShellFlag(c, "a", "append")
			for _, p := range c.Writes {
				if !redirected(c, p) {
					judge(p, text, appending)
				}
			}
		}
	}
	return out
}

// maxShellWritten bounds the files one command line is judged on.
const maxShellWritten = 16

// current is a file's content now, "" when it does not exist or cannot be
// read (the table's own read reports the latter).
func current(p string, env Env) string {
	if env.ReadFile == nil {
		return ""
	}
	b, err := env.ReadFile(p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	s := string(b)
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

// output is what a command prints when the command line holds all of it.
func output(c shell.Command) (string, bool) {
	switch c.Name {
	case "echo":
		args, newline, escapes := c.Args, true, false
		for len(args) > 0 && regexpEchoFlag(args[0]) {
			newline = newline && !strings.Contains(args[0], "n")
			escapes = escapes || strings.Contains(args[0], "e")
			args = args[1:]
		}
		s := strings.Join(args, " ")
		if escapes {
			s = unescape(s)
		}
		if newline {
			s += "\n"
		}
		return s, true
	case "printf":
		args := c.Args
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 || args[0] == "-v" {
			return "", false
		}
		return printf(args[0], args[1:]), true
	case "cat", "tee":
		for _, r := range c.Redirects {
			switch r.Op {
			case "<<", "<<-":
				return r.Target, true
			case "<<<":
				return r.Target + "\n", true
			}
		}
	}
	return "", false
}

func regexpEchoFlag(a string) bool {
	if len(a) < 2 || a[0] != '-' {
		return false
	}
	return strings.Trim(a[1:], "neE") == ""
}

// printf fills %s-like conversions with args in turn and reads escapes;
// enough to see the text it writes, not a full printf.
func printf(format string, args []string) string {
	var b strings.Builder
	f := unescape(format)
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
			j++
		}
		if j == len(f) {
			b.WriteString(f[i:])
			break
		}
		switch f[j] {
		case '%':
			b.WriteByte('%')
		case 's', 'b', 'd', 'i', 'q', 'c', 'x', 'u', 'f':
			if len(args) > 0 {
				if f[j] == 'b' {
					b.WriteString(unescape(args[0]))
				} else {
					b.WriteString(args[0])
				}
				args = args[1:]
			}
		default:
			b.WriteString(f[i : j+1])
		}
		i = j
	}
	// printf reuses its format while arguments remain.
	if len(args) > 0 && strings.Contains(format, "%") && len(args) < 64 {
		b.WriteString(printf(format, args))
	}
	return b.String()
}

var escapes = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\r`, "\r", `\'`, "'", `\"`, `"`)

func unescape(s string) string { return escapes.Replace(s) }

func hasShellFlag(c shell.Command, names ...string) bool {
	for _, f := range c.Flags {
		for _, n := range names {
			if f == n {
				return true
			}
		}
	}
	return false
}

func redirected(c shell.Command, p string) bool {
	for _, r := range c.Redirects {
		if r.Path == p {
			return true
		}
	}
	return false
}

// gitConfigLine is the line `git config [--local] KEY VALUE` adds to the
// repository's .git/config (the one in the command's directory; git looks
// upwards, which the Cwd's own .git is the common case of). Reads,
// unsets, and the user's and system's files (persist.git_config judges
// those) are not writes of it.
func gitConfigLine(c shell.Command) (string, string, bool) {
	if c.Name != "git" {
		return "", "", false
	}
	var words []string
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" && i+1 < len(args):
			return "", "", false // another repository: left to the path rules
		case a == "-c" && i+1 < len(args):
			i++
		case a == "--local" || a == "--add" || a == "--replace-all" || a == "--type=bool" || a == "--bool" || a == "--path":
		case strings.HasPrefix(a, "-"):
			return "", "", false // --global, --file, --get, --unset, --list ...
		default:
			words = append(words, a)
		}
	}
	if len(words) < 3 || words[0] != "config" {
		return "", "", false
	}
	if words[1] == "set" && len(words) >= 4 { // git config set KEY VALUE (git 2.46)
		words = words[1:]
	}
	key, value := words[1], words[2]
	dot, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if dot <= 0 || last == len(key)-1 {
		return "", "", false
	}
	section := "[" + key[:dot] + "]"
	if last > dot {
		section = "[" + key[:dot] + ` "` + key[dot+1:last] + `"]`
	}
	return filepath.Join(c.Cwd, ".git", "config"), section + "\n\t" + key[last+1:] + " = " + value + "\n", true
}
