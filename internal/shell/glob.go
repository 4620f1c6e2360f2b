package shell

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
)

// Bounds of pathname expansion against the file system (Env.Look). A glob
// past them is expanded no further and recorded in Command.Unjudged, so
// policies can ask when it starts where a protected place lies.
const (
	MaxGlobMatches = 256  // matches of one word
	MaxGlobEntries = 4096 // folder entries read in one parse
	MaxGlobDepth   = 16   // folders below the start a ** descends
)

// Unjudged is a glob or an archive whose contents could not be read
// within the bounds: Root is the folder it works from.
type Unjudged struct {
	Kind string `json:"kind"` // "glob", "archive" or "patch"
	Root string `json:"root"`
	Why  string `json:"why"`
}

// globState is what one parse has spent on the file system.
type globState struct {
	// entries counts folder entries read. The bounds are counts, not
	// time, so that the same call on the same tree is always judged the
	// same, however loaded the machine; a folder that never answers
	// (a hung mount) is left to the daemon's deadline, which denies.
	entries int
}

// expansion is what a glob word stands for on the file system.
type expansion struct {
	matches  []string // absolute, sorted per folder as the shell sorts
	complete bool
	root     string // the folder the walk started in
	why      string
}

// expandGlob expands a non-dynamic glob word against the file system as
// the shell would at this moment: *, ?, [...] within one path element, **
// across folders (links to folders are not followed by **), and names
// starting with a dot only when the element does. Brace expansion came
// first (fields). It reads folder listings only: no file is opened, so a
// FIFO or a device in the tree cannot block it.
func (w *walker) expandGlob(wd word, cwd string) expansion {
	pat := wd.gl
	if pat == "" {
		pat = wd.text
	}
	if !strings.HasPrefix(pat, "/") {
		pat = escapeGlob(strings.TrimSuffix(cwd, "/")) + "/" + pat
	}
	segs := strings.Split(pat[1:], "/")
	i := 0
	for i < len(segs) && !hasGlob(segs[i]) {
		i++
	}
	root := "/" + unescape(strings.Join(segs[:i], "/"))
	root = filepath.Clean(root)
	ex := expansion{root: root, complete: true}
	if w.glob == nil {
		w.glob = &globState{}
	}
	w.walkGlob(root, segs[i:], 0, &ex)
	return ex
}

// walkGlob matches segs below dir, adding what exists to ex.
func (w *walker) walkGlob(dir string, segs []string, depth int, ex *expansion) {
	if !ex.complete {
		return
	}
	if len(segs) == 0 {
		if _, err := os.Lstat(dir); err == nil {
			if len(ex.matches) >= MaxGlobMatches {
				ex.complete, ex.why = false, "more than 256 matches"
				return
			}
			ex.matches = append(ex.matches, dir)
		}
		return
	}
	seg, rest := segs[0], segs[1:]
	switch {
	case seg == "":
		// A trailing slash: only folders match.
		if len(rest) == 0 {
			if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
				w.walkGlob(dir+"/", nil, depth, ex)
			}
			return
		}
		w.walkGlob(dir, rest, depth, ex)
		return
	case !hasGlob(seg):
		w.walkGlob(filepath.Join(dir, unescape(seg)), rest, depth, ex)
		return
	case seg == "**":
		// Zero or more folders, links to folders not followed.
		w.walkGlob(dir, rest, depth, ex)
		if depth >= MaxGlobDepth {
			ex.complete, ex.why = false, "deeper than 16 folders"
			return
		}
		for _, e := range w.listDir(dir, ex) {
			if e.IsDir() && (!strings.HasPrefix(e.Name(), ".") || w.dotglob) {
				w.walkGlob(filepath.Join(dir, e.Name()), segs, depth+1, ex)
			}
		}
		return
	}
	re, err := regexp.Compile("^(?:" + globRE(seg) + ")$")
	if err != nil {
		ex.complete, ex.why = false, "a pattern it cannot read"
		return
	}
	dot := strings.HasPrefix(seg, ".") || strings.HasPrefix(seg, `\.`) || w.dotglob
	for _, e := range w.listDir(dir, ex) {
		name := e.Name()
		if (name[0] == '.' && !dot) || !re.MatchString(name) {
			continue
		}
		p := filepath.Join(dir, name)
		if len(rest) > 0 && !e.IsDir() {
			// A link to a folder is followed, as the kernel follows it.
			if e.Type()&fs.ModeSymlink == 0 {
				continue
			}
			if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
				continue
			}
		}
		w.walkGlob(p, rest, depth, ex)
	}
}

