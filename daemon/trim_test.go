package daemon

import (
	"testing"
	"time"
)

// Memory is given back once per quiet spell: not while decisions come,
// not before the first one, and not twice for one spell.
func TestMemoryIsTrimmedOncePerQuietSpell(t *testing.T) {
	var m memTrim
	t0 := time.Unix(1_800_000_000, 0)
	if m.quiet(t0) {
		t.Error("trimmed before any decision")
	}
	m.busy(t0)
	if m.quiet(t0.Add(trimAfter / 2)) {
		t.Error("trimmed while still busy")
	}
	if !m.quiet(t0.Add(trimAfter)) {
		t.Error("not trimmed after a quiet spell")
	}
	if m.quiet(t0.Add(3 * trimAfter)) {
		t.Error("trimmed twice for one quiet spell")
	}
	m.busy(t0.Add(4 * trimAfter))
	if !m.quiet(t0.Add(5 * trimAfter)) {
		t.Error("not trimmed after the next spell")
	}
}
