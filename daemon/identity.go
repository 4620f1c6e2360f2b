package daemon

import (
	"strings"
	"sync"

	"github.com/agentjail/agentjail/internal/agentconfig"
	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/realpath"
)

// indexes holds one realpath.Index per set of protected places: made when
// a policy set with new credential folders first decides (so the places
// are stat'ed once when it loads) and kept, each re-stat'ing its places
// at most every realpath.Refresh on the calls that name an existing path.
var indexes sync.Map // key: the places joined -> *realpath.Index

// identityIndex is the Index of the protected places for this home,
// agentjail home, socket and the policies' credential folders.
func identityIndex(home, agentjailHome, socket string, credentialDirs []string) *realpath.Index {
	places := input.ProtectedPlaces(home, agentjailHome, socket, agentconfig.UserPlaces(home), credentialDirs)
	key := strings.Join(places, "\x00")
	if x, ok := indexes.Load(key); ok {
		return x.(*realpath.Index)
	}
	x, _ := indexes.LoadOrStore(key, realpath.NewIndex(places))
	return x.(*realpath.Index)
}
