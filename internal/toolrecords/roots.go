package toolrecords

import (
	"github.com/agentjail/agentjail/agent"

	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// Roots are where an agent named agentName keeps its records, by its
// facts (recs), for a user whose home is home, with env the environment
// (os.Getenv): a variable the agent honours moves them.
func Roots(home string, env func(string) string, agentName string, recs []agent.Records) []Root {
	if env == nil {
		env = func(string) string { return "" }
	}
	var out []Root
	for _, r := range recs {
		dir := filepath.Join(home, r.HomeSub)
		for _, v := range r.Env {
			if x := env(v); x != "" {
				dir = filepath.Join(x, r.EnvSub)
				break
			}
		}
		out = append(out, Root{Agent: agentName, Dir: dir, Pattern: r.Pattern, Format: r.Format})
	}
	return out
}

// maxDepth bounds how deep a "**" descends.
const maxDepth = 8

// walk calls found for each regular file under dir matching the pattern
// segments pat; depth is how many directories a "**" has descended.
// A missing directory is no error: the agent has not run yet.
func walk(dir string, pat []string, depth int, found func(string, os.FileInfo), fail func(error)) {
	if len(pat) == 0 {
		return
	}
	seg, rest := pat[0], pat[1:]
	if seg == "**" {
		walk(dir, rest, depth, found, fail)
		if depth >= maxDepth {
			return
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !os.IsNotExist(err) {
			fail(err)
		}
		return
	}
	for _, e := range entries {
		if seg == "**" {
			if e.IsDir() {
				walk(filepath.Join(dir, e.Name()), pat, depth+1, found, fail)
			}
			continue
		}
		if ok, err := path.Match(seg, e.Name()); err != nil {
			fail(err)
			return
		} else if !ok {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if len(rest) > 0 {
			if e.IsDir() {
				walk(p, rest, depth, found, fail)
			}
			continue
		}
		if e.Type()&fs.ModeType != 0 {
			continue // directories, links, devices: records are plain files
		}
		if info, err := e.Info(); err == nil {
			found(p, info)
		}
	}
}
