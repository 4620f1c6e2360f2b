package policies_test

import (
	"flag"
	"os"
	"strings"
	"testing"
)

// updateReadme rewrites the README's quality block from the case table:
//
//	go test ./policies -run TestCaseTable -update-readme
var updateReadme = flag.Bool("update-readme", false, "rewrite the quality figures in README.md from this run")

const readmePath = "../README.md"

// checkReadmeFigures fails when the README's block of quality figures is
// not what the case table just printed, so the figures a reader sees are
// always the ones `make test` prints; with -update-readme it rewrites the
// block instead.
func checkReadmeFigures(t *testing.T, lines []string) {
	t.Helper()
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start, end, ok := figuresBlock(readme)
	if !ok {
		t.Fatalf("%s has no block of quality: lines to check", readmePath)
	}
	// Without the spaces %-5d leaves at the ends of lines, which editors
	// strip.
	trimmed := make([]string, len(lines))
	for i, l := range lines {
		trimmed[i] = strings.TrimRight(l, " ")
	}
	want := strings.Join(trimmed, "\n") + "\n"
	if readme[start:end] == want {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(readmePath, []byte(readme[:start]+want+readme[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote the quality figures in %s", readmePath)
		return
	}
	t.Errorf("the quality figures in %s are not the ones the case table gives now; rewrite them with\n  go test ./policies -run TestCaseTable -update-readme\nREADME:\n%snow:\n%s", readmePath, readme[start:end], want)
}

// figuresBlock finds the lines of the README's fenced block that start
// with "quality:": their byte range, from the first to the end of the
// last line.
func figuresBlock(readme string) (start, end int, ok bool) {
	start = strings.Index(readme, "```\nquality: ")
	if start < 0 {
		return 0, 0, false
	}
	start += len("```\n")
	end = start + strings.Index(readme[start:], "```")
	if end < start {
		return 0, 0, false
	}
	return start, end, true
}
