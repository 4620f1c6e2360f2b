package shell

import (
	"regexp"
	"strings"
)

// WriteRoles say which files a program writes, from the pack's
// file_functions table (GTFOBins' file-write function as data): a
// permission change (chmod, touch) is not a write, as it changes no
// contents.
type WriteRoles struct {
	// Options are options, spelled with their dashes, whose value is a
	// file the program writes (sort -o, openssl -out, find -fprint).
	Options []string `json:"options"`
	// Dirs are options whose value is a folder the program writes files
	// into (tar -C when it extracts, cpio -D, unzip -d).
	Dirs []string `json:"dirs"`
	// Operands says which of its path operands it writes: "all", "first",
	// "second" or "last".
	Operands string `json:"operands"`
	// When are flags (without dashes) one of which must be given for any
	// of the writes above (sed -i, tar -x); none means always.
	When []string `json:"when"`
	// Bundled says its first word may be its one-letter flags without a
	// dash (tar xzf), which then count for When.
	Bundled bool `json:"bundled"`
	// Words are regular expressions over each argument whose group 1 is
	// a file the program writes (sqlite3 ".output FILE", vim -c ":w FILE").
	Words []string `json:"words"`
	// Args are regular expressions one of which an argument, as written,
	// must match for the row to apply (defaults write, plutil -replace,
	// PlistBuddy -c 'Set …'): for programs whose verbs are words or
	// single-dash long options, not flags.
	Args []string `json:"args"`
	// Suffix is appended to a written operand that lacks it (defaults
	// write ~/Library/LaunchAgents/x writes x.plist); NameDir is the
	// folder of an operand given as a bare name (a defaults domain lives
	// in ~/Library/Preferences).
	Suffix  string `json:"suffix"`
	NameDir string `json:"name_dir"`
}

// BaseWrites are the writers of their operands the parser knows when it
// is given no writes table (no policy pack loaded): the pack's
// file_functions rows for these programs must say the same (a test in
// internal/engine checks it).
var BaseWrites = map[string]WriteRoles{
	"tee": {Operands: "all"}, "rm": {Operands: "all"}, "unlink": {Operands: "all"}, "truncate": {Operands: "all"},
	"shred": {Operands: "all"}, "srm": {Operands: "all"}, "dd": {Operands: "all"}, "mv": {Operands: "all"},
	"cp": {Operands: "last"}, "install": {Operands: "last"}, "ln": {Operands: "last"}, "rsync": {Operands: "last"},
	"scp": {Operands: "last"}, "ditto": {Operands: "last"},
	"sed": {Operands: "all", When: []string{"i", "in-place"}}, "gsed": {Operands: "all", When: []string{"i", "in-place"}},
	"perl": {Operands: "all", When: []string{"i", "in-place"}}, "ruby": {Operands: "all", When: []string{"i", "in-place"}},
}

var baseWrites = compileWrites(BaseWrites)

type compiledWrites struct {
	WriteRoles
	words []*regexp.Regexp
	args  []*regexp.Regexp
}

func compileWrites(rows map[string]WriteRoles) map[string]compiledWrites {
	out := make(map[string]compiledWrites, len(rows))
	for name, r := range rows {
		c := compiledWrites{WriteRoles: r}
		for _, s := range r.Words {
			// A bad pattern in a user's row disables only that pattern.
			if re, err := regexp.Compile(s); err == nil && re.NumSubexp() > 0 {
				c.words = append(c.words, re)
			}
		}
		for _, s := range r.Args {
			if re, err := regexp.Compile(s); err == nil {
				c.args = append(c.args, re)
			}
		}
		out[name] = c
	}
	return out
}

// writes lists the paths cmd writes: its redirects, the files its row of
// the writes table names, and the files its code writes.
func (w *walker) writes(cmd *Command) []string {
	out := []string{}
	for _, r := range cmd.Redirects {
		if r.Path != "" && strings.Contains(r.Op, ">") {
			out = append(out, r.Path)
		}
	}
	out = append(out, cmd.codeWrites...)
	table := baseWrites
	if r := w.env.Roles; r != nil && len(r.writes) > 0 {
		table = r.writes
	}
	row, ok := table[cmd.Name]
	if !ok || (len(row.When) > 0 && !hasFlag(cmd.Flags, row.When...) && !bundledFlag(cmd, row)) || !argsMatch(cmd, row) {
		return out
	}
	if row.Suffix != "" {
		return append(out, w.suffixedWrites(cmd, row)...)
	}
	targets := optionValues(cmd.Args, []string{"-t", "--target-directory"})
	switch n := len(cmd.Paths); {
	case n == 0:
	case len(targets) > 0 && (row.Operands == "last" || row.Operands == "all"):
		// cp -t DIR SRC...: every source lands in DIR.
		for _, v := range targets {
			dir := w.localPath(v, cmd.Cwd)
			var sources []string
			for _, p := range cmd.Paths {
				if p != dir {
					sources = append(sources, p)
				}
			}
			out = append(out, dir)
			out = append(out, intoFolder(cmd, dir+"/", sources)...)
			if row.Operands == "all" {
				out = append(out, sources...) // mv takes them away
			}
		}
	case row.Operands == "all":
		out = append(out, cmd.Paths...)
		if cmd.Name == "mv" || cmd.Name == "gmv" {
			out = append(out, intoFolder(cmd, cmd.Paths[n-1], cmd.Paths[:n-1])...)
		}
	case row.Operands == "first":
		out = append(out, cmd.Paths[0])
	case row.Operands == "second" && n > 1:
		out = append(out, cmd.Paths[1])
	case row.Operands == "last":
		out = append(out, cmd.Paths[n-1])
		out = append(out, intoFolder(cmd, cmd.Paths[n-1], cmd.Paths[:n-1])...)
	}
	for _, v := range append(optionValues(cmd.Args, row.Options), clusterValues(cmd, row.Options)...) {
		out = append(out, w.localPath(v, cmd.Cwd))
	}
	for _, v := range optionValues(cmd.Args, row.Dirs) {
		out = append(out, w.localPath(v, cmd.Cwd))
	}
	for _, re := range row.words {
		for _, a := range cmd.Args {
			for _, m := range re.FindAllStringSubmatch(a, 4) {
				if v := strings.Trim(m[1], `"'`); v != "" {
					out = append(out, w.localPath(v, cmd.Cwd))
				}
			}
		}
	}
	return out
}

