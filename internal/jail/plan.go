package jail

import (
	"os"
	"path/filepath"
	"sort"
	"syscall"
)

// Access is a set of file-system rights, with Landlock's bit values (the
// Seatbelt profile is made from the Profile itself, not from these).
type Access uint64

// The rights, as Landlock numbers them.
const (
	Execute    Access = 1 << 0
	WriteFile  Access = 1 << 1
	ReadFile   Access = 1 << 2
	ReadDir    Access = 1 << 3
	RemoveDir  Access = 1 << 4
	RemoveFile Access = 1 << 5
	MakeChar   Access = 1 << 6
	MakeDir    Access = 1 << 7
	MakeReg    Access = 1 << 8
	MakeSock   Access = 1 << 9
	MakeFifo   Access = 1 << 10
	MakeBlock  Access = 1 << 11
	MakeSym    Access = 1 << 12
	Refer      Access = 1 << 13 // ABI 2
	Truncate   Access = 1 << 14 // ABI 3
	IoctlDev   Access = 1 << 15 // ABI 5
)

// Groups of rights the plan reasons in.
const (
	makeAny   = MakeChar | MakeDir | MakeReg | MakeSock | MakeFifo | MakeBlock | MakeSym
	removeAny = RemoveDir | RemoveFile
	// fileRights are the only rights a rule on a file (not a folder) may hold.
	fileRights = Execute | WriteFile | ReadFile | Truncate | IoctlDev
	// All is every right the plan knows.
	All = Execute | WriteFile | ReadFile | ReadDir | removeAny | makeAny | Refer | Truncate | IoctlDev
	// changeContents are the rights that change a file's bytes.
	changeContents = WriteFile | Truncate
	// changeEntries are the rights that add, remove or move a folder's
	// entries.
	changeEntries = removeAny | makeAny | Refer
)

// Rule grants Access on everything at and below Path.
type Rule struct {
	Path   string
	Access Access
}

// Plan turns a profile into Landlock's terms. Landlock only grants: a
// rule on a folder gives its rights to everything below it, and no rule
// can take a right back. So a denied place is carved out: no folder
// above it is granted what is denied in it, and every other entry of
// those folders is granted in full by a rule of its own. The folders
// above a place kept from being written also lose the rights to add,
// remove and move entries, so the place can be neither replaced nor
// made where it is missing (and nothing new is made right in them: the
// cost, said in the docs).
//
// Places the user could not touch anyway are left to the file modes,
// which keeps the rules few: a missing place to be kept unread (there
// is nothing to read), one the user cannot read, and one kept unwritten
// whose folder the user cannot write (/etc as a user).
//
// Plan reads the folders above denied places as they are when the call
// starts; entries made later in them have only those folders' rights.
func Plan(p Profile) []Rule {
	v := newView()
	noRead := effective(v.resolveAll(p.NoRead), v.resolveAll(p.Read))
	noWrite := effective(v.resolveAll(p.NoWrite), v.resolveAll(p.Write))

	// own: what is denied at and below each denied place.
	// above: what no folder above a denied place may be granted.
	own := map[string]Access{}
	above := map[string]Access{}
	for _, place := range noRead {
		if e := v.entry(place); !e.exists || !v.may(place, accessRead) {
			continue
		}
		own[place] |= ReadFile
		for _, a := range ancestors(place) {
			above[a] |= ReadFile
		}
	}
	for _, place := range noWrite {
		e := v.entry(place)
		if !v.may(v.existing(place), accessWrite) && (!e.exists || !v.may(place, accessWrite)) {
			continue
		}
		own[place] |= changeContents | changeEntries
		deny := changeContents | removeAny | Refer
		if !e.exists || e.dir {
			// A folder's new entries, and a missing place itself, are
			// made in the folders above it.
			deny |= makeAny
		}
		for _, a := range ancestors(place) {
			above[a] |= deny
		}
	}

	var rules []Rule
	add := func(path string, e fsEntry, access Access) {
		if !e.exists || e.link {
			// Nothing to hold a rule (it is made later, or a link whose
			// target is judged by its own place).
			return
		}
		if !e.dir {
			access &= fileRights
		}
		if access != 0 {
			rules = append(rules, Rule{Path: path, Access: access})
		}
	}
	folders := make([]string, 0, len(above))
	for f := range above {
		folders = append(folders, f)
	}
	sort.Strings(folders)
	listed := map[string]bool{}
	for _, folder := range folders {
		add(folder, v.entry(folder), All&^above[folder]&^own[folder])
		entries, err := os.ReadDir(folder)
		if err != nil {
			continue
		}
		for _, de := range entries {
			child := filepath.Join(folder, de.Name())
			if _, carved := above[child]; carved {
				continue // a folder of its own in this loop
			}
			t := de.Type()
			listed[child] = true
			add(child, fsEntry{exists: true, dir: t.IsDir(), link: t&os.ModeSymlink != 0}, All&^own[child])
		}
	}
	// A denied place that is not above another is granted what it keeps
	// when it was not reached as an entry (its folder unreadable, say).
	for place, deny := range own {
		if _, carved := above[place]; !carved && !listed[place] {
			add(place, v.entry(place), All&^deny)
		}
	}
	// Grants are rules of their own: they add rights below a denied place.
	for _, g := range v.resolveAll(p.Read) {
		add(g, v.entry(g), ReadFile|ReadDir|Execute)
	}
	for _, g := range v.resolveAll(p.Write) {
		add(g, v.entry(g), All)
	}
	// With no denied place at all, everything is granted.
	if len(above) == 0 && len(own) == 0 {
		rules = append(rules, Rule{Path: "/", Access: All})
	}
	return rules
}

