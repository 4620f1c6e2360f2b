package decisionlog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
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
