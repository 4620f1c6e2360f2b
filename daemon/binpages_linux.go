//go:build linux

package daemon

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// dropBinaryPages unmaps the pages of the daemon's own program file that
// its read-only mappings hold (code and constant data). They are clean
// copies of the file in the page cache: dropping them loses nothing, and
// the few a decision needs come back on first use. Starting and loading
// the pack touch most of the binary (every package's initialisation,
// OPA's compiler), and the kernel maps each page fault's neighbours too,
// so without this an idle daemon shows the whole program as resident.
func dropBinaryPages() {
	var self syscall.Stat_t
	if syscall.Stat("/proc/self/exe", &self) != nil {
		return
	}
	maps, err := os.Open("/proc/self/maps")
	if err != nil {
		return
	}
	defer maps.Close()
	sc := bufio.NewScanner(maps)
	for sc.Scan() {
		start, end, ok := programMapping(sc.Bytes(), self.Ino)
		if ok {
			syscall.Syscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_DONTNEED)
		}
	}
}

// programMapping reads one line of /proc/self/maps ("start-end perms
// offset dev inode path") and reports a read-only, private mapping of the
// file with inode ino. A writable mapping is never named: its pages may
// differ from the file's.
func programMapping(line []byte, ino uint64) (start, end uintptr, ok bool) {
	f := bytes.Fields(line)
	if len(f) < 6 || len(f[1]) != 4 || f[1][0] != 'r' || f[1][1] != '-' || f[1][3] != 'p' {
		return 0, 0, false
	}
	if n, err := strconv.ParseUint(string(f[4]), 10, 64); err != nil || n != ino {
		return 0, 0, false
	}
	lo, hi, found := bytes.Cut(f[0], []byte{'-'})
	if !found {
		return 0, 0, false
	}
	s, err1 := strconv.ParseUint(string(lo), 16, 64)
	e, err2 := strconv.ParseUint(string(hi), 16, 64)
	if err1 != nil || err2 != nil || e <= s {
		return 0, 0, false
	}
	return uintptr(s), uintptr(e), true
}
