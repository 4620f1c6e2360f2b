package toolrecords

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// DefaultRoots are where the agents this package reads keep their records
// for a user whose home is home, with env the environment (os.Getenv).
// The variables the agents themselves honour move them: CLAUDE_CONFIG_DIR,
// CODEX_HOME, GEMINI_CLI_HOME, QWEN_RUNTIME_DIR and QWEN_HOME.
func DefaultRoots(home string, env func(string) string) []Root {
	if env == nil {
		env = func(string) string { return "" }
	}
	or := func(v, def string) string {
		if v != "" {
			return v
		}
		return def
	}
	claude := filepath.Join(or(env("CLAUDE_CONFIG_DIR"), filepath.Join(home, ".claude")), "projects")
	codex := filepath.Join(or(env("CODEX_HOME"), filepath.Join(home, ".codex")), "sessions")
	gemini := filepath.Join(or(env("GEMINI_CLI_HOME"), home), ".gemini", "tmp")
	qwen := filepath.Join(or(env("QWEN_RUNTIME_DIR"), or(env("QWEN_HOME"), filepath.Join(home, ".qwen"))), "projects")
	return []Root{
		{Agent: "claude-code", Dir: claude, Pattern: "*/*.jsonl"},
		{Agent: "claude-code", Dir: claude, Pattern: "*/*/subagents/agent-*.jsonl"},
		{Agent: "codex", Dir: codex, Pattern: "**/rollout-*.jsonl"},
		{Agent: "gemini", Dir: gemini, Pattern: "*/chats/session-*.jsonl"},
		{Agent: "qwen", Dir: qwen, Pattern: "*/chats/*.jsonl"},
	}
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
