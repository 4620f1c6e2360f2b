package engine

import (
	"runtime/debug"
	"sync"
)

// compileGCPercent is the garbage collector's pace while a policy set
// compiles. Parsing and compiling leave several times the compiled set's
// size in short-lived garbage between the objects that stay; at the
// default pace that garbage is freed in large batches after the set's
// objects were spread over many spans, and the heap keeps twice the set's
// size in use for good. Collecting often lets the objects that stay reuse
// the garbage's slots: the default pack then holds about a quarter less
// memory, for about half a second more compile (BENCHMARKS.md).
var compileGCPercent = 25

var compactGC struct {
	sync.Mutex
	n    int // compiles in progress
	prev int // the pace before the first of them
}

// compactHeap sets the compile pace until the returned func is called.
// Compiles may overlap (a reload, `agentjail policy test`): the first
// sets the pace, the last restores what was there before.
func compactHeap() (restore func()) {
	compactGC.Lock()
	if compactGC.n == 0 {
		compactGC.prev = debug.SetGCPercent(compileGCPercent)
	}
	compactGC.n++
	compactGC.Unlock()
	return func() {
		compactGC.Lock()
		compactGC.n--
		if compactGC.n == 0 {
			debug.SetGCPercent(compactGC.prev)
		}
		compactGC.Unlock()
	}
}
