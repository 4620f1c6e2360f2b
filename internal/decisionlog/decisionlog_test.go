package decisionlog

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestEveryRecordOfABurstIsWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	l := New(Options{Path: path})
	var wg sync.WaitGroup
	for g := range 50 {
		wg.Go(func() {
			for i := range 200 {
				l.Append(Record{ID: fmt.Sprintf("%d-%d", g, i), Verdict: "allow", Tool: "Bash"})
			}
		})
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		seen[r.ID] = true
	}
	if len(recs) != 10000 || len(seen) != 10000 {
		t.Errorf("%d records (%d distinct), want 10000", len(recs), len(seen))
	}
}

func TestReadSkipsAPartialLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	os.WriteFile(path, []byte(`{"id":"a","verdict":"deny"}`+"\n"+`{"id":"b","verd`), 0o600)
	recs, err := Read(path)
	if err != nil || len(recs) != 1 || recs[0].ID != "a" {
		t.Errorf("recs %+v err %v", recs, err)
	}
	if recs, err := Read(filepath.Join(t.TempDir(), "none.jsonl")); err != nil || recs != nil {
		t.Errorf("a missing log: %v %v", recs, err)
	}
}

func TestRotationKeepsEveryLineReadable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	l := New(Options{Path: path, MaxSizeMB: 1, MaxBackups: 5})
	big := strings.Repeat("x", 1000)
	for i := range 2500 { // ~2.5 MB: at least two rotations
		l.Append(Record{ID: fmt.Sprint(i), Summary: big, Verdict: "allow"})
	}
	l.Close()
	if len(rotated(path)) < 2 {
		t.Errorf("rotated files %v, want at least 2", rotated(path))
	}
	recs, _ := Read(path)
	if len(recs) != 2500 || recs[0].ID != "0" || recs[2499].ID != "2499" {
		t.Errorf("%d records, first %q last %q", len(recs), recs[0].ID, recs[len(recs)-1].ID)
	}
}

func TestRecentDenies(t *testing.T) {
	l := New(Options{Path: filepath.Join(t.TempDir(), "d.jsonl"), RecentMax: 3})
	defer l.Close()
	for i := range 5 {
		l.Append(Record{ID: fmt.Sprint(i), Verdict: "deny"})
		l.Append(Record{ID: "allow", Verdict: "allow"})
	}
	got := l.RecentDenies(10)
	if len(got) != 3 || got[0].ID != "4" || got[2].ID != "2" {
		t.Errorf("recent %+v", got)
	}
}

func TestWriteFailuresAreCounted(t *testing.T) {
	dir := t.TempDir()
	notADir := filepath.Join(dir, "file")
	os.WriteFile(notADir, []byte("x"), 0o600)
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("keep me\n"), 0o600)
	tests := []struct {
		name, wantErr string
		prepare       func() string // returns the log path
	}{
		// Its folder is a file: no one, root included, can create it.
		{"unwritable path", "not a directory", func() string { return filepath.Join(notADir, "decisions.jsonl") }},
		{"a folder at the path", "not a regular file", func() string {
			p := filepath.Join(dir, "folder.jsonl")
			os.Mkdir(p, 0o700)
			return p
		}},
		{"a symlink at the path", "is a symlink", func() string {
			p := filepath.Join(dir, "link.jsonl")
			os.Symlink(secret, p)
			return p
		}},
		{"a symlink to a full disk", "is a symlink", func() string {
			p := filepath.Join(dir, "full.jsonl")
			os.Symlink("/dev/full", p)
			return p
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.prepare()
			l := New(Options{Path: path})
			for i := range 5 {
				l.Append(Record{ID: fmt.Sprint(i), Verdict: "deny"})
			}
			l.Close()
			n, last := l.Failures()
			if n != 5 || !strings.Contains(last, tt.wantErr) {
				t.Errorf("failures %d (%q), want 5 naming %q", n, last, tt.wantErr)
			}
			if got := l.RecentDenies(10); len(got) != 5 {
				t.Errorf("recent denies are kept in memory even when the disk fails: %d", len(got))
			}
		})
	}
	if b, _ := os.ReadFile(secret); string(b) != "keep me\n" {
		t.Errorf("a symlink target was written to: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "folder.jsonl")); err != nil || !fi.IsDir() {
		t.Errorf("the folder at the log path was moved: %v", err)
	}
}

