// Package jail owns the confinement of an allowed shell call: the
// profile the policy computed for it (what no confined call may read or
// write, and what this call may reach anyway), the kernel's rules made
// of that profile (Landlock on Linux, a Seatbelt profile on macOS), and
// the launcher that applies them and then runs the user's shell with the
// original command. What is decided only when a command runs (a path
// computed at run time, a script on stdin, a link swapped after the
// check) is the kernel's to refuse, not the judge's.
//
// The hook links this package: it imports the standard library and
// golang.org/x/sys only.
package jail

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Profile is what the policy computed for one call. Places are absolute
// paths; a place that does not exist is still kept from being made.
type Profile struct {
	// NoRead are the places whose contents no confined call may read
	// (credential places); names in them can still be listed.
	NoRead []string `json:"no_read,omitempty"`
	// NoWrite are the places no confined call may write, create, remove
	// or rename (the guard's files, the agents' hook settings, start-up
	// and service places). They stay readable.
	NoWrite []string `json:"no_write,omitempty"`
	// Read and Write are this call's grants: places it may read (or
	// write) although a place above or at them is denied.
	Read  []string `json:"read,omitempty"`
	Write []string `json:"write,omitempty"`
	// Make are folders the launcher makes, empty, when they are missing,
	// before it confines the call: tools' caches right in the home
	// folder (~/.cache, ~/.npm), which a confined call cannot make there.
	Make []string `json:"make,omitempty"`
	// Notes are printed on stderr when the call starts: grants withheld.
	Notes []string `json:"notes,omitempty"`
	// Hide are sockets the call must not connect to although it may
	// reach their folder: the session bus, where the menu bar and the
	// notification servers take a person's answers. Linux covers them in
	// a mount namespace of the call's own (see hide_linux.go); a
	// profile is given them only where the daemon found that possible.
	Hide []string `json:"hide,omitempty"`
	// Apart runs the call in a user namespace of its own even with
	// nothing to hide: on kernels whose Landlock has no scopes (ABI 6) it
	// is how the daemon tells a confined caller on its approvals channel
	// (see daemon.peerApart).
	Apart bool `json:"apart,omitempty"`
}

// MaxProfile bounds a profile file: the launcher reads no more.
const MaxProfile = 1 << 20

// Encode is the profile's canonical form: sorted, without duplicates.
func (p Profile) Encode() []byte {
	c := Profile{NoRead: tidy(p.NoRead), NoWrite: tidy(p.NoWrite), Read: tidy(p.Read), Write: tidy(p.Write), Make: tidy(p.Make), Notes: p.Notes, Hide: tidy(p.Hide), Apart: p.Apart}
	b, _ := json.Marshal(c)
	return b
}

// Name is the file name a profile is kept under: the digest of its
// canonical form, so that the launcher can tell a profile that was
// changed after the daemon wrote it.
func Name(encoded []byte) string {
	sum := sha256.Sum256(encoded)
	return hex.EncodeToString(sum[:]) + ".json"
}

// Save writes p into dir under its Name, once, and returns its path.
// perm is the file's mode: a system daemon's profiles are read by every
// user it serves.
func Save(dir string, p Profile, perm os.FileMode) (string, error) {
	b := p.Encode()
	path := filepath.Join(dir, Name(b))
	if old, err := os.ReadFile(path); err == nil && string(old) == string(b) {
		return path, nil
	}
	tmp, err := os.CreateTemp(dir, ".profile-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	return path, os.Rename(tmp.Name(), path)
}

// Load reads the profile at path and checks it is the one its name says.
func Load(path string) (Profile, error) {
	var p Profile
	f, err := os.Open(path)
	if err != nil {
		return p, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxProfile+1))
	if err != nil {
		return p, err
	}
	if len(b) > MaxProfile {
		return p, fmt.Errorf("%s is over %d bytes", path, MaxProfile)
	}
	if Name(b) != filepath.Base(path) {
		return p, fmt.Errorf("%s was changed after agentjail wrote it", path)
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("%s: %w", path, err)
	}
	for _, list := range [][]string{p.NoRead, p.NoWrite, p.Read, p.Write, p.Make, p.Hide} {
		for _, place := range list {
			if !filepath.IsAbs(place) {
				return p, fmt.Errorf("%s: place %q is not absolute", path, place)
			}
		}
	}
	return p, nil
}

// tidy cleans, sorts and deduplicates places.
func tidy(places []string) []string {
	if len(places) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range places {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// under reports whether p is q or inside it.
func under(p, q string) bool {
	return p == q || q == "/" || strings.HasPrefix(p, q+"/")
}