// effective drops the denied places that a grant covers.
func effective(denied, granted []string) []string {
	var out []string
	for _, d := range denied {
		covered := false
		for _, g := range granted {
			covered = covered || under(d, g)
		}
		if !covered {
			out = append(out, d)
		}
	}
	return out
}

// ancestors are the folders above path, "/" first.
func ancestors(path string) []string {
	var out []string
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		out = append(out, dir)
		if dir == "/" || dir == "." {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// fsEntry is what Plan needs to know of a path.
type fsEntry struct{ exists, dir, link bool }

// view answers Plan's questions about the file system once per path:
// the profile names a few hundred places under a handful of folders.
type view struct {
	entries  map[string]fsEntry
	resolved map[string]string
}

func newView() *view {
	return &view{entries: map[string]fsEntry{}, resolved: map[string]string{"/": "/"}}
}

func (v *view) entry(path string) fsEntry {
	if e, ok := v.entries[path]; ok {
		return e
	}
	var e fsEntry
	if fi, err := os.Lstat(path); err == nil {
		e = fsEntry{exists: true, dir: fi.IsDir(), link: fi.Mode()&os.ModeSymlink != 0}
	}
	v.entries[path] = e
	return e
}

// existing is path's nearest existing folder (or path itself).
func (v *view) existing(path string) string {
	for p := path; ; p = filepath.Dir(p) {
		if v.entry(p).exists || p == "/" || p == "." {
			return p
		}
	}
}

// Modes of access(2).
const (
	accessRead  = 4
	accessWrite = 2
)

// may reports whether this process may read (or write) path by its
// modes: a place it may not is the file modes' to keep.
func (v *view) may(path string, mode uint32) bool {
	return syscall.Access(path, mode) == nil
}

// resolveAll resolves each place's links as far as it exists, so that a
// place named through a link is denied where it really is.
func (v *view) resolveAll(places []string) []string {
	out := make([]string, 0, len(places))
	for _, p := range tidy(places) {
		out = append(out, v.resolve(p))
	}
	return tidy(out)
}

// resolve is p with every link along it followed, component by
// component, each folder's answer kept.
func (v *view) resolve(p string) string {
	if r, ok := v.resolved[p]; ok {
		return r
	}
	parent := v.resolve(filepath.Dir(p))
	r := filepath.Join(parent, filepath.Base(p))
	if e := v.entry(r); e.link {
		if target, err := filepath.EvalSymlinks(r); err == nil {
			r = target
		}
	}
	v.resolved[p] = r
	return r
}
