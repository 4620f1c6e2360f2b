package installer

import (
	"fmt"
	"strings"
)

// Diff renders a unified-style line diff of a file's old and new text,
// for --dry-run. The common head and tail are cut first, so the LCS only
// runs over the few lines that changed, however large the file.
func Diff(path, old, new string) string {
	a, b := splitLines(old), splitLines(new)
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s (after)\n", path, path)
	for _, line := range a[max(0, head-3):head] { // a little context
		fmt.Fprintf(&sb, " %s\n", line)
	}
	sb.WriteString(lcsDiff(a[head:len(a)-tail], b[head:len(b)-tail]))
	for _, line := range a[len(a)-tail : min(len(a), len(a)-tail+3)] {
		fmt.Fprintf(&sb, " %s\n", line)
	}
	return sb.String()
}

// lcsDiff is the line diff of a and b by longest common subsequence.
func lcsDiff(a, b []string) string {
	// lcs[i][j]: length of the longest common subsequence of a[i:], b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var sb strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			fmt.Fprintf(&sb, " %s\n", a[i])
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			fmt.Fprintf(&sb, "-%s\n", a[i])
			i++
		default:
			fmt.Fprintf(&sb, "+%s\n", b[j])
			j++
		}
	}
	return sb.String()
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
