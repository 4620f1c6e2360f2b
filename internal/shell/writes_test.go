package shell

import (
	"slices"
	"strings"
	"testing"
)

// writesRoles is a writes table in the shape of the pack's
// (file_functions.rego's writes rows), with the code patterns
// that find files interpreter code writes.
var writesRoles = &Roles{
	Programs: map[string]ProgramRoles{
		"python3": {Code: []string{"c"}},
		"perl":    {Code: []string{"e"}},
		"vim":     {Text: []string{"c"}},
		"curl":    {Value: []string{"o", "output"}},
	},
	Writes: map[string]WriteRoles{
		"tee":     {Operands: "all"},
		"cp":      {Operands: "last"},
		"sort":    {Options: []string{"-o", "--output"}},
		"curl":    {Options: []string{"-o", "--output"}},
		"openssl": {Options: []string{"-out"}},
		"tar":     {Dirs: []string{"-C", "--directory"}, When: []string{"x", "extract"}, Bundled: true},
		"sqlite3": {Words: []string{`(?m)^\s*\.(?:output|once)\s+(\S+)`, `(bad`}},
		"vim":     {Operands: "all", When: []string{"c"}, Words: []string{`^:?w!?\s+(\S+)`}},
	},
	Code: CodeRoles{
		Home:        []string{`os\.path\.expanduser\(\s*['"]~['"]\s*\)`, `Path\.home\(\s*\)`, `\$ENV\{\s*['"]?HOME['"]?\s*\}`},
		Write:       []string{`\bwriteFileSync`},
		WriteArg:    []string{`\bopen\s*\(?\s*[^,()]+,\s*['"]\+?>>?['"]\s*,\s*`},
		Open:        []string{`\bopen`},
		OpenMode:    []string{`\s*\)*\s*,\s*['"][^'"]*[wax+]`},
		WriteAfter:  []string{`\s*\)*\s*\.\s*write_text\s*\(`},
		WritePrefix: []string{`\+?>>?\s*`},
	},
}

// TestWritesTable: each kind of row names the files a command writes,
// and only those.
func TestWritesTable(t *testing.T) {
	env := testEnv
	env.Roles = writesRoles
	tests := []struct {
		name, command, writes string
	}{
		{"operands", `tee -a a b`, "/home/dev/project/a,/home/dev/project/b"},
		{"last operand", `cp x ~/.bashrc`, "/home/dev/.bashrc"},
		// Into a folder, the file copied is what is written.
		{"into a folder named with a slash", `cp /tmp/x.js .opencode/plugin/`, "/home/dev/project/.opencode/plugin,/home/dev/project/.opencode/plugin/x.js"},
		{"several sources into a folder", `cp a.js b.js ~/.config/opencode/plugin`, "/home/dev/.config/opencode/plugin,/home/dev/.config/opencode/plugin/a.js,/home/dev/.config/opencode/plugin/b.js"},
		{"a target folder", `cp -t ~/.pi/extensions /tmp/x.ts`, "/home/dev/.pi/extensions,/home/dev/.pi/extensions/x.ts"},
		{"option value", `sort -o ~/.bashrc in.txt`, "/home/dev/.bashrc"},
		{"long option with =", `sort --output=/tmp/o in.txt`, "/tmp/o"},
		{"attached short option", `sort -o/tmp/o in.txt`, "/tmp/o"},
		{"option ending a cluster", `curl -fsSLo /tmp/k https://x.example/k`, "/tmp/k"},
		{"a cluster whose last letter takes no value", `curl -fsSL https://x.example/k`, ""},
		{"single-dash long option", `openssl enc -in x -out ~/.profile`, "/home/dev/.profile"},
		{"folder when extracting", `tar -C ~ -xf d.tar`, "/home/dev"},
		{"bundled flags", `tar xzf d.tgz -C /tmp/x`, "/tmp/x"},
		{"no write when creating", `tar -czf d.tgz -C ~ .`, ""},
		{"script word", `sqlite3 x.db ".output '~/.zshrc'" "select 1"`, "/home/dev/.zshrc"},
		{"editor with commands", `vim -c ':w! ~/.bashrc' -c ':q' /tmp/p`, "/home/dev/.bashrc,/tmp/p"},
		{"editor alone", `vim notes.txt`, ""},
		{"unknown program", `frob ~/.bashrc`, ""},
		{"code opens for append", `python3 -c "open(os.path.expanduser('~/.bashrc'), 'a').write('x')"`, "/home/dev/.bashrc"},
		{"code reads", `python3 -c "print(open(os.path.expanduser('~/.bashrc')).read())"`, ""},
		{"code writes after the path", `python3 -c "(Path.home()/'.zshrc').write_text('x')"`, "/home/dev/.zshrc"},
		// Each step of a joined chain may be the path (see codePaths).
		{"code write call", `python3 -c "writeFileSync('/etc/x', 'y')"`, "/etc/x,/etc/x/y"},
		{"perl two-argument open", `perl -e 'open(F, ">>$ENV{HOME}/.bashrc")'`, "/home/dev/.bashrc"},
		{"perl three-argument open", `perl -e 'open(my $f, ">", "/tmp/o")'`, "/tmp/o"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.command, env)
			var got []string
			for _, c := range r.Commands {
				got = append(got, c.Writes...)
			}
			slices.Sort(got)
			want := []string{}
			if tt.writes != "" {
				want = strings.Split(tt.writes, ",")
			}
			slices.Sort(want)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s: writes %v, want %v", tt.command, got, want)
			}
		})
	}
}

// Without a writes table the parser still knows the writers of their
// operands (BaseWrites).
func TestWritesWithoutTable(t *testing.T) {
	r := Parse(`cp a ~/.bashrc; tee f; sort -o g h`, testEnv)
	var got []string
	for _, c := range r.Commands {
		got = append(got, c.Writes...)
	}
	if strings.Join(got, ",") != "/home/dev/.bashrc,/home/dev/project/f" {
		t.Errorf("writes %v", got)
	}
}
