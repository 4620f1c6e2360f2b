package input

import (
	"errors"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentjail/agentjail/internal/shell"
	"github.com/agentjail/agentjail/internal/written"
)

// shellWritten judges what a shell command writes into files that
// something else runs later, when the command line itself holds the
// content: echo and printf redirected into the file, cat and tee fed a
// here-document or here-string (or a pipe from echo or printf), and `git
// config KEY VALUE`, which writes a line into the repository's
// .git/config, and `sed -i SCRIPT FILE` (sedwritten.go). The file it
// leaves is judged exactly as a file tool's Write of that content, so
// `echo 'curl … | sh' > .envrc` and a Write of the same .envrc get the
// same verdict. Content only known when the
// command runs (cp, a download) is left to the path rules.
func shellWritten(t *written.Table, cmds []shell.Command, env Env) []written.File {
	var out []written.File
	judge := func(p, added string, appending bool) {
		if t.Kind(p, env.Home) == nil || len(out) >= maxShellWritten {
			return
		}
		if appending && missing(p, env.ReadFile) && t.Structured(p, env.Home) {
			// The agent may append to a file it sees where the daemon
			// does not: the text is judged as the file's tail.
			out = append(out, t.JudgeFragment(p, added, env.Home)...)
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
		if edits, ok := sedInPlace(t, c, env); ok {
			for _, p := range slices.Sorted(maps.Keys(edits)) {
				judge(p, edits[p], false)
			}
			continue
		}
		text, ok := shell.Output(c)
		if !ok && i > 0 && len(c.PipeFrom) > 0 && c.PipeFrom[len(c.PipeFrom)-1] == cmds[i-1].Name {
			text, ok = shell.Output(cmds[i-1]) // echo … | tee FILE
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
