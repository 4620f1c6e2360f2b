package toolrecords

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Call is one tool call an agent recorded.
type Call struct {
	Agent    string          // "claude-code", "codex", "gemini", "qwen", "copilot", "droid"
	Session  string          // the agent's session id
	ID       string          // the id the hook event gives the call too (Claude Code tool_use id, Codex call_id), "" if none
	Tool     string          // the tool as the agent names it ("Bash", "exec_command", "shell", ...)
	Input    json.RawMessage // the tool's input exactly as recorded (an object)
	Cwd      string          // the session's working directory where the record says
	Time     time.Time       // when it was recorded (zero if the record has none)
	Subagent bool            // made by a subagent (Claude Code isSidechain or a subagents/ file)
	File     string          // the record file it came from
}

// Root is a place an agent keeps its records: the files under Dir whose
// slash-separated path relative to Dir matches Pattern. Pattern is a
// path.Match pattern per segment, where a "**" segment matches any number
// of directories (Codex's sessions/YYYY/MM/DD). A Dir starting with "~/"
// is under the user's home.
type Root struct {
	Agent   string
	Dir     string
	Pattern string
	// Format is the reader of its files (agent.Records.Format).
	Format string
}

// Options configure a Follower. The zero value follows nothing until
// Follow names a file.
type Options struct {
	// Roots are where to look for record files.
	Roots []Root
	// MaxLine is the longest record line kept, in bytes; a longer line is
	// skipped (and counted in Stats.Skipped) without being held in memory.
	// 0 is 4 MiB.
	MaxLine int
	// MaxFiles is how many files are followed at once: the most recently
	// modified. 0 is 256.
	MaxFiles int
	// Since, when set, ignores files not modified since and skips records
	// stamped before it.
	Since time.Time
}

// Stats say what one Poll did.
type Stats struct {
	Files   int   // files followed in this Poll
	Bytes   int64 // bytes read from them
	Skipped int   // lines longer than MaxLine, skipped
	Errors  int   // files that could not be read, lines that could not be parsed
	Err     error // the last of those errors, for a message
}

const (
	defaultMaxLine  = 4 << 20
	defaultMaxFiles = 256
	// maxKnown bounds the per-file states kept (as a multiple of MaxFiles):
	// a file that falls out of them and grows again is read from 0.
	maxKnown = 16
	readBuf  = 64 << 10
)

// Follower reads record files incrementally: each Poll returns the calls
// appended since the last one, reading each file from the offset it had
// reached, never twice, with bounded memory. It is safe for concurrent
// use; Polls are serialised.
type Follower struct {
	opts Options

	mu       sync.Mutex
	files    map[string]*file     // by path
	followed map[string][2]string // path → agent and format, from Follow
	rd       *bufio.Reader
	line     []byte // the current line, at most MaxLine bytes
}

// file is what the Follower remembers of one record file.
type file struct {
	path, agent, format string
	info                os.FileInfo // at the last read, to see a replaced file
	off                 int64       // bytes consumed
	inLong              bool        // off is inside a line longer than MaxLine
	mod                 time.Time
	st                  fileState
}

// fileState is what a format learns from earlier lines of a file.
type fileState struct {
	session, cwd string
	subagent     bool
	seen         map[string]bool // ids already reported, for formats that rewrite a message
}

// NewFollower returns a Follower that has read nothing yet.
func NewFollower(opts Options) *Follower {
	if opts.MaxLine <= 0 {
		opts.MaxLine = defaultMaxLine
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = defaultMaxFiles
	}
	return &Follower{opts: opts, files: map[string]*file{}, followed: map[string][2]string{}}
}

// Follow adds one file now, as agent's record in format (the
// transcript_path a hook event named). It is read from where the
// Follower got to, or from 0.
func (f *Follower) Follow(agent, format, path string) {
	if formats[format] == nil || path == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.followed[filepath.Clean(path)] = [2]string{agent, format}
}

// Poll reads what was appended to the followed files since the last Poll
// and returns the tool calls in it, file by file in order.
func (f *Follower) Poll() ([]Call, Stats) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var st Stats
	fail := func(err error) {
		st.Errors++
		st.Err = err
	}
	cands := f.discover(fail)
	var calls []Call
	for _, c := range cands {
		st.Files++
		calls = f.read(c, calls, &st, fail)
	}
	f.prune(cands)
	return calls, st
}

type candidate struct {
	path, agent, format string
	info                os.FileInfo
}

