package input

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/realpath"
	"github.com/agentjail/agentjail/internal/shell"
)

// UnknownCwdWrite is a relative path a command writes after a cd to a
// folder only known when it runs, that could be a protected place
// (input.agentjail.unknown_cwd_writes).
type UnknownCwdWrite struct {
	Command string // the command's name
	Path    string // as written, relative
	Place   string // the protected place it could be
}

// identity resolves the paths of a call the way the kernel will (see
// internal/realpath) and adds, beside each path as written, the path it
// reaches and the protected places it is by (device, inode) or by name up
// to case, so that every rule about a place sees it whatever it is
// called. Bounded by realpath.MaxLookups file-system calls per call;
// past it the rest are judged as written and truncated is set.
type identity struct {
	index     *realpath.Index
	r         realpath.Resolver
	lk        realpath.Lookup
	home      string
	roles     *shell.Roles
	truncated bool
	// dotted maps a path cleaned as text to its written form (see
	// shell.Result.Dotted).
	dotted map[string]string
}

func newIdentity(env Env, cwd string, dotted map[string]string) *identity {
	return &identity{index: env.Identity, r: realpath.Resolver{Cwd: cwd, Max: realpath.MaxLookups}, home: env.Home, roles: env.Roles, dotted: dotted}
}

// also returns what p also is: the path the kernel reaches, when it
// differs, and the protected places that path is.
func (id *identity) also(p string) []string {
	if p == "" || !strings.HasPrefix(p, "/") {
		return nil
	}
	if id.r.Lookups+id.lk.Stats >= realpath.MaxLookups {
		id.truncated = true
		return nil
	}
	raw := p
	if w, ok := id.dotted[p]; ok {
		raw = w
	}
	res, ok := id.r.Resolve(raw)
	if id.r.Exhausted {
		id.truncated = true
	}
	if !ok {
		return nil // a loop: the kernel refuses the path too
	}
	res = unprivate(res, p)
	var out []string
	if res != p {
		out = append(out, res)
		// A glob behind a link (ln -s ~ h; rm h/.agentjai?/x): the parser
		// matched the spelled pattern; the resolved one may name a
		// protected place or a secret file.
		for _, m := range id.roles.GlobExamples(res, id.home) {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	for _, m := range id.index.Match(res, id.r.Exists(res), &id.lk) {
		if m != p && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// unprivate spells res, a resolved path, the way p was written when the
// only difference is macOS's /tmp, /var and /etc being links into
// /private: every path under the temp folder would otherwise gain a
// /private twin that rules about system folders would see.
func unprivate(res, p string) string {
	for _, d := range []string{"/tmp", "/var", "/etc"} {
		if strings.HasPrefix(res, "/private"+d) && (p == d || strings.HasPrefix(p, d+"/")) {
			if rest := res[len("/private"):]; rest == d || strings.HasPrefix(rest, d+"/") {
				return rest
			}
		}
	}
	return res
}

// realPath resolves p (for cd -P).
func (id *identity) realPath(p string) string {
	if res, ok := id.r.Resolve(p); ok {
		return unprivate(res, p)
	}
	return p
}

// addAll appends to list what each of its paths also is.
func (id *identity) addAll(list []string) []string {
	n := len(list)
	for _, p := range list[:n] {
		for _, a := range id.also(p) {
			if !slices.Contains(list, a) {
				list = append(list, a)
			}
		}
	}
	return list
}

// shell adds to each command's paths and writes what they also are, in
// order, following the links the commands before made (ln -s, cp -s, mv
// of a folder) as the kernel will when the line runs.
func (id *identity) shell(cmds []shell.Command) {
	for i := range cmds {
		c := &cmds[i]
		written := map[string]bool{}
		for _, w := range c.Writes {
			written[w] = true
		}
		named := append([]string(nil), c.Paths...)
		for _, r := range c.Redirects {
			if r.Path != "" && !slices.Contains(named, r.Path) {
				named = append(named, r.Path)
			}
		}
		for _, w := range c.Writes {
			if !slices.Contains(named, w) {
				named = append(named, w)
			}
		}
		for _, p := range named {
			for _, a := range id.also(p) {
				if !slices.Contains(c.Paths, a) {
					c.Paths = append(c.Paths, a)
				}
				if written[p] && !slices.Contains(c.Writes, a) {
					c.Writes = append(c.Writes, a)
				}
			}
		}
		c.Prefixes = id.addAll(c.Prefixes)
		id.links(c)
	}
}

// links records the links a command makes, for the commands after it:
// ln -s TARGET... LINK, cp -s, and mv of a folder (its new name reaches
// what the old one held).
func (id *identity) links(c *shell.Command) {
	if c.Dynamic || len(c.Operands) < 1 {
		return
	}
	symbolic := false
	switch c.Name {
	case "ln":
		symbolic = hasAny(c.Flags, "s", "symbolic")
	case "cp":
		symbolic = hasAny(c.Flags, "s", "symbolic-link")
	case "mv":
	default:
		return
	}
	if c.Name != "mv" && !symbolic {
		return
	}
	ops := c.Operands
	var targets []string
	var dest string
	if len(ops) == 1 {
		if c.Name == "mv" {
			return
		}
		targets, dest = ops, c.Cwd
	} else {
		targets, dest = ops[:len(ops)-1], Abs(ops[len(ops)-1], c.Cwd, id.home)
	}
	noDeref := hasAny(c.Flags, "n", "T", "no-dereference", "no-target-directory")
	intoDir := len(ops) != 2 || (!noDeref && id.isDir(dest))
	for _, t := range targets {
		link := dest
		if intoDir {
			link = filepath.Join(dest, filepath.Base(t))
		}
		target := ExpandHome(t, id.home)
		if c.Name == "mv" {
			// mv SRC DST: DST is now what SRC was; only a folder matters
			// (a file moved is judged as the write it is).
			src := Abs(t, c.Cwd, id.home)
			if !id.isDir(src) {
				continue
			}
			target = id.realPath(src)
		} else if c.Name == "cp" && !filepath.IsAbs(target) {
			target = Abs(target, c.Cwd, id.home)
		}
		id.r.AddLink(link, target)
	}
}

// isDir reports an existing folder (after links): lstat only.
func (id *identity) isDir(p string) bool {
	res, ok := id.r.Resolve(p)
	if !ok {
		return false
	}
	fi, err := os.Lstat(res)
	return err == nil && fi.IsDir()
}

// unknownCwd lists the relative writes of commands whose folder is not
// known that could reach a protected place.
func (id *identity) unknownCwd(cmds []shell.Command) []UnknownCwdWrite {
	var out []UnknownCwdWrite
	for _, c := range cmds {
		if !c.CwdUnknown {
			continue
		}
		prefix := strings.TrimSuffix(c.Cwd, "/") + "/"
		for _, w := range c.Writes {
			rel, ok := strings.CutPrefix(w, prefix)
			if !ok {
				continue
			}
			if place, ok := id.index.Reaches(rel); ok {
				out = append(out, UnknownCwdWrite{Command: c.Name, Path: rel, Place: place})
			}
		}
	}
	return out
}

// dottedFields maps, for the string fields of a tool's input and the
// files of its patch that name a path with .., the path cleaned (as Abs
// gives it) to its written form joined to cwd.
func dottedFields(ti map[string]any, patch *agent.Patch, cwd, home string) map[string]string {
	var out map[string]string
	values := make([]any, 0, len(ti))
	for _, v := range ti {
		values = append(values, v)
	}
	if patch != nil {
		// A patch names its files inside its text.
		for _, p := range patch.Writes() {
			values = append(values, p)
		}
	}
	for _, v := range values {
		s, ok := v.(string)
		if !ok || !strings.Contains(s, "..") || len(out) >= shell.MaxDotted {
			continue
		}
		raw := ExpandHome(s, home)
		if !filepath.IsAbs(raw) {
			raw = strings.TrimSuffix(cwd, "/") + "/" + raw
		}
		if out == nil {
			out = map[string]string{}
		}
		out[filepath.Clean(raw)] = raw
	}
	return out
}

func hasAny(flags []string, names ...string) bool {
	for _, f := range flags {
		if slices.Contains(names, f) {
			return true
		}
	}
	return false
}

// ProtectedPlaces are what the daemon knows by identity: agentjail's
// home, config and policies, its socket, every agent's user-level hook
// settings (agentconfig.UserPlaces) and the credential folders the
// policies name (relative to home).
func ProtectedPlaces(home, agentjailHome, socket string, agentPlaces, credentialDirs []string) []string {
	var out []string
	add := func(p string) {
		if p != "" && filepath.IsAbs(p) && !slices.Contains(out, p) {
			out = append(out, filepath.Clean(p))
		}
	}
	if agentjailHome != "" {
		add(agentjailHome)
		add(filepath.Join(agentjailHome, paths.ConfigName))
		add(filepath.Join(agentjailHome, paths.PoliciesName))
		add(filepath.Join(agentjailHome, paths.BinName))
	}
	add(socket)
	for _, p := range agentPlaces {
		add(p)
	}
	if home != "" {
		for _, d := range credentialDirs {
			add(filepath.Join(home, d))
		}
	}
	return out
}
