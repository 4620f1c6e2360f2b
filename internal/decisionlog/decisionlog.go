// Package decisionlog records every decision as one JSON line in
// $AGENTJAIL_HOME/decisions.jsonl (rotated by size), and keeps the recent
// denies in memory for the tray. Appending never blocks the decision
// path: records queue in memory (a bounded queue) and one goroutine
// writes them, at most one write per gatherFor in a burst; Close writes
// whatever is still queued. A record that
// cannot be written (disk full, unwritable file, failed rotation, a full
// queue) is counted, so status and the tray can show the log as degraded
// instead of losing decisions quietly. The file is kept private (0600).
package decisionlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"gopkg.in/natefinch/lumberjack.v2"
)

// Record is one decision, as logged.
type Record struct {
	Time      time.Time `json:"time"`
	ID        string    `json:"id"`
	SessionID string    `json:"session_id,omitempty"`
	Agent     string    `json:"agent"`
	Cwd       string    `json:"cwd,omitempty"`
	Tool      string    `json:"tool"`
	// Summary is the command for Bash; for file tools the path (and for
	// Write the size), never the file's content.
	Summary    string   `json:"summary"`
	Verdict    string   `json:"verdict"`
	RuleIDs    []string `json:"rule_ids,omitempty"`
	Reasons    []string `json:"reasons,omitempty"`
	EvalMicros int64    `json:"eval_us"`
	Revision   string   `json:"revision,omitempty"`
	// Undelivered marks a decision whose answer could not be written to
	// the hook (it had hung up or timed out): the agent went by its fail
	// mode, not by this verdict.
	Undelivered bool `json:"undelivered,omitempty"`
	// Source is "" for an agent's call and "try" for `agentjail try`,
	// whose decisions are kept apart: `logs` shows them only when asked,
	// and they are never among the recent denies.
	Source string `json:"source,omitempty"`
	// UID is the uid of the call's process, from the socket's peer
	// credentials: the system daemon serves every local user.
	UID *int `json:"uid,omitempty"`
	// Approval is set for a call the policies asked a person about that
	// agentjail held, or that a grant allowed.
	Approval *Approval `json:"approval,omitempty"`
	// Unchecked is set for a call that ran without a decision (Verdict
	// VerdictUnchecked): the daemon learned of it afterwards.
	Unchecked *Unchecked `json:"unchecked,omitempty"`
}

// VerdictUnchecked is the verdict of a call that ran and was never judged.
const VerdictUnchecked = "unchecked"

