package realpath

import (
	"os"
	"path/filepath"
	"slices"
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

// RefreshLinked is how old the stats may be when a call names a file
// with several hard links that no protected place has.
const RefreshLinked = 50 * time.Millisecond

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

func (x *Index) refresh(every time.Duration) {
	now := time.Now
	if x.now != nil {
		now = x.now
	}
	t := now()
	if x.ids != nil && t.Sub(x.last) < every {
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

// Lookup is what one call has stat'ed, so that the folders its paths
// share are stat'ed once (see Index.Match). Its zero value is ready.
type Lookup struct {
	dirs map[string]dirID
	// Stats counts the stats made, for the caller's budget.
	Stats int
}

type dirID struct {
	id ID
	ok bool
}

// Match returns the protected places p is, by identity or by name up to
// case on a case-insensitive volume: the place itself when p has its ID
// (a hard link, a bind mount), or place/name when p's folder has the ID
// of a protected folder (a file in a renamed or mounted copy of ~/.ssh).
// p is resolved (no links left but its last component, which is
// followed); exists says whether it does (a missing file is not
// stat'ed); lk, which may be nil, shares folder stats across a call.
// The place p names as written is left out.
func (x *Index) Match(p string, exists bool, lk *Lookup) []string {
	if x == nil || !strings.HasPrefix(p, "/") {
		return nil
	}
	if lk == nil {
		lk = &Lookup{}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.refresh(Refresh)
	stat := func(q string) (ID, uint64, bool) {
		lk.Stats++
		if x.Stat != nil {
			id, ok := x.Stat(q)
			return id, 1, ok
		}
		return statLinks(q)
	}
	var out []string
	add := func(s string) {
		if s != p && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if exists {
		if id, n, ok := stat(p); ok {
			q, known := x.ids[id]
			if !known && n > 1 {
				// More than one name and no place has it: maybe a hard
				// link to a place created since the last stat. Look
				// again, at most every RefreshLinked.
				x.refresh(RefreshLinked)
				q, known = x.ids[id]
			}
			if known {
				add(q)
			}
		}
	}
	if dir := filepath.Dir(p); dir != p {
		d, seen := lk.dirs[dir]
		if !seen {
			id, _, ok := stat(dir)
			d = dirID{id, ok}
			if lk.dirs == nil {
				lk.dirs = map[string]dirID{}
			}
			lk.dirs[dir] = d
		}
		if d.ok {
			if q, ok := x.ids[d.id]; ok && x.dirs[q] {
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
	id, _, ok := statLinks(p)
	return id, ok
}

// statLinks is p's ID and its count of hard links.
func statLinks(p string) (ID, uint64, bool) {
	fi, err := os.Stat(p)
	if err != nil {
		return ID{}, 0, false
	}
	if fi.IsDir() {
		id, _, ok := fileID(fi)
		return id, 1, ok
	}
	return fileID(fi)
}