// intoFolder lists the files a copy or move makes in dest when dest is a
// folder: its name ends with a slash, or several sources go there. A
// copy into a folder of hooks or plugins writes the file it copies, not
// the folder: that file is what is judged.
func intoFolder(cmd *Command, dest string, sources []string) []string {
	if !copiesInto[cmd.Name] {
		return nil // rsync's and scp's own rules: a source/ copies its contents, host:dir is not here
	}
	folder := strings.HasSuffix(dest, "/") || len(sources) > 1
	if !folder {
		for i := len(cmd.Args) - 1; i >= 0; i-- {
			if a := cmd.Args[i]; !strings.HasPrefix(a, "-") {
				folder = strings.HasSuffix(a, "/") || strings.HasSuffix(a, "/.") || a == "." || a == "~"
				break
			}
		}
	}
	if !folder {
		return nil
	}
	dest = strings.TrimSuffix(dest, "/")
	var out []string
	for _, src := range sources {
		if name := src[strings.LastIndexByte(src, '/')+1:]; name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "*?[") {
			out = append(out, dest+"/"+name)
		}
	}
	return out
}

// copiesInto are the programs that put each source under its own name
// in a destination folder.
var copiesInto = map[string]bool{"cp": true, "gcp": true, "mv": true, "gmv": true, "install": true, "ln": true}

// bundledFlag reports a When flag among the letters of cmd's first
// word, for a program whose first word may be its flags (tar xzf).
func bundledFlag(cmd *Command, row compiledWrites) bool {
	if !row.Bundled || len(cmd.Args) == 0 || strings.HasPrefix(cmd.Args[0], "-") {
		return false
	}
	for _, f := range row.When {
		if len(f) == 1 && strings.Contains(cmd.Args[0], f) {
			return true
		}
	}
	return false
}

// localPath is a word that names a file, as an absolute path.
func (w *walker) localPath(v, cwd string) string {
	if v == "~" || strings.HasPrefix(v, "~/") {
		v = w.env.Home + v[1:]
	}
	return w.abs(v, cwd)
}

// optionValues are the values given to the options names (spelled with
// their dashes) as `-o V`, `--opt=V`, `-opt=V` or `-oV`.
func optionValues(args, names []string) []string {
	var out []string
	for i, a := range args {
		for _, n := range names {
			switch {
			case a == n && i+1 < len(args):
				out = append(out, args[i+1])
			case strings.HasPrefix(a, n+"=") && len(n) > 2:
				out = append(out, a[len(n)+1:])
			case len(n) == 2 && n[0] == '-' && n[1] != '-' && len(a) > 2 && strings.HasPrefix(a, n):
				out = append(out, a[2:])
			}
		}
	}
	return out
}

// argsMatch reports an argument matching one of row's Args, or a row
// with none.
func argsMatch(cmd *Command, row compiledWrites) bool {
	if len(row.args) == 0 {
		return true
	}
	for _, re := range row.args {
		for _, a := range cmd.Args {
			if re.MatchString(a) {
				return true
			}
		}
	}
	return false
}

// suffixedWrites are the files a row with a Suffix writes: its operand
// (first, second or last) with the suffix added, or a bare name in its
// NameDir.
func (w *walker) suffixedWrites(cmd *Command, row compiledWrites) []string {
	n := len(cmd.Operands)
	i := map[string]int{"first": 0, "second": 1, "last": n - 1}[row.Operands]
	if i < 0 || i >= n {
		return nil
	}
	v := cmd.Operands[i]
	if !strings.Contains(v, "/") && row.NameDir != "" {
		v = row.NameDir + "/" + v
	}
	if !strings.HasSuffix(v, row.Suffix) {
		v += row.Suffix
	}
	return []string{w.localPath(v, cmd.Cwd)}
}

// clusterValues are the values of short options given last in a cluster
// the parser split into flags (curl -fsSLo FILE): the next word.
func clusterValues(cmd *Command, names []string) []string {
	var out []string
	for i, a := range cmd.Args {
		if len(a) < 3 || a[0] != '-' || a[1] == '-' || i+1 >= len(cmd.Args) {
			continue
		}
		for _, n := range names {
			if len(n) == 2 && n[0] == '-' && a[len(a)-1] == n[1] && allFlags(cmd.Flags, a[1:]) {
				out = append(out, cmd.Args[i+1])
			}
		}
	}
	return out
}

// allFlags reports every letter of letters among the parsed flags.
func allFlags(flags []string, letters string) bool {
	for _, l := range letters {
		if (l < 'a' || l > 'z') && (l < 'A' || l > 'Z') || !hasFlag(flags, string(l)) {
			return false
		}
	}
	return true
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