// Unchecked says how an unchecked call was found and why it likely ran
// unchecked.
type Unchecked struct {
	Cause string `json:"cause"`
	// Source is "post-tool event" or "the agent's record".
	Source    string `json:"source"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Subagent  bool   `json:"subagent,omitempty"`
}

// Approval says how a held call ended, or which grant allowed a call.
type Approval struct {
	// ID is the pending call's id ("" for a grant).
	ID string `json:"id,omitempty"`
	// By is "person", "timeout" (nobody answered), "gone" (the agent
	// gave up waiting), "stopped" (the daemon stopped), "wrong codes",
	// or "grant".
	By string `json:"by"`
	// Via is where the person answered: tray, notification or terminal.
	Via string `json:"via,omitempty"`
	// Scope is once, session or project for a person's allow, and the
	// grant's scope for a grant; Grant the grant made or used.
	Scope string `json:"scope,omitempty"`
	Grant string `json:"grant,omitempty"`
	// Digest is the hash of exactly the call that was answered.
	Digest       string `json:"digest,omitempty"`
	WaitedMillis int64  `json:"waited_ms,omitempty"`
}

// SourceTry is Record.Source for `agentjail try` (wire.SourceTry).
const SourceTry = "try"

// Options configure New.
type Options struct {
	Path       string // the log file
	MaxSizeMB  int    // rotate past this size; 0 means 10
	MaxBackups int    // rotated files kept; 0 means 3
	RecentMax  int    // denies kept in memory; 0 means 50
	QueueMax   int    // records waiting for the disk; 0 means 10000; past it they are dropped and counted
	// HistoryMax is how many of the latest decisions of every verdict
	// and source are kept in memory for Latest (the system daemon
	// answers each user's `agentjail logs` and tray from them); 0 means
	// 1000. At New they are read from the end of the log file.
	HistoryMax int
}

// Log is the decision log.
type Log struct {
	path     string
	out      io.WriteCloser
	mu       sync.Mutex
	queue    []Record
	queueMax int
	wake     chan struct{}
	stop     chan struct{} // closed by Close: the writer stops gathering
	done     chan struct{}
	closed   bool
	recent   []Record // newest last
	max      int
	// history holds the latest decisions, newest last: up to twice
	// historyMax, trimmed to historyMax when full, so an Append copies
	// nothing but now and then.
	history    []Record
	historyMax int
	failures   int64     // records not written
	lastErr    string    // why the last one was not
	lastAt     time.Time // when
}

// New opens the log and starts its writer.
func New(o Options) *Log {
	if o.MaxSizeMB == 0 {
		o.MaxSizeMB = 10
	}
	if o.MaxBackups == 0 {
		o.MaxBackups = 3
	}
	if o.RecentMax == 0 {
		o.RecentMax = 50
	}
	if o.QueueMax == 0 {
		o.QueueMax = 10000
	}
	if o.HistoryMax == 0 {
		o.HistoryMax = 1000
	}
	l := &Log{
		path:     o.Path,
		out:      &lumberjack.Logger{Filename: o.Path, MaxSize: o.MaxSizeMB, MaxBackups: o.MaxBackups},
		queueMax: o.QueueMax,
		wake:     make(chan struct{}, 1),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
		max:      o.RecentMax,
		// Read before the writer starts: the file's end is whole lines.
		history:    tail(o.Path, o.HistoryMax),
		historyMax: o.HistoryMax,
	}
	// lumberjack gives a new file the mode of the one it replaces, so a
	// log once made world-readable would stay so across rotations.
	for _, f := range append(rotated(o.Path), o.Path) {
		l.keepPrivate(f)
	}
	go l.writer()
	return l
}

// keepPrivate narrows a regular file's mode to 0600. It never follows a
// symlink: chmod through one would change some other file.
func (l *Log) keepPrivate(path string) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o077 == 0 {
		return
	}
	if err := os.Chmod(path, fi.Mode().Perm()&0o600); err != nil {
		l.fail(0, fmt.Errorf("making %s private: %w", path, err))
	}
}

// checkPath looks at the log's path before a write. The writer opens by
// name and keeps the file open, so: a symlink or anything but a regular
// file there is refused (writing through it would change another file;
// a folder would be renamed away as if it were an old log); and a file
// removed or replaced since the last write makes the writer reopen, so
// records do not go on into a file nobody can read.
func (l *Log) checkPath(written os.FileInfo) error {
	fi, err := os.Lstat(l.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if written != nil {
			l.out.Close() // removed: the next write creates it afresh
		}
		return nil
	case err != nil:
		return nil // let the write report it
	case fi.Mode().Type() == os.ModeSymlink:
		return fmt.Errorf("%s is a symlink: the decision log is never written through one; remove it", l.path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%v): remove it", l.path, fi.Mode().Type())
	case written != nil && !os.SameFile(fi, written):
		l.out.Close() // replaced: write to the file now at the path
	}
	return nil
}

// fail counts n records that were not written, and why.
func (l *Log) fail(n int, err error) {
	l.mu.Lock()
	l.failures += int64(n)
	l.lastErr = err.Error()
	l.lastAt = time.Now()
	l.mu.Unlock()
}

// Failures reports how many records could not be written since New, and
// the last reason.
func (l *Log) Failures() (n int64, last string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.failures, l.lastErr
}

// Append queues r. It never waits on the disk.
func (l *Log) Append(r Record) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	if len(l.queue) >= l.queueMax {
		// The disk is stuck: bound memory, and say so.
		l.failures++
		l.lastAt = time.Now()
		l.lastErr = fmt.Sprintf("the decision log fell %d records behind the disk; records were dropped", l.queueMax)
	} else {
		l.queue = append(l.queue, r)
	}
	l.history = append(l.history, r)
	if len(l.history) >= 2*l.historyMax {
		l.history = append([]Record(nil), l.history[len(l.history)-l.historyMax:]...)
	}
	if r.Verdict == "deny" && r.Source == "" { // a try is not a block
		l.recent = append(l.recent, r)
		if len(l.recent) > l.max {
			l.recent = append([]Record(nil), l.recent[len(l.recent)-l.max:]...)
		}
	}
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// LastFailure is when a record last could not be written (zero if never).
func (l *Log) LastFailure() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastAt
}

// RecentDenies returns up to n of the latest denies, newest first.
func (l *Log) RecentDenies(n int) []Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Record
	for i := len(l.recent) - 1; i >= 0 && len(out) < n; i-- {
		out = append(out, l.recent[i])
	}
	return out
}

// Latest returns up to n of the latest decisions that keep accepts (all,
// when keep is nil), newest first, from the HistoryMax kept in memory.
// keep runs under the log's lock: it must be quick.
func (l *Log) Latest(n int, keep func(Record) bool) []Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Record
	for i := len(l.history) - 1; i >= 0 && i >= len(l.history)-l.historyMax && len(out) < n; i-- {
		if keep == nil || keep(l.history[i]) {
			out = append(out, l.history[i])
		}
	}
	return out
}

// tailBytes bounds what New reads of the log file's end: a record is
// a few hundred bytes, so this holds the default HistoryMax.
const tailBytes = 512 << 10

// tail returns up to n of the last records of the log file at path,
// oldest first, from at most its last tailBytes: enough for Latest after
// a restart, never a slow start on a large log.
func tail(path string, n int) []Record {
	fh, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	start := max(0, fi.Size()-tailBytes)
	data, err := io.ReadAll(io.NewSectionReader(fh, start, fi.Size()-start))
	if err != nil {
		return nil
	}
	if start > 0 {
		// The first line is likely cut: skip to the next.
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil
		}
		data = data[i+1:]
	}
	var out []Record
	for line := range bytes.Lines(data) {
		var r Record
		if json.Unmarshal(line, &r) == nil {
			out = append(out, r)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

// gatherFor is how long the writer lets records gather after a write.
// Under a burst of decisions it writes (and checks the file) once per
// gatherFor rather than once per decision, which measured as a sixth of
// the daemon's request path; after a quiet spell the first record is
// written at once. A crash loses what is queued either way.
const gatherFor = 10 * time.Millisecond

func (l *Log) writer() {
	defer close(l.done)
	gather := time.NewTimer(gatherFor)
	gather.Stop()
	var buf []byte
	lines := 0
	var written os.FileInfo // the file the last write went to
	flush := func() {
		if err := l.checkPath(written); err != nil {
			l.fail(lines, err)
		} else if _, err := l.out.Write(buf); err != nil {
			l.fail(lines, fmt.Errorf("writing %s: %w", l.path, err))
		} else {
			written, _ = os.Lstat(l.path)
		}
		buf, lines = buf[:0], 0
	}
	for {
		l.mu.Lock()
		batch := l.queue
		l.queue = nil
		closed := l.closed
		l.mu.Unlock()
		// Each write holds whole lines only: the file rotates between
		// writes, so a line is never split across two files.
		for _, r := range batch {
			b, err := json.Marshal(r)
			if err != nil {
				l.fail(1, fmt.Errorf("encoding a record: %w", err))
				continue
			}
			buf = append(append(buf, b...), '\n')
			lines++
			if len(buf) >= 64<<10 {
				flush()
			}
		}
		if len(buf) > 0 {
			flush()
		}
		if len(batch) > 0 {
			l.keepPrivate(l.path) // a cheap lstat; chmod only if someone widened it
		}
		if closed && len(batch) == 0 {
			return
		}
		if len(batch) == 0 {
			<-l.wake
			continue
		}
		gather.Reset(gatherFor)
		select {
		case <-gather.C:
		case <-l.stop:
			gather.Stop()
		}
	}
}

// Close writes everything queued and closes the file.
func (l *Log) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	l.mu.Unlock()
	close(l.stop)
	select {
	case l.wake <- struct{}{}:
	default:
	}
	<-l.done
	return l.out.Close()
}

// Read returns the records of the log file at path and its rotated
// predecessors, oldest first. A line that does not parse (a partial last
// line after a crash) is skipped.
func Read(path string) ([]Record, error) {
	files := rotated(path)
	files = append(files, path)
	var out []Record
	found := false
	for _, f := range files {
		fh, err := os.Open(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		found = true
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			var r Record
			if json.Unmarshal(sc.Bytes(), &r) == nil {
				out = append(out, r)
			}
		}
		fh.Close()
	}
	if !found {
		return nil, nil
	}
	return out, nil
}
