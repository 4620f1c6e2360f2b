package policyset

import (
	"os/user"
	"strconv"
	"sync"
	"time"
)

// callerHome is the home directory of the user uid, from the user
// database, for the system daemon, which serves every local user; "" when
// uid is unknown or has no entry (then ~ means nothing, and nothing is
// judged as being in a home). Lookups are kept a minute: the database is
// a file read per lookup, and homes do not move under running agents.
func callerHome(uid *int) string {
	if uid == nil || *uid < 0 {
		return ""
	}
	homesMu.Lock()
	defer homesMu.Unlock()
	if h, ok := homes[*uid]; ok && time.Since(h.at) < time.Minute {
		return h.dir
	}
	dir := ""
	if u, err := user.LookupId(strconv.Itoa(*uid)); err == nil {
		dir = u.HomeDir
	}
	if len(homes) > 256 {
		clear(homes)
	}
	homes[*uid] = cachedHome{dir, time.Now()}
	return dir
}

type cachedHome struct {
	dir string
	at  time.Time
}

var (
	homesMu sync.Mutex
	homes   = map[int]cachedHome{}
)
