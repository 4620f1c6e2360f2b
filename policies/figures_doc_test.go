package policies_test

import (
	"flag"
	"os"
	"strings"
	"testing"
)

// updateDocs rewrites the quality block of docs/pack.md from the case
// table:
//
//	go test ./policies -run TestCaseTable -update-docs
var updateDocs = flag.Bool("update-docs", false, "rewrite the quality figures in docs/pack.md from this run")

// figuresPath is the page that shows the quality figures.
const figuresPath = "../docs/pack.md"

// checkDocFigures fails when the block of quality figures in docs/pack.md
// is not what the case table just printed, so the figures a reader sees
// are always the ones `make test` prints; with -update-docs it rewrites
// the block instead.
func checkDocFigures(t *testing.T, lines []string) {
	t.Helper()
	b, err := os.ReadFile(figuresPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start, end, ok := figuresBlock(doc)
	if !ok {
		t.Fatalf("%s has no block of quality: lines to check", figuresPath)
	}
	// Without the spaces %-5d leaves at the ends of lines, which editors
	// strip.
	trimmed := make([]string, len(lines))
	for i, l := range lines {
		trimmed[i] = strings.TrimRight(l, " ")
	}
	want := strings.Join(trimmed, "\n") + "\n"
	if doc[start:end] == want {
		return
	}
	if *updateDocs {
		if err := os.WriteFile(figuresPath, []byte(doc[:start]+want+doc[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote the quality figures in %s", figuresPath)
		return
	}
	t.Errorf("the quality figures in %s are not the ones the case table gives now; rewrite them with\n  go test ./policies -run TestCaseTable -update-docs\npage:\n%snow:\n%s", figuresPath, doc[start:end], want)
}

// figuresBlock finds the lines of the page's fenced block that start
// with "quality:": their byte range, from the first to the end of the
// last line.
func figuresBlock(doc string) (start, end int, ok bool) {
	start = strings.Index(doc, "```\nquality: ")
	if start < 0 {
		return 0, 0, false
	}
	start += len("```\n")
	end = start + strings.Index(doc[start:], "```")
	if end < start {
		return 0, 0, false
	}
	return start, end, true
}
