package realpath

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Refresh is how old the Index's stats may be when a call asks: the
// protected places are re-stat'ed at most this often, on the first call
// after, so a folder renamed or a file replaced is known again within it
// at the cost of a few dozen lstats.
const Refresh = 2 * time.Second

// MaxChildren is how many entries of each protected folder are known by
// ID (see Index.Match).
const MaxChildren = 64

// ID is a file's identity: what a hard link, a bind mount or a renamed
// folder keeps.
type ID struct{ Dev, Ino uint64 }

// Index knows the protected files and folders by ID, and which of them
// sit on a volume that compares names without case.
type Index struct {
	places []string
	// Stat gives a path's ID (following a last link), ok false when it
	// has none; it defaults to os.Stat's. Insensitive reports whether the
	// volume holding an existing path folds case; it defaults to a probe
	// with the name's case swapped (see CaseInsensitive).
	Stat        func(string) (ID, bool)
	Insensitive func(string) bool
	now         func() time.Time

	mu    sync.Mutex
	last  time.Time
	ids   map[ID]string
	dirs  map[string]bool // places that are folders
	folds []string        // places on a case-insensitive volume
}

// NewIndex makes an Index of places (absolute, clean), stat'ed on first
// use and every Refresh after.
func NewIndex(places []string) *Index {
	x := &Index{places: places}
	return x
}

// Places are the paths the index protects.
func (x *Index) Places() []string { return x.places }

func (x *Index) refresh() {
	now := time.Now
	if x.now != nil {
		now = x.now
	}
	t := now()
	if x.ids != nil && t.Sub(x.last) < Refresh {
		return
	}
	x.last = t
	stat := x.Stat
	if stat == nil {
		stat = StatID
	}
	insensitive := x.Insensitive
	if insensitive == nil {
		insensitive = CaseInsensitive
	}
	ids := map[ID]string{}
	dirs := map[string]bool{}
	var folds []string
	// A place that is gone keeps the ID it had: a folder renamed away is
	// still the protected folder under its new name.
	if len(x.ids) < (MaxChildren+4)*len(x.places) {
		for id, p := range x.ids {
			ids[id] = p
		}
	}
	for _, p := range x.places {
		fi, err := os.Stat(p)
		if err != nil {
			if x.dirs[p] {
				dirs[p] = true
			}
			continue
		}
		if id, ok := stat(p); ok {
			ids[id] = p
		}
		if fi.IsDir() {
			dirs[p] = true
			// The files right inside a protected folder are known by
			// ID too, so a hard link to ~/.ssh/id_ed25519 is the key.
			// Reading a folder cannot block; the count is bounded.
			if f, err := os.Open(p); err == nil {
				names, _ := f.Readdirnames(MaxChildren)
				f.Close()
				for _, n := range names {
					c := filepath.Join(p, n)
					if id, ok := stat(c); ok {
						if _, taken := ids[id]; !taken {
							ids[id] = c
						}
					}
				}
			}
		}
		if insensitive(p) {
			folds = append(folds, p)
		}
	}
	x.ids, x.dirs, x.folds = ids, dirs, folds
}

// Match returns the protected places p is, by identity or by name on a
// case-insensitive volume: the place itself when p has its ID (a hard
// link, a bind mount), or place/name when p's folder has the ID of a
// protected folder (a file in a renamed or mounted copy of ~/.ssh). p is
// resolved (no links left but its last component, which Stat follows).
// Places p names as written are left out.
func (x *Index) Match(p string) []string {
	if x == nil || !strings.HasPrefix(p, "/") {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.refresh()
	stat := x.Stat
	if stat == nil {
		stat = StatID
	}
	var out []string
	add := func(s string) {
		if s != p {
			for _, o := range out {
				if o == s {
					return
				}
			}
			out = append(out, s)
		}
	}
	if id, ok := stat(p); ok {
		if q, ok := x.ids[id]; ok {
			add(q)
		}
	}
	dir := filepath.Dir(p)
	if dir != p {
		if id, ok := stat(dir); ok {
			if q, ok := x.ids[id]; ok && x.dirs[q] {
				add(filepath.Join(q, filepath.Base(p)))
			}
		}
	}
	for _, q := range x.folds {
		if c, ok := fold(p, q); ok {
			add(c)
		}
	}
	return out
}

// Reaches reports the protected place a relative path written from a
// folder not known (cd "$X"; echo > NAME) could be: one whose path ends
// with rel (config.yaml, .claude/settings.json), or something inside a
// protected folder named by rel's first component (.ssh/authorized_keys).
func (x *Index) Reaches(rel string) (string, bool) {
	if x == nil || rel == "" || strings.HasPrefix(rel, "/") {
		return "", false
	}
	rel = filepath.Clean(rel)
	for _, q := range x.places {
		if strings.HasSuffix(q, "/"+rel) {
			return q, true
		}
		// A name inside a protected folder: .ssh/authorized_keys.
		first, _, _ := strings.Cut(rel, "/")
		if strings.Contains(rel, "/") && filepath.Base(q) == first {
			return filepath.Join(q, rel[len(first)+1:]), true
		}
	}
	return "", false
}

// fold gives p spelled as place when p names place, or something in it,
// up to case: on a case-insensitive volume ~/.Claude/settings.json is
// ~/.claude/settings.json.
func fold(p, place string) (string, bool) {
	if len(p) < len(place) || !strings.EqualFold(p[:len(place)], place) {
		return "", false
	}
	rest := p[len(place):]
	if rest != "" && rest[0] != '/' {
		return "", false
	}
	return place + rest, true
}

// CaseInsensitive reports whether the volume holding p, an existing
// path, finds a name whatever its case: it looks for p's name with its
// case swapped and checks it is the same file. A name without letters
// says nothing and reports false. Only lstat: nothing is opened.
func CaseInsensitive(p string) bool {
	dir, name := filepath.Split(p)
	swapped := swapCase(name)
	if swapped == name {
		return false
	}
	a, err := os.Lstat(p)
	if err != nil {
		return false
	}
	b, err := os.Lstat(filepath.Join(dir, swapped))
	if err != nil {
		return false
	}
	return os.SameFile(a, b)
}

func swapCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = c - 32
		case c >= 'A' && c <= 'Z':
			b[i] = c + 32
		}
	}
	return string(b)
}

// StatID is p's ID (os.Stat: a last link is followed).
func StatID(p string) (ID, bool) {
	fi, err := os.Stat(p)
	if err != nil {
		return ID{}, false
	}
	return fileID(fi)
}
