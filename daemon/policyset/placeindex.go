package policyset

import (
	"slices"
	"sync"

	"github.com/agentjail/agentjail/internal/agentconfig"
	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/realpath"
)

// indexKey is what the protected places are derived from.
type indexKey struct {
	home, agentjailHome, socket string
	credentialDirs              []string
}

func (k indexKey) equal(o indexKey) bool {
	return k.home == o.home && k.agentjailHome == o.agentjailHome && k.socket == o.socket && slices.Equal(k.credentialDirs, o.credentialDirs)
}

// indexes holds the realpath.Index of each set of protected places: made
// when a policy set with new credential folders first decides (so the
// places are stat'ed once when it loads) and kept, each re-stat'ing its
// places at most every realpath.Refresh on the calls that name a path.
// A daemon has one or two (the last set, `policy test`'s); compared
// without allocating, since every call asks.
var indexes struct {
	sync.Mutex
	keys []indexKey
	vals []*realpath.Index
}

// identityIndex is the Index of the protected places for this home,
// agentjail home, socket and the policies' credential folders.
func identityIndex(home, agentjailHome, socket string, credentialDirs []string) *realpath.Index {
	k := indexKey{home, agentjailHome, socket, credentialDirs}
	indexes.Lock()
	defer indexes.Unlock()
	for i, o := range indexes.keys {
		if o.equal(k) {
			return indexes.vals[i]
		}
	}
	x := realpath.NewIndex(input.ProtectedPlaces(home, agentjailHome, socket, agentconfig.UserPlaces(home), credentialDirs))
	if len(indexes.keys) >= 8 {
		indexes.keys, indexes.vals = indexes.keys[1:], indexes.vals[1:]
	}
	indexes.keys = append(indexes.keys, k)
	indexes.vals = append(indexes.vals, x)
	return x
}
