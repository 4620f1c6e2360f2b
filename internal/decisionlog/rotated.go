package decisionlog

import (
	"path/filepath"
	"sort"
	"strings"
)

// rotated lists the rotated copies of path lumberjack made
// (name-<timestamp>.ext), oldest first.
func rotated(path string) []string {
	dir, base := filepath.Split(path)
	ext := filepath.Ext(base)
	prefix := strings.TrimSuffix(base, ext) + "-"
	matches, _ := filepath.Glob(filepath.Join(dir, prefix+"*"+ext))
	sort.Strings(matches) // the timestamp sorts chronologically
	return matches
}
