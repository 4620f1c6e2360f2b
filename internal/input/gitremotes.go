package input

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agentjail/agentjail/internal/shell"
)

// gitRemotes are the remotes (name to fetch URL) of the repository a
// `git remote` command of the line runs in, read from its .git/config
// (input.agentjail.git_remotes, only when a `git remote` command is there
// and the configuration can be read): rules compare a new URL with the
// one it replaces, so a switch from https to ssh is not a redirect to
// another repository.
func gitRemotes(cmds []shell.Command, env Env) map[string]string {
	if env.ReadFile == nil {
		return nil
	}
	i := slices.IndexFunc(cmds, func(c shell.Command) bool { return c.Name == "git" && slices.Contains(c.Args, "remote") })
	if i < 0 {
		return nil
	}
	cfg := gitConfigOf(cmds[i].Cwd, env)
	if cfg == "" {
		return nil
	}
	out := map[string]string{}
	name := ""
	for _, l := range strings.Split(cfg, "\n") {
		l = strings.TrimSpace(l)
		if m := remoteSection.FindStringSubmatch(l); m != nil {
			name = m[1]
			continue
		}
		if strings.HasPrefix(l, "[") {
			name = ""
			continue
		}
		if k, v, ok := strings.Cut(l, "="); ok && name != "" && strings.TrimSpace(k) == "url" {
			if _, seen := out[name]; !seen && len(out) < maxRemotes {
				out[name] = strings.Trim(strings.TrimSpace(v), `"`)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

var remoteSection = regexp.MustCompile(`^\[remote\s+"([^"]+)"\]$`)

// maxRemotes and maxRepoDepth bound the work: remotes kept, folders
// climbed looking for the repository.
const (
	maxRemotes   = 32
	maxRepoDepth = 32
)

// gitConfigOf is the .git/config of the repository holding dir, or ""
// (a worktree's .git file points at its git directory, whose commondir
// holds the config).
func gitConfigOf(dir string, env Env) string {
	for i := 0; i < maxRepoDepth && dir != "" && filepath.IsAbs(dir); i++ {
		if b, err := env.ReadFile(filepath.Join(dir, ".git", "config")); err == nil {
			return string(b)
		}
		if b, err := env.ReadFile(filepath.Join(dir, ".git")); err == nil {
			gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if !ok {
				return ""
			}
			gitdir = strings.TrimSpace(gitdir)
			if !filepath.IsAbs(gitdir) {
				gitdir = filepath.Join(dir, gitdir)
			}
			common := gitdir
			if c, err := env.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
				common = strings.TrimSpace(string(c))
				if !filepath.IsAbs(common) {
					common = filepath.Join(gitdir, common)
				}
			}
			if b, err := env.ReadFile(filepath.Join(common, "config")); err == nil {
				return string(b)
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}
