package shell

import (
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

// A script the daemon may not read (the system daemon's own user kept
// out of a private folder) is marked unread, not taken as absent.
func TestUnreadWhenDenied(t *testing.T) {
	denied := func(p string) ([]byte, error) {
		return nil, &fs.PathError{Op: "lstat", Path: p, Err: syscall.EACCES}
	}
	env := Env{Cwd: "/home/u", Home: "/home/u", Roles: runsRoles(), ReadScript: denied}
	for _, cmd := range []string{"bash ~/private/run.sh", "sh /home/u/private/run.sh", "source ~/private/env.sh", "~/private/run.sh"} {
		r := Parse(cmd, env)
		if len(r.Commands) == 0 || !strings.HasSuffix(r.Commands[0].Unread, ": "+UnreadDenied) {
			t.Errorf("%s: %+v; want the first command marked %q", cmd, r.Commands, UnreadDenied)
		}
	}
}
