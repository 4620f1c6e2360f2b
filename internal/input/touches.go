package input

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentjail/agentjail/agent"
)

// Bounds of the scan of a tool's input for the places it names: past
// them the call is judged on what was found so far, and Derived.
// TouchesTruncated makes the policies ask.
const (
	maxTouchDepth  = 8    // objects and arrays nested in the input
	maxTouchValues = 512  // strings looked at
	maxTouchTokens = 64   // words looked at in one string
	maxTouchLen    = 4096 // longer strings are text, not places
	maxTouches     = 64   // places kept
)

// touchScan gathers the places a tool's input names in any field, at any
// depth (see Derived.Touches).
type touchScan struct {
	cwd, home string
	seen      map[string]bool
	out       []string
	pids      []int64
	values    int
	truncated bool
}

// touches are the places a non-shell call names in any field of its
// input, and the process ids it names, for a call not known only to read.
func touches(ti map[string]any, cwd, home string) (places []string, pids []int64, truncated bool) {
	s := &touchScan{cwd: cwd, home: home, seen: map[string]bool{}}
	s.object(ti, 0)
	return s.out, s.pids, s.truncated
}

func (s *touchScan) object(m map[string]any, depth int) {
	if depth > maxTouchDepth {
		s.truncated = true
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		lk := strings.ToLower(k)
		if agent.WriterFields[lk] {
			continue // what is written is data, not a place
		}
		if pidField(lk) {
			s.pid(m[k])
		}
		s.value(m[k], depth)
	}
}

func (s *touchScan) value(v any, depth int) {
	switch x := v.(type) {
	case string:
		s.text(x)
	case map[string]any:
		s.object(x, depth+1)
	case []any:
		if depth+1 > maxTouchDepth {
			s.truncated = true
			return
		}
		for _, e := range x {
			s.value(e, depth+1)
		}
	}
}

// text: a value names a place when it is a path or a file:// URI as a
// whole, or when one of its whitespace-separated words is an absolute or
// home path or a file:// URI. A relative path inside prose ("see
// .claude/settings.json") is prose, not a place.
func (s *touchScan) text(v string) {
	s.values++
	if s.values > maxTouchValues {
		s.truncated = true
		return
	}
	v = strings.TrimSpace(v)
	if v == "" || len(v) > maxTouchLen {
		return
	}
	if !strings.ContainsAny(v, " \t\n\r") {
		if p, ok := wholePath(v); ok {
			s.add(p)
		}
		return
	}
	for i, w := range strings.Fields(v) {
		if i >= maxTouchTokens {
			s.truncated = true
			return
		}
		w = strings.Trim(w, "\"'`,;:()[]{}<>")
		if p, ok := absoluteWord(w); ok {
			s.add(p)
		}
	}
}

func (s *touchScan) add(p string) {
	abs := Abs(p, s.cwd, s.home)
	if abs == "" || s.seen[abs] {
		return
	}
	if len(s.out) >= maxTouches {
		s.truncated = true
		return
	}
	s.seen[abs] = true
	s.out = append(s.out, abs)
}

// wholePath: a one-word value that is a path: absolute, from home, a
// file:// URI, or relative with a folder (./x, a/b, .claude/x) or a
// hidden name (.env, .claude). Other URLs are not paths.
func wholePath(v string) (string, bool) {
	if p, ok := absoluteWord(v); ok {
		return p, true
	}
	if strings.Contains(v, "://") {
		return "", false
	}
	if strings.Contains(v, "/") || len(v) > 1 && v[0] == '.' && strings.Trim(v, ".") != "" {
		return v, true
	}
	return "", false
}

// absoluteWord: a word that is an absolute path, a path from home, or a
// file:// URI.
func absoluteWord(w string) (string, bool) {
	if p, ok := fileURL(w); ok {
		return p, true
	}
	switch {
	case strings.HasPrefix(w, "/") && len(w) > 1 && !strings.HasPrefix(w, "//"):
		return w, true
	case w == "~" || strings.HasPrefix(w, "~/"), strings.HasPrefix(w, "$HOME/"), strings.HasPrefix(w, "${HOME}/"):
		return w, true
	}
	return "", false
}

// pidField: a field that names a process (pid, process_id, processId, pids).
func pidField(k string) bool {
	switch strings.ReplaceAll(k, "_", "") {
	case "pid", "pids", "processid", "processids", "ppid", "pgid", "targetpid":
		return true
	}
	return false
}

func (s *touchScan) pid(v any) {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			s.pids = append(s.pids, n)
		}
	case float64:
		s.pids = append(s.pids, int64(x))
	case string:
		var n json.Number = json.Number(strings.TrimSpace(x))
		if i, err := n.Int64(); err == nil {
			s.pids = append(s.pids, i)
		}
	case []any:
		for i, e := range x {
			if i >= maxTouches {
				return
			}
			s.pid(e)
		}
	}
}
