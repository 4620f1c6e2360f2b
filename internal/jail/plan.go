package jail

import (
	"os"
	"path/filepath"
	"sort"
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
// Plan reads the folders above denied places as they are when the call
// starts; entries made later in them have only those folders' rights.
func Plan(p Profile) []Rule {
	noRead := effective(resolveAll(p.NoRead), resolveAll(p.Read))
	noWrite := effective(resolveAll(p.NoWrite), resolveAll(p.Write))

	// own: what is denied at and below each denied place.
	// above: what no folder above a denied place may be granted.
	own := map[string]Access{}
	above := map[string]Access{}
	for _, place := range noRead {
		own[place] |= ReadFile
		for _, a := range ancestors(place) {
			above[a] |= ReadFile
		}
	}
	for _, place := range noWrite {
		own[place] |= changeContents | changeEntries
		deny := changeContents | removeAny | Refer
		if fi, err := os.Stat(place); err != nil || fi.IsDir() {
			// A folder's new entries, and a missing place itself, are
			// made in the folders above it.
			deny |= makeAny
		}
		for _, a := range ancestors(place) {
			above[a] |= deny
		}
	}

	var rules []Rule
	add := func(path string, access Access) {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink != 0 {
			// Nothing to hold a rule (it is made later, or a link whose
			// target is judged by its own place).
			return
		}
		if !fi.IsDir() {
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
	for _, folder := range folders {
		add(folder, All&^above[folder]&^own[folder])
		entries, err := os.ReadDir(folder)
		if err != nil {
			continue
		}
		for _, e := range entries {
			child := filepath.Join(folder, e.Name())
			if _, carved := above[child]; carved {
				continue // a folder of its own in this loop
			}
			add(child, All&^own[child])
		}
	}
	// A denied place that is not above another is granted what it keeps
	// when it was not reached as an entry (its folder unreadable, say).
	for place, deny := range own {
		if _, carved := above[place]; !carved && !listedIn(rules, place) {
			add(place, All&^deny)
		}
	}
	// Grants are rules of their own: they add rights below a denied place.
	for _, g := range resolveAll(p.Read) {
		add(g, ReadFile|ReadDir|Execute)
	}
	for _, g := range resolveAll(p.Write) {
		add(g, All)
	}
	// With no denied place at all, everything is granted.
	if len(above) == 0 && len(own) == 0 {
		rules = append(rules, Rule{Path: "/", Access: All})
	}
	return rules
}

func listedIn(rules []Rule, path string) bool {
	for _, r := range rules {
		if r.Path == path {
			return true
		}
	}
	return false
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

// resolveAll resolves each place's links as far as it exists, so that a
// place named through a link is denied where it really is.
func resolveAll(places []string) []string {
	out := make([]string, 0, len(places))
	for _, p := range tidy(places) {
		out = append(out, resolve(p))
	}
	return tidy(out)
}

func resolve(p string) string {
	rest := ""
	for cur := p; ; cur = filepath.Dir(cur) {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		if cur == "/" || cur == "." {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
	}
}
