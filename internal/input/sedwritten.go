package input

import (
	"strings"

	"github.com/agentjail/agentjail/internal/sedit"
	"github.com/agentjail/agentjail/internal/shell"
	"github.com/agentjail/agentjail/internal/written"
)

// sedInPlace is what `sed -i SCRIPT FILE…` leaves in each file of a kind
// in t that it edits,
// when the command line holds the script: the text the script computes
// from the file's content now, or, where the script is one sedit does
// not follow or the file cannot be read yet (the same line may create
// it), the content with the script's inserted text added. ok is false
// for a sed that edits nothing in place or whose script is not on the
// line (-f FILE, a dynamic word).
func sedInPlace(t *written.Table, c shell.Command, env Env) (edits map[string]string, ok bool) {
	if c.Name != "sed" && c.Name != "gsed" {
		return nil, false
	}
	script, ere, quiet, inPlace := sedArgs(c.Args)
	if !inPlace || script == nil || c.Dynamic {
		return nil, false
	}
	parsed := sedit.Parse(strings.Join(script, "\n"), ere)
	edits = map[string]string{}
	for _, p := range c.Writes {
		// Only a file of a listed kind is judged on its content: the
		// others (sed -i over src/*.go) are not read at all.
		if redirected(c, p) || t.Kind(p, env.Home) == nil {
			continue
		}
		now, readable := currentText(p, env)
		if out, err := parsed.Apply(now, quiet); err == nil && readable {
			edits[p] = out
		} else {
			edits[p] = now + parsed.Inserted()
		}
	}
	return edits, len(edits) > 0
}

// sedArgs reads sed's arguments: the script's parts (-e, --expression,
// or the first operand) and the -E/-r, -n and -i options. The files it
// edits are the command's Writes.
func sedArgs(args []string) (script []string, ere, quiet, inPlace bool) {
	expr := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if !expr && script == nil && i+1 < len(args) {
				script = []string{args[i+1]}
			}
			i = len(args)
		case a == "-e" || a == "--expression":
			if i+1 < len(args) {
				script, expr = append(script, args[i+1]), true
				i++
			}
		case strings.HasPrefix(a, "--expression="):
			script, expr = append(script, strings.TrimPrefix(a, "--expression=")), true
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "--file="):
			return nil, false, false, false // the script is in a file
		case a == "--in-place" || strings.HasPrefix(a, "--in-place="):
			inPlace = true
		case a == "--regexp-extended":
			ere = true
		case a == "--quiet" || a == "--silent":
			quiet = true
		case strings.HasPrefix(a, "--"):
			// --posix, --follow-symlinks, --sandbox …: no effect on the text.
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'i':
					inPlace = true
					// -i'' on macOS is -i followed by an empty suffix word.
					if j == len(a)-1 && i+1 < len(args) && args[i+1] == "" {
						i++
					}
					j = len(a) // the rest is a backup suffix
				case 'E', 'r':
					ere = true
				case 'n':
					quiet = true
				case 'e':
					if j+1 < len(a) {
						script = append(script, a[j+1:])
					} else if i+1 < len(args) {
						script = append(script, args[i+1])
						i++
					}
					expr = true
					j = len(a)
				case 'f':
					return nil, false, false, false
				case 'l':
					if j == len(a)-1 {
						i++
					}
					j = len(a)
				}
			}
		case !expr && script == nil:
			script = []string{a}
		}
	}
	return script, ere, quiet, inPlace
}

// currentText is a file's content now and whether it could be read.
func currentText(p string, env Env) (string, bool) {
	if env.ReadFile == nil {
		return "", false
	}
	b, err := env.ReadFile(p)
	if err != nil {
		return "", false
	}
	return string(b), true
}
