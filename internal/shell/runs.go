package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/agentjail/agentjail/internal/agentconfig"
)

// What a command runs from a file is judged as if it were typed: a
// script given to a shell (bash x.sh, source x.sh, ./x.sh), an
// interpreter's program file (python x.py), the recipes of a task runner
// (make, npm run, just) and the .envrc `direnv allow` lets run. The
// commands found are emitted with Via "script PATH" (or "make TARGET",
// "npm run NAME" ...) one level deeper, so every rule applies to them.
//
// The file's content is what the same command line wrote to it earlier
// (printf 'rm -rf ~' > c.sh; sh c.sh), else what Env.ReadScript reads
// from disk. A file that exists but cannot be judged (too large, not
// readable, too many or too deeply nested files, content that does not
// parse or costs more than the parse's budgets) leaves the command as it
// was, with Command.Unread saying why: the command line is never judged
// worse, nor its parse failed, for what a file holds.

// Bounds of what the files a command runs may cost.
const (
	MaxScriptSize  = 64 << 10 // bytes read of one file
	MaxScriptFiles = 8        // files read from disk in one parse
	MaxScriptDepth = 3        // files run by files run by the command
	maxTaskTargets = 64       // make targets or package scripts followed
)

// ReadScript reads a file a command runs, for Env.ReadScript. It never
// blocks nor reads a device: the file is opened non-blocking and read
// only when fstat says it is a regular file; nothing under /proc, /dev or
// /sys is opened, even through a link. A file over MaxScriptSize gives
// its first bytes (enough for a #! line) and an error wrapping
// agentconfig.ErrTooLarge.
func ReadScript(p string) ([]byte, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, err
	}
	for _, dir := range []string{"/proc", "/dev", "/sys"} {
		if real == dir || strings.HasPrefix(real, dir+"/") {
			return nil, fmt.Errorf("%s: %w", p, agentconfig.ErrNotRegular)
		}
	}
	return agentconfig.ReadUpTo(real, MaxScriptSize)
}

// UnreadDenied is why a file that is there was not read when reading it
// failed (permission denied, as the system daemon's own user).
const UnreadDenied = "cannot be read"

// fileContent is what the file at p holds when it runs. found is false
// when there is nothing to judge: no such file, a folder, no reader.
// unread, when set, says why a file that is there was not judged; head
// is then its first bytes when known.
func (w *walker) fileContent(p string) (content string, found bool, unread string) {
	if c, ok := w.written[p]; ok {
		return c, true, ""
	}
	if w.env.ReadScript == nil || p == "" || w.startupFile(p) {
		return "", false, ""
	}
	if w.filesRead >= MaxScriptFiles {
		return "", false, fmt.Sprintf("more than %d files to read", MaxScriptFiles)
	}
	w.filesRead++
	b, err := w.env.ReadScript(p)
	switch {
	case err == nil:
		return string(b), true, ""
	case errors.Is(err, agentconfig.ErrTooLarge):
		return string(b), false, fmt.Sprintf("over %d KiB", MaxScriptSize>>10)
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, agentconfig.ErrNotRegular), errors.Is(err, syscall.ENOTDIR):
		return "", false, ""
	default:
		return "", false, UnreadDenied
	}
}

// unread marks the command at out[n] with why a file it runs was not
// judged.
func (w *walker) unread(n int, p, why string) {
	if n < len(w.out) && w.out[n].Unread == "" {
		w.out[n].Unread = p + ": " + why
	}
}

