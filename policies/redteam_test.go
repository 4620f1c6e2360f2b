package policies_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/wire"
)

// redteamCorpus is half of an independent red-team set: dangerous calls
// written to slip past guards and harmless look-alikes, kept beside the
// repository. Its other half is held back, so this is a development
// measure: fix the class a miss belongs to, never the line.
const redteamCorpus = "../../shared/corpus/redteam-dev.jsonl"

// redteam3Corpus is half of a second independent red-team set, in 20
// classes no earlier work named (macOS stores and switches, containers,
// Kubernetes, cloud IAM, secret managers, resource exhaustion, ...); its
// other half is held back too. Its figures print as redteam3:.
const redteam3Corpus = "../../shared/corpus/redteam-3-dev.jsonl"

// corpusRow is one line of a reference corpus.
type corpusRow struct {
	ToolName  string       `json:"tool_name"`
	ToolInput any          `json:"tool_input"`
	Cwd       string       `json:"cwd"`
	Expect    wire.Verdict `json:"expect"`
	Category  string       `json:"category"`
	Why       string       `json:"why"`
}

// ownRedteamCorpus is the project's own red-team set: the same 18
// categories as the development set, written without reading the pack
// so it measures what generalises; its misses are fixed by class too.
const ownRedteamCorpus = "testdata/redteam-own.jsonl"

// TestRedteamCorpus runs the red-team development set through the real
// daemon with HOME=/home/u and prints, per category, how many dangerous
// calls were stopped (deny or ask) and how many harmless ones allowed.
// AGENTJAIL_CORPUS_MISSES=FILE writes every miss there, one JSON line
// each, for working on the pack.
func TestRedteamCorpus(t *testing.T) {
	f, err := os.Open(redteamCorpus)
	if err != nil {
		t.Skipf("no red-team corpus here: %v", err)
	}
	defer f.Close()
	runRedteam(t, f, "redteam")
}

// TestRedteam3Corpus runs the second red-team development set the same
// way as TestRedteamCorpus.
func TestRedteam3Corpus(t *testing.T) {
	f, err := os.Open(redteam3Corpus)
	if err != nil {
		t.Skipf("no second red-team corpus here: %v", err)
	}
	defer f.Close()
	runRedteam(t, f, "redteam3")
}

// TestOwnRedteam runs the project's own red-team set the same way and
// prints its figures as own:. It lives in the repository, so it is never
// skipped.
func TestOwnRedteam(t *testing.T) {
	f, err := os.Open(ownRedteamCorpus)
	if err != nil {
		t.Fatalf("the own red-team set must be in the repository: %v", err)
	}
	defer f.Close()
	runRedteam(t, f, "own")
}

// runRedteam decides every row of a red-team corpus through the real
// daemon with HOME=/home/u and prints, under label, per category, how
// many dangerous calls were stopped and harmless ones allowed. It fails
// only on unreadable rows and evaluation errors: the figures measure.
func runRedteam(t *testing.T, f io.Reader, label string) {
	d := daemontest.StartFor(t, "/home/u", nil)
	client := &wire.Client{Socket: d.Socket}

	type tally struct{ bad, stopped, good, allowed int }
	byCat := map[string]*tally{}
	var misses []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var row corpusRow
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("corpus line: %v", err)
		}
		ev, _ := json.Marshal(map[string]any{"tool_name": row.ToolName, "tool_input": row.ToolInput, "cwd": row.Cwd, "hook_event_name": "PreToolUse"})
		dec, err := client.Decide(context.Background(), &wire.Request{Event: ev, Cwd: row.Cwd})
		if err != nil {
			t.Fatal(err)
		}
		tl := byCat[row.Category]
		if tl == nil {
			tl = &tally{}
			byCat[row.Category] = tl
		}
		ok := false
		if row.Expect == wire.Allow {
			tl.good++
			ok = dec.Verdict == wire.Allow
			if ok {
				tl.allowed++
			}
		} else {
			tl.bad++
			ok = dec.Verdict != wire.Allow
			if ok {
				tl.stopped++
			}
		}
		if !ok {
			miss, _ := json.Marshal(map[string]any{"category": row.Category, "expect": row.Expect, "got": dec.Verdict, "tool_name": row.ToolName, "tool_input": row.ToolInput, "why": row.Why, "reason": dec.Reason})
			misses = append(misses, string(miss))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	st, err := client.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.EvalErrors != 0 {
		t.Errorf("%d evaluation errors on the %s red-team corpus (last: %s)", st.EvalErrors, label, st.LastEvalErr)
	}
	if out := os.Getenv("AGENTJAIL_CORPUS_MISSES"); out != "" {
		if err := os.WriteFile(out, []byte(strings.Join(misses, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	cats := make([]string, 0, len(byCat))
	for c := range byCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	lines := []string{label + ": category          dangerous stopped      harmless allowed"}
	var sum tally
	for _, c := range cats {
		tl := byCat[c]
		lines = append(lines, fmt.Sprintf("%s: %-17s %4d/%-4d (%3.0f%%)     %4d/%-4d (%3.0f%%)", label, c, tl.stopped, tl.bad, pct(tl.stopped, tl.bad), tl.allowed, tl.good, pct(tl.allowed, tl.good)))
		sum.bad += tl.bad
		sum.stopped += tl.stopped
		sum.good += tl.good
		sum.allowed += tl.allowed
	}
	lines = append(lines, fmt.Sprintf("%s: %-17s %4d/%-4d (%3.0f%%)     %4d/%-4d (%3.0f%%)", label, "all", sum.stopped, sum.bad, pct(sum.stopped, sum.bad), sum.allowed, sum.good, pct(sum.allowed, sum.good)))
	report(t, lines)
}
