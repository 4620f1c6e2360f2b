package agentconfig

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// installDirs are where the agents' installers put their programs,
// relative to the home directory unless absolute, besides the PATH.
var installDirs = []string{".local/bin", ".npm-global/bin", "/usr/local/bin", ".claude/local", "/opt/homebrew/bin"}

// Binaries knows the agents' installed programs by the file they are,
// so that a command word that resolves to one (a symlink, a hard link,
// a PATH of its own) is that agent whatever it is called. It looks them
// up once and again at most every refresh; a word is looked up through
// the PATH in force for its command, and a script run by path is read
// (its first bytes) for an agent's npm package.
type Binaries struct {
	home, path string
	mu         sync.Mutex
	at         time.Time
	known      []binary
	cache      map[string]cached
}

type binary struct {
	agent string
	fi    os.FileInfo
}

type cached struct {
	agent string
	at    time.Time
}

// refresh is how long a lookup stays good; cacheSize bounds the words
// remembered.
const (
	refresh    = 5 * time.Second
	cacheSize  = 512
	scriptHead = 4096
)

// NewBinaries finds the agents' programs for a user whose home is home,
// under the daemon's PATH pathEnv and the installers' folders.
func NewBinaries(home, pathEnv string) *Binaries {
	return &Binaries{home: home, path: pathEnv}
}

// Own is what Agent names agentjail's own programs: a link to one, or
// one installed under another name, is agentjail whatever it is called.
const Own = "agentjail"

// ownPrograms are agentjail's own programs (SetOwnPrograms).
var ownPrograms atomic.Pointer[[]string]

// SetOwnPrograms tells every Binaries where agentjail's own programs
// are (the daemon's executable, the installed binaries), so that Agent
// names a file that is one of them Own.
func SetOwnPrograms(paths []string) {
	ownPrograms.Store(&paths)
}

// load finds the agents' programs, following symlinks.
func (b *Binaries) load(now time.Time) {
	b.known, b.at, b.cache = nil, now, map[string]cached{}
	dirs := filepath.SplitList(b.path)
	for _, d := range installDirs {
		if !filepath.IsAbs(d) {
			if b.home == "" {
				continue
			}
			d = filepath.Join(b.home, d)
		}
		dirs = append(dirs, d)
	}
	for _, a := range agentCLIs {
		for _, name := range a.names {
			for _, d := range dirs {
				if !filepath.IsAbs(d) {
					continue
				}
				if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode().IsRegular() {
					b.known = append(b.known, binary{a.agent, fi})
				}
			}
		}
	}
	if own := ownPrograms.Load(); own != nil {
		for _, p := range *own {
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				b.known = append(b.known, binary{Own, fi})
			}
		}
	}
}

// Agent names the agent whose program word starts when run in cwd with
// pathAssign as its PATH ("" for the daemon's), or "" (Own for one of
// agentjail's own programs).
func (b *Binaries) Agent(word, cwd, pathAssign string) string {
	if b == nil || word == "" || strings.ContainsAny(word, "$`*?[") {
		return ""
	}
	key := word + "\x00" + cwd + "\x00" + pathAssign
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.Sub(b.at) > refresh {
		b.load(now)
	}
	if c, ok := b.cache[key]; ok {
		return c.agent
	}
	agent := b.lookup(word, cwd, pathAssign)
	if len(b.cache) >= cacheSize {
		b.cache = map[string]cached{}
	}
	b.cache[key] = cached{agent, now}
	return agent
}

// lookup resolves word as the shell would and compares the file.
func (b *Binaries) lookup(word, cwd, pathAssign string) string {
	var candidates []string
	byPath := strings.Contains(word, "/")
	if byPath {
		if !filepath.IsAbs(word) {
			word = filepath.Join(cwd, word)
		}
		candidates = []string{word}
	} else {
		var dirs []string
		for _, d := range filepath.SplitList(pathAssign) {
			if strings.HasPrefix(d, "$") {
				dirs = append(dirs, filepath.SplitList(b.path)...)
				continue
			}
			dirs = append(dirs, d)
		}
		if pathAssign == "" {
			dirs = filepath.SplitList(b.path)
		}
		for _, d := range dirs {
			if d == "" || d == "." {
				d = cwd
			}
			candidates = append(candidates, filepath.Join(d, word))
		}
	}
	for _, p := range candidates {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 && !byPath {
			continue
		}
		for _, k := range b.known {
			if os.SameFile(fi, k.fi) {
				return k.agent
			}
		}
		if byPath || pathAssign != "" {
			return scriptAgent(p)
		}
		return ""
	}
	return ""
}

// scriptAgent names the agent a script starts by its npm package (node
// .../@anthropic-ai/claude-code/cli.js), reading only its first bytes.
func scriptAgent(p string) string {
	f, err := openNonblock(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, scriptHead)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	for _, a := range agentCLIs {
		for _, pkg := range a.packages {
			if bytes.Contains(head, []byte(pkg+"/")) {
				return a.agent
			}
		}
	}
	return ""
}