// runText walks the commands of a file (or a task's recipe lines) the
// command at out[n] runs. Its cost is its own: past the parse's bounds,
// or when the text does not parse, what it added is taken back and the
// command is marked Unread instead.
func (w *walker) runText(n int, p string, lines []string, via string, sc scope) {
	if w.nest >= MaxScriptDepth || sc.depth+1 > MaxDepth {
		w.unread(n, p, "runs files nested too deep to read")
		return
	}
	size := 0
	for _, l := range lines {
		size += len(l)
	}
	out, err, words, work := len(w.out), w.err, w.words, w.work
	w.workLimit += 3 * size // the file's text and its code scan
	w.nest++
	for _, l := range lines {
		w.script(l, sc, via, sc.depth+1)
	}
	w.nest--
	if w.err != err {
		w.out, w.err, w.words, w.work = w.out[:out], err, words, work
		w.unread(n, p, "too long or complex to check")
	}
}

// runScript judges the file p a shell runs (bash p ARGS, source p, a
// path run directly), at out[n]; args are its $1 ...
func (w *walker) runScript(n int, p string, args []word, sc *scope) {
	content, found, why := w.fileContent(p)
	if why != "" {
		w.unread(n, p, why)
	}
	if !found {
		return
	}
	sub := w.sub(sc, w.out[n].Cwd)
	w.setVar(&sub, "0", word{text: p})
	for i, a := range args {
		if i >= 9 {
			break
		}
		w.setVar(&sub, string(rune('1'+i)), a)
	}
	w.runText(n, p, []string{content}, "script "+showPath(p, sc.cwd), sub)
}

// showPath is p as a command line would name it from cwd.
func showPath(p, cwd string) string {
	if rel, err := filepath.Rel(cwd, p); err == nil && !strings.HasPrefix(rel, "..") {
		return "./" + rel
	}
	return p
}

// runs looks at the command just emitted at out[n] for a file it runs:
// a script sourced or run by its path, an interpreter's program file, a
// task runner's recipes. roles are the program's, codeGiven whether its
// code was given as an option (python -c).
func (w *walker) runs(n int, roles *ProgramRoles, codeGiven bool, sc *scope) {
	if n >= len(w.out) || (w.env.ReadScript == nil && len(w.written) == 0) {
		return
	}
	c := &w.out[n]
	if c.Dynamic && len(c.Operands) == 0 || c.Remote || c.DryRun || shells[c.Name] {
		return // a shell's script is shell()'s
	}
	switch {
	case c.Name == "source" || c.Name == ".":
		if len(c.Operands) > 0 {
			w.runScript(n, w.abs(c.Operands[0], c.Cwd), nil, sc)
		}
		return
	case roles != nil && roles.StdinCode && !codeGiven && len(c.Operands) > 0 && !readsStdin(c.Operands[0]):
		w.codeFile(n, w.abs(c.Operands[0], c.Cwd), c.Name, sc)
		return
	case strings.Contains(c.Program, "/") && !c.Dynamic && !systemProgram(c.Program):
		w.pathRun(n, sc)
		return
	}
	if tr := taskRunners[c.Name]; tr != nil {
		w.task(n, tr, sc)
	}
}

// codeFile scans an interpreter's program file as its code string.
func (w *walker) codeFile(n int, p, interp string, sc *scope) {
	content, found, why := w.fileContent(p)
	if why != "" {
		w.unread(n, p, why)
	}
	if !found || w.nest >= MaxScriptDepth {
		return
	}
	out, err, words, work := len(w.out), w.err, w.words, w.work
	w.workLimit += 3 * len(content)
	w.nest++
	c := w.out[n]
	w.scanCode(&c, content, interp+" "+showPath(p, c.Cwd), sc)
	w.nest--
	if w.err != err {
		w.out, w.err, w.words, w.work = w.out[:out], err, words, work
		w.unread(n, p, "too long or complex to check")
		return
	}
	w.out[n] = c
}

