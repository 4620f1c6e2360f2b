package jail

import (
	"strconv"
	"strings"
)

// Seatbelt is p as a macOS sandbox profile (sandbox-exec's SBPL). Later
// rules win over earlier ones, so the grants come after the denials.
// It is built and tested on every system; only a Mac runs it.
func Seatbelt(p Profile) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n")
	noRead := effective(tidy(p.NoRead), tidy(p.Read))
	noWrite := effective(tidy(p.NoWrite), tidy(p.Write))
	for _, place := range noRead {
		b.WriteString("(deny file-read-data (subpath " + sbplString(place) + "))\n")
	}
	guarded := map[string]bool{}
	for _, place := range noWrite {
		b.WriteString("(deny file-write* (subpath " + sbplString(place) + "))\n")
		for _, a := range ancestors(place) {
			guarded[a] = true
		}
	}
	// A guarded place's folders cannot be moved or removed either (which
	// would take the place with them); entries can still be made in them.
	for _, a := range tidy(keys(guarded)) {
		b.WriteString("(deny file-write-unlink file-write-mode file-write-owner (literal " + sbplString(a) + "))\n")
	}
	for _, g := range tidy(p.Read) {
		b.WriteString("(allow file-read-data (subpath " + sbplString(g) + "))\n")
	}
	for _, g := range tidy(p.Write) {
		b.WriteString("(allow file-read-data file-write* (subpath " + sbplString(g) + "))\n")
	}
	// No signal to a process outside the jail (the daemon, the agent, the
	// menu bar).
	b.WriteString("(deny signal (target others))\n")
	for _, s := range tidy(p.Hide) {
		b.WriteString("(deny network-outbound (remote unix-socket (path-literal " + sbplString(s) + ")))\n")
	}
	return b.String()
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// sbplString quotes s as an SBPL string literal.
func sbplString(s string) string { return strconv.Quote(s) }