func TestARemovedOrReplacedLogIsReopened(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.jsonl")
	l := New(Options{Path: path})
	waitFor := func(id string) {
		t.Helper()
		for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(5 * time.Millisecond) {
			if recs, _ := Read(path); len(recs) > 0 && recs[len(recs)-1].ID == id {
				return
			}
		}
		t.Fatalf("record %s never reached %s", id, path)
	}
	l.Append(Record{ID: "a"})
	waitFor("a")
	os.Remove(path)
	l.Append(Record{ID: "b"})
	waitFor("b")
	os.Rename(path, path+".moved")
	os.WriteFile(path, nil, 0o600)
	l.Append(Record{ID: "c"})
	l.Close()
	recs, _ := Read(path)
	if len(recs) != 1 || recs[0].ID != "c" {
		t.Errorf("records at the path %+v, want c alone", recs)
	}
	if n, last := l.Failures(); n != 0 {
		t.Errorf("failures %d %q", n, last)
	}
}

func TestAGoodLogCountsNoFailures(t *testing.T) {
	l := New(Options{Path: filepath.Join(t.TempDir(), "d.jsonl")})
	l.Append(Record{ID: "a", Verdict: "allow"})
	l.Close()
	if n, last := l.Failures(); n != 0 || last != "" {
		t.Errorf("failures %d %q", n, last)
	}
}

func TestAFullQueueDropsAndCounts(t *testing.T) {
	// A writer that never finishes its first write stands for a stuck disk.
	stuck := make(chan struct{})
	defer close(stuck)
	l := New(Options{Path: filepath.Join(t.TempDir(), "d.jsonl"), QueueMax: 10})
	l.mu.Lock()
	l.out = blockingWriter{stuck}
	l.mu.Unlock()
	l.Append(Record{ID: "first"})
	// Wait until the writer holds "first" and is stuck on it.
	for {
		l.mu.Lock()
		empty := len(l.queue) == 0
		l.mu.Unlock()
		if empty {
			break
		}
		runtime.Gosched()
	}
	for i := range 25 {
		l.Append(Record{ID: fmt.Sprint(i)})
	}
	n, last := l.Failures()
	if n != 15 || !strings.Contains(last, "fell 10 records behind") {
		t.Errorf("failures %d %q, want 15 dropped past a queue of 10", n, last)
	}
}

type blockingWriter struct{ stuck chan struct{} }

func (w blockingWriter) Write(p []byte) (int, error) { <-w.stuck; return len(p), nil }
func (w blockingWriter) Close() error                { return nil }

func TestTheLogIsPrivate(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		prepare func(path string)
	}{
		{"created private", func(string) {}},
		{"a world-readable log is narrowed", func(p string) { os.WriteFile(p, []byte("{}\n"), 0o644) }},
		{"a group-writable log is narrowed", func(p string) { os.WriteFile(p, []byte("{}\n"), 0o660) }},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("d%d.jsonl", i))
			tt.prepare(path)
			l := New(Options{Path: path})
			l.Append(Record{ID: "x", Verdict: "allow"})
			l.Close()
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600", fi.Mode().Perm())
			}
		})
	}
	// Widened while the daemon runs: the next write narrows it again.
	path := filepath.Join(dir, "live.jsonl")
	l := New(Options{Path: path})
	defer l.Close()
	l.Append(Record{ID: "a"})
	for fi, _ := os.Stat(path); fi == nil || fi.Size() == 0; fi, _ = os.Stat(path) {
		runtime.Gosched()
	}
	os.Chmod(path, 0o644)
	l.Append(Record{ID: "b"})
	l.Close()
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after a write %v, want 0600", fi.Mode().Perm())
	}
}

// countingWriter counts the writes that reach it.
type countingWriter struct {
	mu     sync.Mutex
	writes int
	lines  int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes++
	w.lines += strings.Count(string(p), "\n")
	return len(p), nil
}
func (w *countingWriter) Close() error { return nil }

func (w *countingWriter) count() (writes, lines int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writes, w.lines
}

func TestABurstIsWrittenInFewWrites(t *testing.T) {
	out := &countingWriter{}
	l := New(Options{Path: filepath.Join(t.TempDir(), "d.jsonl")})
	l.mu.Lock()
	l.out = out
	l.mu.Unlock()
	// After a quiet spell the first record is written on its own ...
	l.Append(Record{ID: "first"})
	for writes, _ := out.count(); writes == 0; writes, _ = out.count() {
		runtime.Gosched()
	}
	// ... and a burst right after it gathers while the writer waits,
	// rather than costing a write (and a check of the file) per record.
	for i := range 200 {
		l.Append(Record{ID: fmt.Sprint(i)})
		runtime.Gosched() // let the writer run between records, as a busy daemon would
	}
	l.Close()
	writes, lines := out.count()
	if lines != 201 {
		t.Errorf("%d lines written, want 201", lines)
	}
	// One for the first record, one or two for the burst (three if the
	// burst outlasted two gathering spells on a loaded machine).
	if writes > 4 {
		t.Errorf("%d writes for a burst of 201 records, want at most 4", writes)
	}
}