// pathRun judges a file run by its path (./x.sh): by its #! line's
// interpreter, or as a shell script when it has none and is text (the
// shell runs such a file itself). A binary runs nothing we can read.
func (w *walker) pathRun(n int, sc *scope) {
	c := w.out[n]
	p := w.abs(c.Program, c.Cwd)
	content, found, why := w.fileContent(p)
	head := content
	if len(head) > 256 {
		head = head[:256]
	}
	if strings.IndexByte(head, 0) >= 0 {
		return // a binary
	}
	interp := ""
	if strings.HasPrefix(head, "#!") {
		line, _, _ := strings.Cut(head[2:], "\n")
		f := strings.Fields(line)
		if len(f) > 0 {
			interp = base(f[0])
		}
		for i := 1; interp == "env" && i < len(f); i++ {
			if !strings.HasPrefix(f[i], "-") && !strings.Contains(f[i], "=") {
				interp = base(f[i])
			}
		}
	}
	if why != "" {
		// A file not read to the end that says it is a script, or one
		// the daemon may not read at all (a program or a script: unknown).
		if interp != "" || why == UnreadDenied {
			w.unread(n, p, why)
		}
		return
	}
	if !found {
		return
	}
	args := make([]word, len(c.Args))
	for i, a := range c.Args {
		args[i] = word{text: a}
	}
	switch {
	case interp == "" || shells[interp]:
		w.remember(p, content)
		w.runScript(n, p, args, sc)
	case w.env.Roles.program(interp) != nil && w.env.Roles.program(interp).StdinCode:
		w.remember(p, content)
		w.codeFile(n, p, interp, sc)
	}
}

// noteWrite records what the command just emitted at out[n] writes into
// a file when the command line holds all of it (echo, printf, a here-
// document to cat or tee), so that a later `sh FILE` in the same command
// line is judged on it before the file exists.
func (w *walker) noteWrite(n int) {
	c := &w.out[n]
	if len(c.Redirects) == 0 && c.Name != "tee" {
		return
	}
	text, ok := Output(*c)
	if !ok && c.Name == "tee" && n > 0 && len(c.PipeFrom) > 0 && c.PipeFrom[len(c.PipeFrom)-1] == w.out[n-1].Name {
		text, ok = Output(w.out[n-1]) // echo ... | tee FILE
	}
	if !ok || c.Remote {
		return
	}
	put := func(p string, appending bool) {
		if old, known := w.written[p]; known && appending {
			w.remember(p, old+text)
			return
		}
		// Appended to a file read from disk only when it runs: the
		// added lines are judged on their own.
		w.remember(p, text)
	}
	for _, r := range c.Redirects {
		switch r.Op {
		case ">", ">|", "1>", "&>", "1>|":
			put(r.Path, false)
		case ">>", "1>>", "&>>":
			put(r.Path, true)
		}
	}
	if c.Name == "tee" {
		appending := contains(c.Flags, "a") || contains(c.Flags, "append")
		for _, p := range c.Writes {
			put(p, appending)
		}
	}
}

// remember records a file's content for the rest of the parse.
func (w *walker) remember(p, content string) {
	if p == "" || len(content) > MaxScriptSize {
		return
	}
	if _, known := w.written[p]; !known && len(w.written) >= 2*MaxScriptFiles {
		return
	}
	if w.written == nil {
		w.written = map[string]string{}
	}
	w.written[p] = content
}

// systemProgram reports whether a program path is in a folder of
// installed programs, not one a command line or an agent writes scripts
// to: /usr/bin/git is not read.
func systemProgram(p string) bool {
	for _, dir := range []string{"/usr/", "/bin/", "/sbin/", "/opt/homebrew/", "/nix/", "/System/", "/Library/Apple/"} {
		if strings.HasPrefix(p, dir) {
			return true
		}
	}
	return false
}

// startupFile reports whether p is a file every shell or login runs
// anyway (~/.bashrc, ~/.profile, /etc/profile ...): `source ~/.bashrc`
// runs nothing new, and what is written into them is judged then
// (the persistence rules), so the user's own lines are not read here.
func (w *walker) startupFile(p string) bool {
	if strings.HasPrefix(p, "/etc/") {
		return true
	}
	return w.env.Home != "" && filepath.Dir(p) == w.env.Home && strings.HasPrefix(filepath.Base(p), ".")
}
