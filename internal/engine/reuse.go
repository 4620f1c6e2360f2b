package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"hash"
	"sync"
)

// lastCompiled is the last policy set Compile made, by what it was made
// from. Compiling the pack takes most of a second of CPU, so what
// compiled once is not compiled again from the same sources: a reload
// that finds the files as they were, and every daemon of a test binary
// on the default pack, reuse it. It keeps one set, the last good one,
// which is the set in force in a daemon: it costs no memory there.
var lastCompiled compileCache

type compileCache struct {
	mu  sync.Mutex
	key [sha256.Size]byte
	e   *Engine
}

// get is the set compiled from key, if it is the last one, as an Engine
// of its own: the compiled queries and tables are shared (they are never
// changed after Compile and are safe for concurrent use), the decision
// cache is new.
func (c *compileCache) get(key [sha256.Size]byte, keyed bool) *Engine {
	if !keyed {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.e == nil || c.key != key {
		return nil
	}
	e := *c.e
	e.cache = newDecisionCache(e.analysis)
	return &e
}

func (c *compileCache) put(key [sha256.Size]byte, e *Engine) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.key, c.e = key, e
}

// compileKey is a hash of everything Compile reads: each source's name,
// origin and text, the data and the disabled rule ids. keyed is false
// when the data cannot be encoded (it is then compiled, never reused).
func compileKey(sources []Source, data map[string]any, disabled []string) (key [sha256.Size]byte, keyed bool) {
	h := sha256.New()
	field := func(h hash.Hash, b []byte) {
		h.Write(binary.AppendUvarint(nil, uint64(len(b))))
		h.Write(b)
	}
	for _, s := range sources {
		field(h, []byte(s.Name))
		field(h, []byte{boolByte(s.Pack), boolByte(s.Org)})
		field(h, s.Text)
	}
	field(h, nil) // the end of the sources
	// encoding/json writes a map's keys in order: equal data, equal bytes.
	b, err := json.Marshal(data)
	if err != nil {
		return key, false
	}
	field(h, b)
	for _, id := range disabled {
		field(h, []byte(id))
	}
	h.Sum(key[:0])
	return key, true
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
