//go:build linux

package daemon

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestProgramMapping(t *testing.T) {
	tests := []struct {
		name string
		line string
		ok   bool
	}{
		{"code", "00400000-01216000 r-xp 00000000 fe:00 42 /usr/bin/agentjail", true},
		{"constants", "01216000-025bb000 r--p 00e16000 fe:00 42 /usr/bin/agentjail", true},
		{"writable data is never dropped", "025bb000-0270c000 rw-p 021bb000 fe:00 42 /usr/bin/agentjail", false},
		{"a shared mapping is never dropped", "01216000-025bb000 r--s 00e16000 fe:00 42 /usr/bin/agentjail", false},
		{"another file", "7f11731f1000-7f1173347000 r-xp 00026000 fe:00 7 /usr/lib/libc.so.6", false},
		{"anonymous", "26b61c800000-26b61f400000 rw-p 00000000 00:00 0", false},
		{"malformed range", "01216000 r--p 00e16000 fe:00 42 /usr/bin/agentjail", false},
		{"empty range", "01216000-01216000 r--p 00e16000 fe:00 42 /usr/bin/agentjail", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, ok := programMapping([]byte(tt.line), 42)
			if ok != tt.ok {
				t.Fatalf("programMapping(%q) = %v, want %v", tt.line, ok, tt.ok)
			}
		})
	}
}

// TestDropBinaryPages drops this test binary's own code pages: fewer stay
// resident, and the program runs on (the next line needs them back).
func TestDropBinaryPages(t *testing.T) {
	before := rssFile(t)
	dropBinaryPages()
	after := rssFile(t)
	if after >= before {
		t.Fatalf("RssFile %d kB before, %d kB after: no page was dropped", before, after)
	}
	t.Logf("RssFile %d kB before, %d kB after", before, after)
}

func rssFile(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "RssFile:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}
