package shell

import "strings"

// Programs by what they write. A permission change (chmod, touch) is not
// a write: it changes no contents.
var (
	writesAllPaths = map[string]bool{"tee": true, "rm": true, "unlink": true, "truncate": true, "shred": true, "srm": true, "dd": true, "mv": true}
	writesLastPath = map[string]bool{"cp": true, "install": true, "ln": true, "rsync": true, "scp": true, "ditto": true}
	writesInPlace  = map[string]bool{"sed": true, "gsed": true, "perl": true, "ruby": true}
)

// writes lists the paths cmd writes.
func writes(cmd *Command) []string {
	out := []string{}
	for _, r := range cmd.Redirects {
		if r.Path != "" && strings.Contains(r.Op, ">") {
			out = append(out, r.Path)
		}
	}
	switch {
	case writesAllPaths[cmd.Name]:
		out = append(out, cmd.Paths...)
	case writesLastPath[cmd.Name] && len(cmd.Paths) > 0:
		out = append(out, cmd.Paths[len(cmd.Paths)-1])
	case writesInPlace[cmd.Name] && hasFlag(cmd.Flags, "i", "in-place"):
		out = append(out, cmd.Paths...)
	}
	return out
}

func hasFlag(flags []string, names ...string) bool {
	for _, f := range flags {
		for _, n := range names {
			if f == n {
				return true
			}
		}
	}
	return false
}
