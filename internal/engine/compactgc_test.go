package engine

import (
	"runtime/debug"
	"testing"
)

// gcPercent reads the collector's pace without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestCompactHeapOverlapping(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(77))
	first := compactHeap()
	second := compactHeap()
	if got := gcPercent(); got != compileGCPercent {
		t.Fatalf("pace while compiling = %d, want %d", got, compileGCPercent)
	}
	first()
	if got := gcPercent(); got != compileGCPercent {
		t.Fatalf("pace while one compile still runs = %d, want %d", got, compileGCPercent)
	}
	second()
	if got := gcPercent(); got != 77 {
		t.Fatalf("pace after both = %d, want the one before (77)", got)
	}
}