// listDir reads a folder's entries, sorted, within the parse's bounds.
func (w *walker) listDir(dir string, ex *expansion) []fs.DirEntry {
	g := w.glob
	left := MaxGlobEntries - g.entries
	if left <= 0 {
		ex.complete, ex.why = false, "more than 4096 folder entries"
		return nil
	}
	// Only a folder is opened, and never so as to wait: a FIFO named
	// where a folder is expected must not block the decision.
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil
	}
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		return nil
	}
	es, _ := f.ReadDir(left + 1)
	g.entries += len(es)
	if len(es) > left {
		ex.complete, ex.why = false, "more than 4096 folder entries"
		es = es[:left]
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Name() < es[j].Name() })
	return es
}

// escapeGlob escapes the glob characters of a literal path.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, `*?[\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[\`, s[i]) >= 0 {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// classEnd is the index of the ] closing the bracket expression that
// opens at lit[i], or -1: a ] first (after ! or ^) is literal, and
// [:alpha:] inside is a class name.
func classEnd(lit string, i int) int {
	j := i + 1
	if j < len(lit) && (lit[j] == '!' || lit[j] == '^') {
		j++
	}
	if j < len(lit) && lit[j] == ']' {
		j++
	}
	for ; j < len(lit); j++ {
		switch lit[j] {
		case '\\':
			j++
		case '[':
			if j+1 < len(lit) && (lit[j+1] == ':' || lit[j+1] == '.' || lit[j+1] == '=') {
				if k := strings.Index(lit[j+2:], string(lit[j+1])+"]"); k >= 0 {
					j += k + 3
				}
			}
		case ']':
			return j
		}
	}
	return -1
}

// classRE turns the inside of a bracket expression into a regular
// expression class.
func classRE(class string) string {
	var sb strings.Builder
	sb.WriteByte('[')
	i := 0
	if i < len(class) && (class[i] == '!' || class[i] == '^') {
		sb.WriteByte('^')
		i++
	}
	if i < len(class) && class[i] == ']' {
		sb.WriteString(`\]`)
		i++
	}
	for ; i < len(class); i++ {
		c := class[i]
		switch {
		case c == '\\' && i+1 < len(class):
			i++
			sb.WriteString(regexp.QuoteMeta(class[i : i+1]))
		case c == '[' && i+1 < len(class) && class[i+1] == ':':
			k := strings.Index(class[i:], ":]")
			if k < 0 {
				sb.WriteString(`\[`)
				continue
			}
			sb.WriteString(class[i : i+k+2])
			i += k + 1
		case c == '[' || c == '\\' || c == '^':
			sb.WriteString(`\` + string(c))
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte(']')
	return sb.String()
}

// GlobPattern is an anchored regular expression for what a glob written
// as text matches (a unit name given to systemctl, which matches it
// itself), or "" when text has no glob.
func GlobPattern(text string) string {
	if !hasGlob(text) {
		return ""
	}
	return "^(?:" + globRE(text) + ")$"
}

// globTarget is the file a redirection to a glob opens: Bash expands a
// target that matches one file to it, and a protected place the pattern
// names counts even where it is not there yet; else the name as written.
func (w *walker) globTarget(wd word, cwd, literal string) string {
	if w.env.Look {
		if ex := w.expandGlob(wd, cwd); len(ex.matches) == 1 {
			return ex.matches[0]
		}
	}
	if hits := w.matchExamples(wd, cwd); len(hits) > 0 {
		return hits[0]
	}
	return literal
}
