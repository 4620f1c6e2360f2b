// Package realpath resolves the paths a tool call names the way the
// kernel will when the call runs, and knows the protected files and
// folders by what they are on disk, (device, inode), not by their names.
//
// It runs inside the daemon, on every call that names a path, so it only
// ever lstats and readlinks (never opens, so a FIFO cannot block it), and
// every piece of work is bounded: MaxHops links per path, MaxLookups
// file-system calls per call, one lstat per distinct prefix per call.
package realpath

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxHops is how many symbolic links one path may pass through, as
// Linux's MAXSYMLINKS: past it the kernel fails with ELOOP, and so does
// Resolve.
const MaxHops = 40

// MaxLookups is how many lstat, readlink and stat calls one call's
// paths may cost (each distinct prefix is looked up once per call): past
// it the rest are judged as written, and the caller says so.
const MaxLookups = 4096

// Resolver resolves the paths of one call. Its zero value works against
// the real file system with no cwd for /proc/self/cwd.
type Resolver struct {
	// Cwd is the directory the call runs in: what /proc/self/cwd and
	// /proc/thread-self/cwd are for the agent's command (in the daemon
	// they would name the daemon's own).
	Cwd string
	// Links are symbolic links the same call makes before it uses them
	// (ln -s ~ h && echo x > h/.bashrc): link path (absolute, clean) to
	// target as written. They are seen before the file system.
	Links map[string]string
	// Lstat and Readlink default to the os package's.
	Lstat    func(string) (fs.FileInfo, error)
	Readlink func(string) (string, error)

	// Lookups counts the file-system calls made so far; past Max (when
	// set) nothing more is looked up, what is left is joined as text and
	// Exhausted is set.
	Lookups   int
	Max       int
	Exhausted bool

	// seen caches what each absolute path is for this call: its link
	// target, or "" for an existing non-link, or missing.
	seen map[string]entry
}

type entry struct {
	target  string
	link    bool
	missing bool
}

// Exists reports whether Resolve found p, a path it returned, on disk.
func (r *Resolver) Exists(p string) bool {
	e, ok := r.seen[p]
	return ok && !e.missing
}

// AddLink records a link made by the call itself (see Links).
func (r *Resolver) AddLink(link, target string) {
	if r.Links == nil {
		r.Links = map[string]string{}
	}
	r.Links[filepath.Clean(link)] = target
	delete(r.seen, filepath.Clean(link))
}

func (r *Resolver) look(p string) entry {
	if t, ok := r.Links[p]; ok {
		return entry{target: t, link: true}
	}
	if e, ok := r.seen[p]; ok {
		return e
	}
	if r.Max > 0 && r.Lookups >= r.Max {
		r.Exhausted = true
		return entry{missing: true}
	}
	lstat, readlink := r.Lstat, r.Readlink
	if lstat == nil {
		lstat = os.Lstat
	}
	if readlink == nil {
		readlink = os.Readlink
	}
	var e entry
	r.Lookups++
	fi, err := lstat(p)
	switch {
	case err != nil:
		e.missing = true
	case fi.Mode()&fs.ModeSymlink != 0:
		r.Lookups++
		t, err := readlink(p)
		if err != nil || t == "" {
			e.missing = true
		} else {
			e.link, e.target = true, t
		}
	}
	if r.seen == nil {
		r.seen = map[string]entry{}
	}
	r.seen[p] = e
	return e
}

// Resolve returns p (absolute, as written: not cleaned, so that `..`
// after a link goes up from the link's target as the kernel does) with
// every link on its longest existing prefix followed, /proc/self/root
// and /proc/self/cwd mapped to the agent's view, and what does not exist
// yet joined on as text. ok is false when the links loop or pass
// MaxHops: the kernel would refuse the path too.
func (r *Resolver) Resolve(p string) (string, bool) {
	if !strings.HasPrefix(p, "/") {
		return filepath.Clean(p), true
	}
	rest := split(p)
	cur := "/"
	hops := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := join(cur, c)
		if mapped, tail, ok := r.proc(next, rest); ok {
			if mapped == "" {
				// A /proc entry that is not a folder we can see into
				// (fd/3, environ): kept as text.
				return filepath.Clean(join(next, strings.Join(rest, "/"))), true
			}
			hops++
			if hops > MaxHops {
				return "", false
			}
			cur, rest = "/", append(split(mapped), tail...)
			continue
		}
		e := r.look(next)
		switch {
		case e.link:
			hops++
			if hops > MaxHops {
				return "", false
			}
			if strings.HasPrefix(e.target, "/") {
				cur = "/"
			}
			rest = append(split(e.target), rest...)
		case e.missing && !r.linkUnder(next):
			// Nothing to follow past here: the rest is created or fails.
			return filepath.Clean(join(next, strings.Join(rest, "/"))), true
		default:
			cur = next
		}
	}
	return cur, true
}

// linkUnder reports whether the call made a link inside dir, a folder
// missing on disk (mkdir -p d && ln -s ~ d/h): by the time the link is
// used dir exists, so the walk goes on into it and reaches the link.
func (r *Resolver) linkUnder(dir string) bool {
	prefix := strings.TrimSuffix(dir, "/") + "/"
	for link := range r.Links {
		if strings.HasPrefix(link, prefix) {
			return true
		}
	}
	return false
}

// proc maps /proc/self and /proc/thread-self (the daemon's own, not the
// agent's) and /proc/<pid>/root: next is the path so far, rest what
// follows. It returns what the path stands for and the rest after it;
// mapped "" means an entry kept as text; ok false means no mapping.
func (r *Resolver) proc(next string, rest []string) (mapped string, tail []string, ok bool) {
	dir, name := filepath.Split(next)
	if dir != "/proc/" {
		return "", nil, false
	}
	self := name == "self" || name == "thread-self"
	if !self && !allDigits(name) {
		return "", nil, false
	}
	i := 0
	// /proc/self/task/<tid>/...: the same process's root and cwd.
	if i+1 < len(rest) && rest[i] == "task" && allDigits(rest[i+1]) {
		i += 2
	}
	if i >= len(rest) {
		if self {
			return "", nil, true
		}
		return "", nil, false
	}
	switch rest[i] {
	case "root":
		// The agent and the daemon share the root (a chrooted or
		// containerised process is out of reach of user mode anyway).
		return "/", rest[i+1:], true
	case "cwd":
		if self {
			if r.Cwd == "" {
				return "", nil, true
			}
			return r.Cwd, rest[i+1:], true
		}
		return "", nil, false // another process's cwd: the kernel's link
	}
	if self {
		return "", nil, true
	}
	return "", nil, false
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func split(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

func join(dir, name string) string {
	if name == "" {
		return dir
	}
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}
