package installer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// The system daemon runs as its own user, so a home of mode 0700 or
// 0750 would hide from it the files it judges (an agent's settings
// before an edit, a script before it runs, where a link leads). Install
// gives the service user leave to search the served users' homes: one
// POSIX ACL entry, user:<service>:--x, on the home folder alone. Search
// lets it reach a path it is given, never list the home or read a file
// the user keeps private (mode 0600 stays 0600 to it); whatever it still
// cannot read is judged as unknown. The entry is written as the kernel's
// own extended attribute, so no acl package is needed.

const aclXattr = "system.posix_acl_access"

// ACL entry tags and the header version, from the kernel's posix_acl_xattr.h.
const (
	aclVersion  = 2
	aclUserObj  = 0x01
	aclUser     = 0x02
	aclGroupObj = 0x04
	aclGroup    = 0x08
	aclMask     = 0x10
	aclOther    = 0x20
	aclSearch   = 0x1 // --x
	aclRead     = 0x4 // r--
)

type aclEntry struct {
	tag, perm uint16
	id        uint32
}

// grantSearch adds user:uid:--x to the access ACL of the folder rel
// inside home ("" for the home itself) and reports whether such an entry
// was there already.
func grantSearch(home, rel string, uid int) (bool, error) { return grantACL(home, rel, uid, aclSearch) }

// grantList adds user:uid:r-x: the folder of the user's own policies,
// which the daemon lists to load them.
func grantList(home, rel string, uid int) (bool, error) {
	return grantACL(home, rel, uid, aclSearch|aclRead)
}

func grantACL(home, rel string, uid int, perm uint16) (bool, error) {
	dir, err := openUnder(home, rel)
	if err != nil {
		return false, err
	}
	defer dir.Close()
	entries, err := readACL(dir)
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if e.tag == aclUser && e.id == uint32(uid) && e.perm&perm == perm {
			return true, nil
		}
	}
	entries = slices.DeleteFunc(entries, func(e aclEntry) bool { return e.tag == aclUser && e.id == uint32(uid) })
	entries = append(entries, aclEntry{aclUser, perm, uint32(uid)})
	return false, writeACL(dir, entries)
}

// revokeSearch takes the entry grantSearch or grantList added out again.
func revokeSearch(home, rel string, uid int) error {
	dir, err := openUnder(home, rel)
	if err != nil {
		return err
	}
	defer dir.Close()
	entries, err := readACL(dir)
	if err != nil {
		return err
	}
	kept := slices.DeleteFunc(entries, func(e aclEntry) bool { return e.tag == aclUser && e.id == uint32(uid) })
	return writeACL(dir, kept)
}

// openUnder opens the folder rel inside home without following a link
// below the home: the user owns what is inside it and could otherwise
// point ~/.agentjail at another user's folder, which root would then
// open to the service user. The home's own path is the user database's.
func openUnder(home, rel string) (*os.File, error) {
	real, err := filepath.EvalSymlinks(home)
	if err != nil {
		return nil, err
	}
	const flags = syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_NOFOLLOW | syscall.O_CLOEXEC
	fd, err := syscall.Open(real, flags, 0)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", real, err)
	}
	path := real
	for _, part := range strings.Split(filepath.Clean(rel), "/") {
		if part == "." || part == "" {
			continue
		}
		next, err := syscall.Openat(fd, part, flags, 0)
		syscall.Close(fd)
		path = filepath.Join(path, part)
		if err != nil {
			return nil, fmt.Errorf("opening %s (a folder, not a link): %w", path, err)
		}
		fd = next
	}
	return os.NewFile(uintptr(fd), path), nil
}

// fdPath names an open folder for the xattr calls, which take paths:
// the kernel's link to the very file opened.
func fdPath(f *os.File) string { return "/proc/self/fd/" + strconv.Itoa(int(f.Fd())) }

// readACL reads dir's access ACL, or the three entries its mode stands
// for when it has none.
func readACL(dir *os.File) ([]aclEntry, error) {
	buf := make([]byte, 4096)
	n, err := syscall.Getxattr(fdPath(dir), aclXattr, buf)
	if errors.Is(err, syscall.ENODATA) {
		fi, err := dir.Stat()
		if err != nil {
			return nil, err
		}
		m := uint16(fi.Mode().Perm())
		return []aclEntry{{aclUserObj, m >> 6 & 7, 0}, {aclGroupObj, m >> 3 & 7, 0}, {aclOther, m & 7, 0}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the ACL of %s: %w", dir.Name(), err)
	}
	buf = buf[:n]
	if len(buf) < 4 || binary.LittleEndian.Uint32(buf) != aclVersion || (len(buf)-4)%8 != 0 {
		return nil, fmt.Errorf("the ACL of %s is in a form this version does not know", dir.Name())
	}
	var out []aclEntry
	for b := buf[4:]; len(b) >= 8; b = b[8:] {
		out = append(out, aclEntry{binary.LittleEndian.Uint16(b), binary.LittleEndian.Uint16(b[2:]), binary.LittleEndian.Uint32(b[4:])})
	}
	return out, nil
}

// writeACL writes entries with the mask they need (none when only the
// three entries of the mode are left, which the kernel then folds back
// into the mode), sorted as the kernel requires.
func writeACL(dir *os.File, entries []aclEntry) error {
	entries = slices.DeleteFunc(slices.Clone(entries), func(e aclEntry) bool { return e.tag == aclMask })
	extended := slices.ContainsFunc(entries, func(e aclEntry) bool { return e.tag == aclUser || e.tag == aclGroup })
	if extended {
		var mask uint16
		for _, e := range entries {
			if e.tag == aclGroupObj || e.tag == aclUser || e.tag == aclGroup {
				mask |= e.perm
			}
		}
		entries = append(entries, aclEntry{aclMask, mask, 0})
	}
	slices.SortFunc(entries, func(a, b aclEntry) int {
		if a.tag != b.tag {
			return int(a.tag) - int(b.tag)
		}
		return int(a.id) - int(b.id)
	})
	buf := binary.LittleEndian.AppendUint32(nil, aclVersion)
	for _, e := range entries {
		id := e.id
		if e.tag != aclUser && e.tag != aclGroup {
			id = 0xffffffff // ACL_UNDEFINED_ID
		}
		buf = binary.LittleEndian.AppendUint16(buf, e.tag)
		buf = binary.LittleEndian.AppendUint16(buf, e.perm)
		buf = binary.LittleEndian.AppendUint32(buf, id)
	}
	if err := syscall.Setxattr(fdPath(dir), aclXattr, buf, 0); err != nil {
		return fmt.Errorf("writing the ACL of %s: %w", dir.Name(), err)
	}
	return nil
}