// discover lists the files to read this Poll: those under the roots and
// those named by Follow, not older than Since, the newest MaxFiles.
func (f *Follower) discover(fail func(error)) []candidate {
	seen := map[string]bool{}
	var out []candidate
	add := func(path, agent, format string, info os.FileInfo) {
		if seen[path] || !info.Mode().IsRegular() {
			return
		}
		if !f.opts.Since.IsZero() && info.ModTime().Before(f.opts.Since) {
			return
		}
		seen[path] = true
		out = append(out, candidate{path, agent, format, info})
	}
	for path, af := range f.followed {
		info, err := os.Stat(path)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				fail(err)
			}
			continue
		}
		add(path, af[0], af[1], info)
	}
	for _, r := range f.opts.Roots {
		if formats[r.Format] == nil {
			fail(fmt.Errorf("toolrecords: no reader for format %q", r.Format))
			continue
		}
		dir := expandHome(r.Dir)
		walk(dir, strings.Split(r.Pattern, "/"), 0, func(path string, info os.FileInfo) {
			add(path, r.Agent, r.Format, info)
		}, fail)
	}
	sort.Slice(out, func(i, j int) bool {
		if a, b := out[i].info.ModTime(), out[j].info.ModTime(); !a.Equal(b) {
			return a.After(b)
		}
		return out[i].path < out[j].path
	})
	if len(out) > f.opts.MaxFiles {
		out = out[:f.opts.MaxFiles]
	}
	return out
}

// prune forgets files that are gone and, past maxKnown*MaxFiles states,
// the least recently modified.
func (f *Follower) prune(cands []candidate) {
	live := map[string]bool{}
	for _, c := range cands {
		live[c.path] = true
	}
	for p := range f.files {
		if !live[p] {
			if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
				delete(f.files, p)
			}
		}
	}
	if limit := maxKnown * f.opts.MaxFiles; len(f.files) > limit {
		all := make([]*file, 0, len(f.files))
		for _, s := range f.files {
			all = append(all, s)
		}
		sort.Slice(all, func(i, j int) bool { return all[i].mod.After(all[j].mod) })
		for _, s := range all[limit:] {
			delete(f.files, s.path)
		}
	}
}

// read reads c from the offset it had reached, appending the calls found.
func (f *Follower) read(c candidate, calls []Call, st *Stats, fail func(error)) []Call {
	fs := f.files[c.path]
	if fs == nil || fs.agent != c.agent || fs.format != c.format {
		fs = &file{path: c.path, agent: c.agent, format: c.format}
		f.files[c.path] = fs
	}
	fs.mod = c.info.ModTime()
	if fs.info != nil && fs.off == c.info.Size() && os.SameFile(fs.info, c.info) {
		return calls // nothing new; not even opened
	}
	fd, err := os.Open(c.path)
	if err != nil {
		fail(err)
		return calls
	}
	defer fd.Close()
	info, err := fd.Stat()
	if err != nil {
		fail(err)
		return calls
	}
	if fs.info == nil || !os.SameFile(fs.info, info) || info.Size() < fs.off {
		// New, replaced or truncated: from the start, with nothing learnt.
		*fs = file{path: c.path, agent: c.agent, format: c.format, mod: info.ModTime()}
	}
	fs.info = info
	format := formats[c.format]
	if fs.off == 0 && !fs.inLong {
		fs.st = fileState{subagent: strings.Contains(filepath.ToSlash(c.path), "/subagents/")}
		if format.start != nil {
			format.start(c.path, &fs.st)
		}
	}
	if _, err := fd.Seek(fs.off, io.SeekStart); err != nil {
		fail(err)
		return calls
	}
	if f.rd == nil {
		f.rd = bufio.NewReaderSize(fd, readBuf)
	} else {
		f.rd.Reset(fd)
	}
	for {
		chunk, err := f.rd.ReadSlice('\n')
		st.Bytes += int64(len(chunk))
		if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
			fail(err)
			return calls
		}
		complete, atEOF := err == nil, err == io.EOF
		switch {
		case fs.inLong:
			// The rest of a line too long to keep, read once and dropped.
			fs.off += int64(len(chunk))
			fs.inLong = !complete
			if atEOF {
				return calls
			}
			continue
		case len(f.line)+len(chunk) > f.opts.MaxLine:
			st.Skipped++
			fs.off += int64(len(f.line) + len(chunk))
			f.line = f.line[:0]
			fs.inLong = !complete
			if atEOF {
				return calls
			}
			continue
		case atEOF:
			// An unfinished last line waits for the next Poll.
			f.line = f.line[:0]
			return calls
		case !complete:
			f.line = append(f.line, chunk...)
			continue
		}
		line := chunk
		if len(f.line) > 0 {
			f.line = append(f.line, chunk...)
			line = f.line
		}
		fs.off += int64(len(line))
		if format.holds(line) {
			n := len(calls)
			calls, err = format.parse(bytes.TrimSpace(line), &fs.st, calls)
			if err != nil {
				fail(fmt.Errorf("%s at byte %d: %w", c.path, fs.off-int64(len(line)), err))
			}
			calls = f.stamp(calls, n, c)
		}
		f.line = f.line[:0]
	}
}

// stamp fills in the file and agent of calls[n:] and drops those recorded
// before Since.
func (f *Follower) stamp(calls []Call, n int, c candidate) []Call {
	out := calls[:n]
	for _, call := range calls[n:] {
		if !f.opts.Since.IsZero() && !call.Time.IsZero() && call.Time.Before(f.opts.Since) {
			continue
		}
		call.Agent, call.File = c.agent, c.path
		out = append(out, call)
	}
	return out
}

func expandHome(dir string) string {
	if rest, ok := strings.CutPrefix(dir, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return dir
}
